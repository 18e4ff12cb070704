// Answers of 1 KB and more leave in brotli or gzip to clients that accept them (@fastify/compress); a kept answer
// (the answer cache's, or its hosted form) leaves in the form compressed once and kept beside it, any other is
// compressed as it leaves.
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, onSendHookHandler } from 'fastify';
import {
  COMPRESS_MIN_BYTES,
  CONTENT_CODINGS,
  perRequestOptions,
  SYNC_MAX_BYTES,
  type ContentCoding,
} from '../lib/content-codings.js';
import { preferredCoding } from './accept-encoding.js';

/** The kept compressed form of answer bytes a cache holds, or undefined (lib/kept-forms.ts `compressed`). */
export type CachedForm = (body: Buffer, coding: ContentCoding) => Buffer | Promise<Buffer> | undefined;

/** As @fastify/compress marks what it compresses, so that both ways leave with the same headers. */
function markCompressed(reply: FastifyReply, coding: ContentCoding, form: Buffer): Buffer {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!String(vary).includes('accept-encoding')) reply.header('vary', `${String(vary)}, accept-encoding`);
  reply.header('content-encoding', coding);
  reply.header('content-length', form.length);
  return form;
}

/** Registered before every route: each route's answers then pass through both hooks, after all the others. */
export async function registerCompression(app: FastifyInstance, cachedForm: CachedForm): Promise<void> {
  const negotiate: onSendHookHandler = (request, reply, payload, done) => {
    const { headers } = request;
    if (headers['accept-encoding'] === undefined) return done(null, payload);
    const coding = headers['x-no-compression'] === undefined ? preferredCoding(headers['accept-encoding']) : null;
    // The plugin's own reading takes `*` for gzip, even beside `gzip;q=0`: it is handed this reading instead.
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
