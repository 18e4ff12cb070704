// Renders a console page in its layout: the operator, the community and its navigation, the CSRF token every form
// carries, and the notice left by the last action.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { takeNotice } from './session.js';

export interface PageData {
  title: string;
  /** The community the page is about (its navigation is shown), or none (sign-in, the chooser). */
  community?: { slug: string; name: string } | null;
  /** Which navigation entry is current. */
  section?: string;
  /** An error to show above the page (a refused form), with its findings per field. */
  problem?: { message: string; details?: { field: string; message: string }[] } | null;
  [key: string]: unknown;
}

export const sections = [
  ['events', 'Events'],
  ['content', 'Content'],
  ['members', 'Members'],
  ['tokens', 'Tokens'],
  ['webhooks', 'Webhooks'],
  ['imports', 'Imports'],
  ['health', 'Health'],
] as const;

/** A console address with its query (empty values left out): what pagers and filters link to. */
export function url(path: string, params: Record<string, unknown> = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value));
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

const instant = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * A time as a page shows it, to the minute with its offset: `2026-03-07 09:00 +01:00` for an event's own zone,
 * `2026-03-10 12:00 UTC` for the store's times (UTC, with or without `+00`). Anything else is shown as it is.
 */
export function when(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  const match = instant.exec(value);
  if (!match) return value;
  const [, day, minute, offset] = match;
  const utc = offset === undefined || offset === 'Z' || /^\+00(:?00)?$/.test(offset);
  return `${day} ${minute} ${utc ? 'UTC' : offset}`;
}

export async function page(
  request: FastifyRequest,
  reply: FastifyReply,
  template: string,
  data: PageData,
  status = 200,
): Promise<FastifyReply> {
  const html = await reply.viewAsync(template, {
    community: null,
    section: null,
    problem: null,
    ...data,
    operator: request.operator,
    csrf: reply.generateCsrf(),
    notice: takeNotice(request, reply),
    sections,
    url,
    when,
  });
  // Pages hold secrets shown once and per-operator data: never kept by a cache, never framed by another site.
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header(
      'content-security-policy',
      "default-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
    )
    .header('referrer-policy', 'same-origin')
    .type('text/html; charset=utf-8')
    .send(html);
}
