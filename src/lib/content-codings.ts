// The content codings answers may leave in (brotli, gzip), from what size, and how hard each is compressed: cheaply
// for an answer compressed on every request, a little harder for one compressed once and kept beside its cached bytes.
import { brotliCompress, constants, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';

/** In Hearth's order of preference, for a client that weighs them alike. */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** Smaller answers leave as they are: a few hundred bytes saved would not pay for the work and the header. */
export const COMPRESS_MIN_BYTES = 1024;

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

/** `body` in `coding`, compressed on libuv's thread pool so that a large answer does not hold up the others. */
export function compressForCache(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'br')
      brotliCompress(
        body,
        {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: CACHED_BROTLI_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        },
        done,
      );
    else gzip(body, perRequestOptions.zlibOptions, done);
  });
}
