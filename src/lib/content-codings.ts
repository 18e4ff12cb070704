// The content codings answers may leave in (brotli, gzip), from what size, and how hard each is compressed: cheaply
// for an answer compressed on every request, a little harder for one compressed once and kept beside its cached bytes.
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  gzip,
  gzipSync,
  type BrotliOptions,
  type ZlibOptions,
} from 'node:zlib';

/** In Hearth's order of preference, for a client that weighs them alike. */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** Smaller answers leave as they are: a few hundred bytes saved would not pay for the work and the header. */
export const COMPRESS_MIN_BYTES = 1024;

/**
 * The types compressed: Hearth's own answers (JSON, iCalendar, metrics, pages, CSS: any text but event streams),
 * scripts and SVG. Hearth decides this, not the compression plugin's guess from its MIME table, so that the answers
 * that may leave compressed are exactly those marked `Vary: accept-encoding`.
 */
export const COMPRESSIBLE_TYPE =
  /^(?:text\/(?!event-stream)|application\/(?:[\w.-]+\+)?json\b|application\/javascript\b|image\/svg\+xml\b)/i;

/**
 * Per request: brotli 4 (1 to 2 times gzip 6's CPU, 0.5 to 9% smaller), gzip 6 (zlib's default; 9 saves under 1%).
 * Brotli 9 and above cost 40 to several hundred times brotli 4's CPU for 1 to 11% fewer bytes (bench/analysis.md).
 */
export const perRequestOptions: { brotliOptions: BrotliOptions; zlibOptions: ZlibOptions } = {
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
};

/**
 * Once per cached answer: brotli 5 (7 to 10% smaller than 4, for 1 to 2.2 times its CPU). Not higher: an answer
 * read once (a lookup the cache then evicts unread) pays this on its one request.
 */
const CACHED_BROTLI_QUALITY = 5;

/**
 * Up to this size an answer is compressed at once, on the event loop: at most about half a millisecond (brotli 4 of
 * a page of the default size), and 70 to 100 µs of CPU cheaper per answer than through the thread pool, whose
 * streams cost more than a small answer's compression. Larger ones go to the thread pool, not to hold up the others.
 */
export const SYNC_MAX_BYTES = 64 * 1024;

const cachedOptions = (body: Buffer): BrotliOptions => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: CACHED_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
});

/** `body` in `coding` as it is kept: at once up to SYNC_MAX_BYTES, else on libuv's thread pool. */
export function compressForCache(body: Buffer, coding: ContentCoding): Buffer | Promise<Buffer> {
  if (body.length <= SYNC_MAX_BYTES)
    return coding === 'br'
      ? brotliCompressSync(body, cachedOptions(body))
      : gzipSync(body, perRequestOptions.zlibOptions);
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'br') brotliCompress(body, cachedOptions(body), done);
    else gzip(body, perRequestOptions.zlibOptions, done);
  });
}
