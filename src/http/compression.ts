// Answers of 1 KB and more leave in brotli or gzip to clients that accept them (@fastify/compress); a kept answer
// (the answer cache's, or its hosted form) leaves in the form compressed once and kept beside it, any other is
// compressed as it leaves. Every answer that may leave compressed says `Vary: accept-encoding`, however it leaves.
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import {
  COMPRESS_MIN_BYTES,
  COMPRESSIBLE_TYPE,
  CONTENT_CODINGS,
  perRequestOptions,
  SYNC_MAX_BYTES,
  type ContentCoding,
} from '../lib/content-codings.js';
import { preferredCoding } from './accept-encoding.js';

/** The kept compressed form of answer bytes a cache holds, or undefined (lib/kept-forms.ts `compressed`). */
export type CachedForm = (body: Buffer, coding: ContentCoding) => Buffer | Promise<Buffer> | undefined;

/** Adds `accept-encoding` to the answer's Vary (CORS may have set `Origin` there); @fastify/compress then adds none. */
function varyByCoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
}

/**
 * True when this answer would leave compressed to a client asking for it: of a compressible type, not a byte range,
 * and a stream or 1 KB and more (a HEAD answer by the Content-Length Fastify gave it in place of the body). A 304
 * has no body to judge: it says Vary always (RFC 9110 15.4.5 wants the Vary its 200 would carry; one too many on a
 * small answer's 304 only costs a shared cache a second copy).
 */
function mayCompress(request: FastifyRequest, reply: FastifyReply, payload: unknown): boolean {
  if (reply.statusCode === 304) return true;
  if (reply.statusCode === 206 || reply.hasHeader('content-range')) return false;
  if (!COMPRESSIBLE_TYPE.test(String(reply.getHeader('content-type') ?? 'application/json'))) return false;
  if (typeof payload === 'string') return Buffer.byteLength(payload) >= COMPRESS_MIN_BYTES;
  if (Buffer.isBuffer(payload)) return payload.length >= COMPRESS_MIN_BYTES;
  if (payload === null && request.method === 'HEAD')
    return Number(reply.getHeader('content-length')) >= COMPRESS_MIN_BYTES;
  return typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';
}

/** As @fastify/compress marks what it compresses, so that both ways leave with the same headers. */
function markCompressed(reply: FastifyReply, coding: ContentCoding, form: Buffer): Buffer {
  reply.header('content-encoding', coding);
  reply.header('content-length', form.length);
  return form;
}

/** Registered before every route: each route's answers then pass through both hooks, after all the others. */
export async function registerCompression(app: FastifyInstance, cachedForm: CachedForm): Promise<void> {
  const negotiate: onSendHookHandler = (request, reply, payload, done) => {
    const compressible = mayCompress(request, reply, payload);
    // Also when it leaves as it is (no Accept-Encoding, `identity`): a shared cache must not hand it to one asking br.
    if (compressible) varyByCoding(reply);
    const { headers } = request;
    if (headers['accept-encoding'] === undefined) return done(null, payload);
    const coding =
      compressible && headers['x-no-compression'] === undefined ? preferredCoding(headers['accept-encoding']) : null;
    // The plugin's own reading takes `*` for gzip, even beside `gzip;q=0`, and its own list of types: it is handed
    // this reading instead, and nothing to compress where this hook said no.
    if (coding === null) delete headers['accept-encoding'];
    else headers['accept-encoding'] = coding;
    if (coding === null || !Buffer.isBuffer(payload) || payload.length < COMPRESS_MIN_BYTES) return done(null, payload);
    const form = cachedForm(payload, coding);
    if (form === undefined) return done(null, payload);
    if (Buffer.isBuffer(form)) return done(null, markCompressed(reply, coding, form));
    // Should compressing fail, the plugin compresses these bytes as it would any other answer.
    form.then(
      (made) => done(null, markCompressed(reply, coding, made)),
      () => done(null, payload),
    );
  };
  // Route hooks run after the instance's (hosted names, ETags): the plugin's, added next, after this one.
  app.addHook('onRoute', (route) => {
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), negotiate];
  });
  await app.register(fastifyCompress, {
    ...perRequestOptions,
    encodings: [...CONTENT_CODINGS],
    threshold: COMPRESS_MIN_BYTES,
    // Answers up to 64 KB are compressed at once, with an exact Content-Length; larger ones stream through the thread
    // pool. Fixed, not the plugin's guess from the machine's cores, so that every machine answers alike.
    syncThreshold: SYNC_MAX_BYTES,
    // Request bodies are read as sent: a compressed one is refused as invalid JSON, as before.
    globalDecompression: false,
  });
}
