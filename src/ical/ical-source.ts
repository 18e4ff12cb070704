// The text of an iCalendar file or of an http(s) address (a Luma calendar's feed, a Google Calendar's secret
// address), read with a deadline and a size bound; its name in messages never shows an address's secret parts.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { FeedError } from './ical-lines.js';

/** A feed larger than this is refused (a calendar's whole history is a few megabytes). */
export const MAX_FEED_BYTES = 20 * 1024 * 1024;
/** An address that has not answered whole within this is given up. */
export const FETCH_TIMEOUT_MS = 30_000;

export interface FeedSource {
  text: string;
  /** How messages name it: the file as given, or the last part of an address's path. */
  name: string;
  /** Recorded with the import run (an address without its query). */
  origin: string;
}

const isAddress = (source: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(source);

async function fetchFeed(address: string, timeoutMs: number, maxBytes: number): Promise<string> {
  const url = new URL(address);
  // webcal:// is how calendar links are often shared; it means https.
  if (url.protocol === 'webcal:') url.protocol = 'https:';
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FeedError(`Cannot import '${address}': only http and https addresses (and files) are read.`);
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow', headers: { accept: 'text/calendar, */*;q=0.5' } });
  } catch (error) {
    const why = signal.aborted ? `no answer within ${timeoutMs / 1000} s` : (error as Error).message;
    throw new FeedError(`Cannot fetch ${url.host}: ${why}.`);
  }
  if (!response.ok) throw new FeedError(`Cannot fetch ${url.host}: it answered ${response.status}.`);
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new FeedError(`The feed at ${url.host} is larger than ${maxBytes} bytes.`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    // Read by its reader: the DOM's ReadableStream type, which the browser tests' types bring in, is not iterable.
    const reader = response.body?.getReader();
    for (let next = await reader?.read(); next && !next.done; next = await reader?.read()) {
      const chunk = next.value;
      size += chunk.byteLength;
      if (size > maxBytes) throw new FeedError(`The feed at ${url.host} is larger than ${maxBytes} bytes.`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FeedError) throw error;
    const why = signal.aborted ? `it did not finish within ${timeoutMs / 1000} s` : (error as Error).message;
    throw new FeedError(`Cannot fetch ${url.host}: ${why}.`);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function readFeed(
  source: string,
  options: { timeoutMs?: number; maxBytes?: number } = {},
): Promise<FeedSource> {
  const maxBytes = options.maxBytes ?? MAX_FEED_BYTES;
  if (isAddress(source)) {
    const url = new URL(source);
    const text = await fetchFeed(source, options.timeoutMs ?? FETCH_TIMEOUT_MS, maxBytes);
    const last = url.pathname.split('/').filter(Boolean).pop();
    return { text, name: last ? decodeURIComponent(last) : url.host, origin: `${url.origin}${url.pathname}` };
  }
  let size: number;
  try {
    const info = await stat(source);
    if (info.isDirectory()) throw new FeedError(`Cannot import '${source}': it is a folder.`);
    size = info.size;
  } catch (error) {
    if (error instanceof FeedError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new FeedError(
      `Cannot import '${source}': ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message}.`,
    );
  }
  if (size > maxBytes) throw new FeedError(`Cannot import '${source}': larger than ${maxBytes} bytes.`);
  return { text: await readFile(source, 'utf8'), name: basename(source), origin: source };
}
