// Answers to a token in hosted field-name mode: the finished spec answer, rewritten into the hosted product's
// names and formats (hosted/hosted-answer.ts). A spec-mode answer passes at the cost of one property check.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { toHostedAnswer } from '../hosted/hosted-answer.js';
import type { ContentCoding } from '../lib/content-codings.js';
import { formBytes, keptForms, own, type KeptForms, type WithForms } from '../lib/kept-forms.js';

/** Stored `reminders_config` of the events among `eventIds` that have one. */
export type RemindersLoader = (communityId: string, eventIds: string[]) => Promise<Map<string, unknown[]>>;

async function hostedPayload(
  payload: string | Buffer,
  communityId: string,
  reminders: RemindersLoader,
): Promise<string> {
  const { body, events } = toHostedAnswer(JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8')));
  if (events.ids.length > 0) {
    const stored = await reminders(communityId, events.ids);
    events.objects.forEach((event, i) => {
      const config = stored.get(events.ids[i] ?? '');
      if (config) event['reminders_config'] = config;
    });
  }
  return JSON.stringify(body);
}

/**
 * The ETag of an answer as this request's token sees it: a hosted-mode answer is another representation of the
 * same resource, so its tag (`"….hosted"`) never equals the spec one's, and each 304s only to its own.
 */
export function etagFor(request: FastifyRequest, etag: string): string {
  return request.principal?.fieldNames === 'hosted' ? `${etag.slice(0, -1)}.hosted"` : etag;
}

/** Hosted answers kept per process, keyed by community, URL and version ETag; bounded in bytes. */
const HOSTED_CACHE_BYTES = 16 * 1024 * 1024;

/** The hosted forms of answers made of fragments, kept until the store changes, with their compressed forms. */
export interface HostedAnswers {
  get(key: string): Buffer | undefined;
  set(key: string, body: Buffer): void;
  /** A kept hosted answer's brotli or gzip form (lib/kept-forms.ts), or undefined for bytes not kept here. */
  compressed: KeptForms['compressed'];
}

/** `onStoreChange` reports every change of the store; `made` counts the compressed forms made, by coding. */
export function createHostedAnswers(
  onStoreChange: (listener: () => void) => void,
  made: Record<ContentCoding, number>,
): HostedAnswers {
  const rewritten = new LRUCache<string, WithForms>({
    maxSize: HOSTED_CACHE_BYTES,
    sizeCalculation: (entry, key) => entry.body.length + formBytes(entry.forms) + key.length * 2 + 64,
  });
  onStoreChange(() => rewritten.clear());
  const forms = keptForms(rewritten, made);
  return {
    get: (key) => rewritten.get(key)?.body,
    set(key, body) {
      rewritten.set(key, { body, forms: {} });
      forms.keep(key, body);
    },
    compressed: forms.compressed,
  };
}

/**
 * Registered before the ETag hook, which then hashes (and marks) the hosted body of answers not made of fragments.
 * Answers made of fragments carry a version ETag already: their hosted form is kept in `kept` under it (with the
 * community and URL, since two URLs may share an ETag) until the store changes.
 */
export function registerHostedMode(app: FastifyInstance, reminders: RemindersLoader, kept: HostedAnswers): void {
  // Callback style on purpose: the spec path allocates no promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const principal = request.principal;
    const success = reply.statusCode >= 200 && reply.statusCode < 300;
    // Answers leave as strings (serialized) or Buffers (assembled from fragments).
    // An iCalendar answer has no field names to rewrite.
    const calendar = String(reply.getHeader('content-type') ?? '').startsWith('text/calendar');
    if (
      principal?.fieldNames !== 'hosted' ||
      !success ||
      calendar ||
      (typeof payload !== 'string' && !Buffer.isBuffer(payload))
    ) {
      done(null, payload);
      return;
    }
    const etag = reply.getHeader('etag');
    const key =
      typeof etag === 'string' && Buffer.isBuffer(payload) ? `${principal.communityId}|${request.url}|${etag}` : null;
    const body = key === null ? undefined : kept.get(key);
    if (body !== undefined) return done(null, body);
    hostedPayload(payload, principal.communityId, reminders).then(
      (hosted) => {
        if (key === null) return done(null, hosted);
        // Kept as bytes of their own, which a compressed form can be asked for by (http/compression.ts).
        const bytes = own(Buffer.from(hosted));
        kept.set(key, bytes);
        done(null, bytes);
      },
      (error: Error) => done(error),
    );
  });
}
