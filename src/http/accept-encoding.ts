// Reads a request's Accept-Encoding (RFC 9110, 12.5.3): the content coding an answer should leave in, or null for none.
import { CONTENT_CODINGS, type ContentCoding } from '../lib/content-codings.js';

/** A weight as RFC 9110 writes it (`0`, `0.5`, `1.000`); anything else is read as 0, so a refusal is never misread. */
const WEIGHT = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Each listed coding (lowercased, `x-gzip` read as `gzip`) with its weight; a coding listed twice keeps its higher one. */
function weights(header: string): Map<string, number> {
  const listed = new Map<string, number>();
  for (const element of header.split(',')) {
    const [name = '', ...parameters] = element.split(';');
    let coding = name.trim().toLowerCase();
    if (coding === '') continue;
    if (coding === 'x-gzip') coding = 'gzip';
    let weight = 1;
    for (const parameter of parameters) {
      const [key = '', value = ''] = parameter.split('=');
      if (key.trim().toLowerCase() === 'q') weight = WEIGHT.test(value.trim()) ? Number(value) : 0;
    }
    listed.set(coding, Math.max(weight, listed.get(coding) ?? 0));
  }
  return listed;
}

/**
 * The coding to answer in: the acceptable one (weight above 0, named or through `*`) of highest weight, brotli
 * before gzip at equal weight; null when neither is acceptable, when the header is absent, or when the client
 * weighs `identity` (named, or through `*`) above them.
 */
export function preferredCoding(header: string | undefined): ContentCoding | null {
  if (header === undefined) return null;
  const listed = weights(header);
  const any = listed.get('*');
  let best: ContentCoding | null = null;
  let bestWeight = 0;
  for (const coding of CONTENT_CODINGS) {
    const weight = listed.get(coding) ?? any ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  const identity = listed.get('identity') ?? any;
  return identity !== undefined && identity > bestWeight ? null : best;
}
