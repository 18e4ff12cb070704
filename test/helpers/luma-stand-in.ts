// A local stand-in for Luma's public API on 127.0.0.1, answering as its documentation shows: the key in
// `x-luma-api-key`, `GET /v1/calendars/events/list` paged by `pagination_cursor`/`pagination_limit` with
// `{entries, has_more, next_cursor}`, `GET /v1/events/get?event_id=` with `hosts`, and a 429 with Retry-After when told.
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface LumaRequest {
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
}

export interface LumaStandIn {
  url: string;
  /** The calendar's events as `/v1/events/get` answers them (with `hosts`); the list drops `hosts`. */
  events: Record<string, unknown>[];
  requests: LumaRequest[];
  /** The next this many requests answer 429 with `Retry-After: retryAfter`. */
  throttle: { count: number; retryAfter: string };
  close(): Promise<void>;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, body, headers });

export async function startLumaStandIn(apiKey: string, pageLimit = 2): Promise<LumaStandIn> {
  const standIn: LumaStandIn = {
    url: '',
    events: [],
    requests: [],
    throttle: { count: 0, retryAfter: '1' },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function answer(path: string, query: Record<string, string>, key: unknown) {
    if (key !== apiKey) return json(401, { message: 'Invalid API key.' });
    if (standIn.throttle.count > 0) {
      standIn.throttle.count--;
      return json(429, { message: 'Rate limit exceeded.' }, { 'retry-after': standIn.throttle.retryAfter });
    }
    if (path === '/v1/calendars/events/list') {
      const limit = Math.min(Number(query['pagination_limit'] ?? pageLimit), pageLimit);
      // The cursor is opaque to clients; here it is the offset, base64url-encoded.
      const start = query['pagination_cursor']
        ? Number(Buffer.from(query['pagination_cursor'], 'base64url').toString())
        : 0;
      const entries = standIn.events.slice(start, start + limit).map(({ hosts: _hosts, ...event }) => event);
      const hasMore = start + limit < standIn.events.length;
      return json(200, {
        entries,
        has_more: hasMore,
        next_cursor: hasMore ? Buffer.from(String(start + limit)).toString('base64url') : null,
      });
    }
    if (path === '/v1/events/get') {
      const event = standIn.events.find((e) => e['id'] === query['event_id']);
      return event ? json(200, event) : json(404, { message: 'Event not found.' });
    }
    return json(404, { message: 'Not found.' });
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const query = Object.fromEntries(url.searchParams);
    standIn.requests.push({ path: url.pathname, query, headers: request.headers });
    const { status, body, headers } = answer(url.pathname, query, request.headers['x-luma-api-key']);
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  standIn.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return standIn;
}

/**
 * An event as Luma's documented example of `/v1/events/get` shapes it (every documented field), with values of a
 * real calendar; `fields` override.
 */
export function lumaEvent(id: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    platform: 'luma',
    id,
    user_id: 'usr-7Hk2pQ9x',
    calendar_id: 'cal-a1B2c3D4',
    start_at: '2030-03-12T17:00:00.000Z',
    duration_interval: 'PT2H',
    end_at: '2030-03-12T19:00:00.000Z',
    created_at: '2030-01-05T10:00:00.000Z',
    timezone: 'America/Los_Angeles',
    name: 'Rust meetup',
    description: 'Talks and pizza. RSVP below.',
    description_md: '**Talks** and pizza.\n\n- Async Rust\n- Embedded',
    geo_address_json: {
      address: '548 Market St',
      city: 'San Francisco',
      region: 'California',
      country: 'United States',
      city_state: 'San Francisco, California',
      full_address: '548 Market St, San Francisco, CA 94104, USA',
      google_maps_place_id: 'ChIJ-8L7dmGAhYARhZ1_4o3b5Ww',
      apple_maps_place_id: 'I6E3F8E1B2C4D5A6',
      description: 'Second floor',
    },
    coordinate: { longitude: -122.4002, latitude: 37.7897 },
    meeting_url: null,
    location_type: 'offline',
    location_visibility: 'public',
    cover_url: 'https://images.lumacdn.com/event-covers/rust.png',
    registration_questions: [{ id: 'q1', label: 'Company', required: false, question_type: 'text' }],
    url: `https://luma.com/${id.slice(4)}`,
    visibility: 'public',
    waitlist_status: 'disabled',
    feedback_email: { enabled: true, delay: 'PT1H' },
    tags: [{ id: 'tag-rust', name: 'Rust' }],
    hosts: [
      {
        id: 'usr-ada',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        first_name: 'Ada',
        last_name: 'Lovelace',
        avatar_url: 'https://images.lumacdn.com/avatars/ada.png',
      },
    ],
    ...fields,
  };
}
