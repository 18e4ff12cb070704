// Captures the OpenAPI examples: real answers of the real app over the sample community (fixtures/), named per operation and status.
import type { CapturedExamples } from '../../src/openapi/examples.js';
import { badgeGroupRecords, badgeIds, groupIds } from '../../fixtures/badges-groups.js';
import { feedIds, profileIds } from '../../fixtures/community.js';
import { announcements, moreFeedIds } from '../../fixtures/feeds.js';
import { postIds, postRecords } from '../../fixtures/posts.js';
import type { Config } from '../../src/config.js';
import type { ExampleApp } from './example-app.js';

interface ExampleRequest {
  /** The example's summary in the document. */
  name: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  body?: object;
  /** A body sent as is, instead of `body` as JSON. */
  raw?: { contentType: string; payload: string };
  headers?: Record<string, string>;
  /** Sent for its effect only (the first use of an Idempotency-Key); its answer is no example. */
  setup?: boolean;
  /** Replaces what differs between runs (a freshly minted id) so that regenerating changes nothing. */
  stabilize?: (body: Record<string, unknown>) => Record<string, unknown>;
}

const unknownFeed = '7d0e6a52-5a0e-4c36-9d4e-0f9b3c1a0fff';
const memberBody = { email: 'katherine@example.com', full_name: 'Katherine Johnson' };
const newEvent = {
  title: 'Spring meetup',
  start_date: '2026-04-01T18:00:00-07:00',
  end_date: '2026-04-01T20:00:00-07:00',
  timezone: 'America/Los_Angeles',
  hosts: ['ada@example.com'],
  description: { text: 'Talks, demos and pizza.' },
  published_to: [feedIds.events],
  triggers_webhooks: true,
  webhook_custom_metadata: 'crm-campaign-42',
};
/** Events only the write examples change, so that no read example depends on the order operations are captured in. */
const exampleEvents = ['evexample001', 'evexample002'].map((id) => ({
  kind: 'calendar_event',
  id,
  title: `Example ${id.slice(-1)}`,
  start_date: '2026-05-01T10:00:00Z',
  end_date: '2026-05-01T12:00:00Z',
  created_at: '2026-03-01T09:00:00Z',
  status: 'draft',
  hosts: [profileIds.ada],
}));

/** An event open for registration, which only the registration examples change. */
const registrationEvent = {
  kind: 'calendar_event',
  id: 'evregister01',
  title: 'Open house',
  start_date: '2026-05-02T10:00:00Z',
  end_date: '2026-05-02T12:00:00Z',
  created_at: '2026-03-01T09:00:00Z',
  status: 'published',
  enable_registration_button: true,
  hosts: [profileIds.ada],
};
const registrant = '3f6c2a1e-8b7d-4c55-9e2a-5d1b0c7e4f11';
/** A member only the unregister example registers and unregisters, on an event of its own. */
const dorothy = {
  kind: 'profile',
  id: '3f6c2a1e-8b7d-4c55-9e2a-5d1b0c7e4f12',
  created_at: '2026-03-01T09:00:00Z',
  email: 'dorothy@example.com',
  first_name: 'Dorothy',
  last_name: 'Vaughan',
  preferred_name: 'Dorothy Vaughan',
};
const unregisterEvent = { ...registrationEvent, id: 'evregister02', title: 'Open house, second day' };

/** A badge and a group only the write examples change, named to sort after the others (the list examples show two). */
const exampleBadge = '0b4d9e00-0000-4000-8000-0000000000e1';
const exampleGroup = '06a0b000-0000-4000-8000-0000000000e1';
const exampleMemberSets = [
  { kind: 'badge', id: exampleBadge, name: 'Volunteer of the month', created_at: '2026-03-01T09:00:00Z' },
  {
    kind: 'group',
    id: exampleGroup,
    name: 'Welcome team',
    created_at: '2026-03-01T09:00:00Z',
    members: [{ profile_id: profileIds.ada, added_at: '2026-03-01T09:00:00Z' }],
  },
];
const unknownBadge = '0b4d9e00-0000-4000-8000-0000000000ff';
const unknownGroup = '06a0b000-0000-4000-8000-0000000000ff';

/** Per operationId, the requests whose answers become its examples; each also gets one without a token, one with
 * a token lacking its scope, and one over the rate limit. */
export const exampleRequests: Record<string, ExampleRequest[]> = {
  getCalendarEvent: [
    { name: 'An event across a DST change', url: '/admin/v0/calendar_events/evdstcross01' },
    { name: 'Unknown id', url: '/admin/v0/calendar_events/evnotthere01' },
    { name: 'Id of the wrong length', url: '/admin/v0/calendar_events/short' },
  ],
  listCalendarEvents: [
    { name: 'Past events, one per page', url: '/admin/v0/calendar_events?time_filter=past&per_page=1' },
    { name: 'per_page above 100', url: '/admin/v0/calendar_events?per_page=500' },
    { name: 'Archived feed', url: `/admin/v0/calendar_events?feed_id=${feedIds.archived}` },
  ],
  getCalendarEventsIcs: [
    { name: 'Published events as iCalendar', url: '/admin/v0/calendar_events.ics' },
    { name: 'An unknown time filter', url: '/admin/v0/calendar_events.ics?time_filter=soon' },
    { name: 'Archived feed', url: `/admin/v0/calendar_events.ics?feed_id=${feedIds.archived}` },
  ],
  listFeedPosts: [
    { name: 'Home feed, newest first', url: '/admin/v0/feeds/home/posts?sort=newest&per_page=1' },
    { name: 'Unknown sort', url: '/admin/v0/feeds/home/posts?sort=sideways' },
    { name: 'Unknown feed', url: `/admin/v0/feeds/${unknownFeed}/posts` },
  ],
  getPost: [
    { name: 'A post from a chat message', url: `/admin/v0/posts/${postIds.welcome}` },
    { name: 'Unknown id', url: '/admin/v0/posts/postnothere1' },
    { name: 'Id of the wrong length', url: '/admin/v0/posts/short' },
  ],
  addMember: [
    {
      name: 'A new e-mail',
      method: 'POST',
      url: '/admin/v0/members',
      body: { email: 'katherine@example.com', full_name: 'Katherine Johnson', avatar_url_original: null },
      stabilize: (body) => withMemberId(body, '3f6c2a1e-8b7d-4c55-9e2a-5d1b0c7e4f10'),
    },
    {
      name: 'A known e-mail, in another case',
      method: 'POST',
      url: '/admin/v0/members',
      body: { email: 'Katherine@Example.com', full_name: 'Katherine G. Johnson' },
      stabilize: (body) => withMemberId(body, '3f6c2a1e-8b7d-4c55-9e2a-5d1b0c7e4f10'),
    },
    {
      name: 'Invalid e-mail',
      method: 'POST',
      url: '/admin/v0/members',
      body: { email: 'not an address', full_name: 'Katherine' },
    },
    {
      name: 'A body that is not JSON',
      method: 'POST',
      url: '/admin/v0/members',
      raw: { contentType: 'text/plain', payload: 'katherine@example.com' },
    },
    {
      name: 'A body over the size limit',
      method: 'POST',
      url: '/admin/v0/members',
      body: { email: 'k@example.com', full_name: 'K '.repeat(40_000) },
    },
    {
      name: 'First use of a key',
      setup: true,
      method: 'POST',
      url: '/admin/v0/members',
      headers: { 'idempotency-key': 'key-0001' },
      body: memberBody,
    },
    {
      name: 'An Idempotency-Key reused with another body',
      method: 'POST',
      url: '/admin/v0/members',
      headers: { 'idempotency-key': 'key-0001' },
      body: { ...memberBody, full_name: 'Katherine Coleman Johnson' },
    },
  ],
  createCalendarEvent: [
    {
      name: 'A new event',
      method: 'POST',
      url: '/admin/v0/calendar_events',
      body: newEvent,
      stabilize: (body) => withData(body, { id: 'evcreated001' }),
    },
    {
      name: 'End before start',
      method: 'POST',
      url: '/admin/v0/calendar_events',
      body: { ...newEvent, end_date: '2026-04-01T17:00:00-07:00' },
    },
    {
      name: 'An unknown host',
      method: 'POST',
      url: '/admin/v0/calendar_events',
      body: { ...newEvent, hosts: ['nobody@example.com'] },
    },
  ],
  updateCalendarEvent: [
    {
      name: 'A new title and location',
      method: 'PATCH',
      url: '/admin/v0/calendar_events/evexample001',
      body: { title: 'Example, renamed', location: 'Room 2' },
    },
    {
      name: 'A stale If-Match',
      method: 'PATCH',
      url: '/admin/v0/calendar_events/evexample001',
      headers: { 'if-match': '"e1.1"' },
      body: { location: 'Room 3' },
    },
    {
      name: 'Unknown id',
      method: 'PATCH',
      url: '/admin/v0/calendar_events/evnotthere01',
      body: { location: 'Room 3' },
    },
  ],
  deleteCalendarEvent: [
    { name: 'Deleting an event', method: 'DELETE', url: '/admin/v0/calendar_events/evexample002' },
    { name: 'Deleting it again', method: 'DELETE', url: '/admin/v0/calendar_events/evexample002' },
  ],
  registerForCalendarEvent: [
    {
      name: 'A new person registers',
      method: 'POST',
      url: '/admin/v0/calendar_events/evregister01/registrations',
      body: { email: 'mary@example.com', full_name: 'Mary Jackson' },
      stabilize: (body) => withRegistrant(body, registrant),
    },
    {
      name: 'The same person again',
      method: 'POST',
      url: '/admin/v0/calendar_events/evregister01/registrations',
      body: { email: 'Mary@Example.com', full_name: 'Mary Jackson' },
      stabilize: (body) => withRegistrant(body, registrant),
    },
    {
      name: 'A draft event',
      method: 'POST',
      url: '/admin/v0/calendar_events/evexample001/registrations',
      body: { email: 'mary@example.com', full_name: 'Mary Jackson' },
    },
    {
      name: 'Unknown event',
      method: 'POST',
      url: '/admin/v0/calendar_events/evnotthere01/registrations',
      body: { email: 'mary@example.com', full_name: 'Mary Jackson' },
    },
    {
      name: 'A name without a last name',
      method: 'POST',
      url: '/admin/v0/calendar_events/evregister01/registrations',
      body: { email: 'mary@example.com', full_name: 'Mary' },
    },
  ],
  listCalendarEventRegistrations: [
    {
      name: 'The registrations of an event',
      url: '/admin/v0/calendar_events/evregister01/registrations',
      stabilize: (body) => withRegistrantInRecords(body, registrant),
    },
    { name: 'Unknown event', url: '/admin/v0/calendar_events/evnotthere01/registrations' },
  ],
  unregisterFromCalendarEvent: [
    {
      name: 'Not registered',
      method: 'DELETE',
      url: `/admin/v0/calendar_events/evregister01/registrations/${profileIds.grace}`,
    },
    {
      name: 'Registering Dorothy first',
      method: 'POST',
      url: '/admin/v0/calendar_events/evregister02/registrations',
      body: { email: dorothy.email, full_name: 'Dorothy Vaughan' },
      setup: true,
    },
    {
      name: 'Unregistering a member',
      method: 'DELETE',
      url: `/admin/v0/calendar_events/evregister02/registrations/${dorothy.id}`,
    },
    {
      name: 'Unknown event',
      method: 'DELETE',
      url: `/admin/v0/calendar_events/evnotthere01/registrations/${profileIds.grace}`,
    },
  ],
  deactivateMember: [
    { name: 'Deactivating a member', method: 'POST', url: `/admin/v0/members/${profileIds.grace}/deactivate` },
    {
      name: 'Unknown member',
      method: 'POST',
      url: '/admin/v0/members/5b1c2d3e-0000-4000-8000-0000000000ff/deactivate',
    },
  ],
  listFeeds: [
    { name: 'Listed feeds, two per page', url: '/admin/v0/feeds?is_archived=false&is_unlisted=false&per_page=2' },
    { name: 'A filter that is not true or false', url: '/admin/v0/feeds?is_archived=yes' },
  ],
  getFeed: [
    { name: 'A feed with its chat channel', url: `/admin/v0/feeds/${moreFeedIds.announcements}` },
    { name: 'Unknown feed', url: `/admin/v0/feeds/${unknownFeed}` },
    { name: 'Not a UUID', url: '/admin/v0/feeds/home' },
  ],
  getApiKey: [
    {
      name: 'The calling token',
      url: '/admin/v0/api_key/me',
      stabilize: (body) =>
        withData(body, {
          id: '0b5d3c8e-2f41-4a6b-9c7d-8e9f0a1b2c3d',
          community: { id: '9a7c5e3f-1b2d-4c6e-8f0a-1b2c3d4e5f60', slug: 'example', name: 'example' },
          created_at: '2026-03-01 09:00:00.000000+00',
        }),
    },
  ],
  listBadges: [
    { name: 'Badges by name, two per page', url: '/admin/v0/badges?per_page=2' },
    { name: 'per_page above 100', url: '/admin/v0/badges?per_page=500' },
  ],
  getBadge: [
    { name: 'A badge with its holders', url: `/admin/v0/badges/${badgeIds.speaker}` },
    { name: 'Unknown badge', url: `/admin/v0/badges/${unknownBadge}` },
    { name: 'Not a UUID', url: '/admin/v0/badges/speaker' },
  ],
  assignBadge: [
    {
      name: 'Giving a badge to two members',
      method: 'POST',
      url: `/admin/v0/badges/${exampleBadge}/assign`,
      body: { users: ['U0ADA00001', 'U0GRACE001'] },
    },
    {
      name: 'Members holding it already: no change',
      method: 'POST',
      url: `/admin/v0/badges/${exampleBadge}/assign`,
      body: { users: ['U0GRACE001'] },
    },
    {
      name: 'A chat user id of no member',
      method: 'POST',
      url: `/admin/v0/badges/${exampleBadge}/assign`,
      body: { users: ['U0ADA00001', 'U0NOBODY01'] },
    },
    {
      name: 'Unknown badge',
      method: 'POST',
      url: `/admin/v0/badges/${unknownBadge}/assign`,
      body: { users: ['U0ADA00001'] },
    },
  ],
  listGroups: [
    { name: 'Groups by name, two per page', url: '/admin/v0/groups?per_page=2' },
    { name: 'A page that is no number', url: '/admin/v0/groups?page=first' },
  ],
  getGroup: [
    { name: 'A group with its members', url: `/admin/v0/groups/${groupIds.organizers}` },
    { name: 'Unknown group', url: `/admin/v0/groups/${unknownGroup}` },
    { name: 'Not a UUID', url: '/admin/v0/groups/organizers' },
  ],
  replaceGroupMembers: [
    {
      name: "Replacing a group's members",
      method: 'PUT',
      url: `/admin/v0/groups/${exampleGroup}/members`,
      body: { users: ['U0GRACE001', 'U0ADA00001'] },
    },
    {
      name: 'An empty list empties the group',
      method: 'PUT',
      url: `/admin/v0/groups/${exampleGroup}/members`,
      body: { users: [] },
    },
    {
      name: 'A chat user id of no member',
      method: 'PUT',
      url: `/admin/v0/groups/${exampleGroup}/members`,
      body: { users: ['U0NOBODY01'] },
    },
    { name: 'Unknown group', method: 'PUT', url: `/admin/v0/groups/${unknownGroup}/members`, body: { users: [] } },
  ],
  searchDocuments: [
    { name: 'Posts, with highlights', url: '/admin/v0/search?type=post&q=welcome&per_page=1&highlight=true' },
    { name: 'Comments', url: '/admin/v0/search?type=comment&q=hello&per_page=1' },
    { name: 'Missing q', url: '/admin/v0/search?type=post' },
  ],
};

function withData(body: Record<string, unknown>, fields: Record<string, unknown>): Record<string, unknown> {
  const data = body['data'];
  if (typeof data !== 'object' || data === null) return body;
  return { ...body, data: { ...data, ...fields } };
}

function withMemberId(body: Record<string, unknown>, id: string): Record<string, unknown> {
  const data = body['data'];
  if (typeof data !== 'object' || data === null || !('member' in data)) return body;
  const member = data.member;
  if (typeof member !== 'object' || member === null) return body;
  return { ...body, data: { ...data, member: { ...member, id } } };
}

/** The registrant's member id, minted afresh each run, replaced by a fixed one. */
function withRegistrant(body: Record<string, unknown>, id: string): Record<string, unknown> {
  const data = body['data'] as { registration?: { member?: object } } | undefined;
  const registration = data?.registration;
  if (!registration?.member) return body;
  return { ...body, data: { registration: { ...registration, member: { ...registration.member, id } } } };
}

function withRegistrantInRecords(body: Record<string, unknown>, id: string): Record<string, unknown> {
  const data = body['data'] as { records?: { member: object }[] } | undefined;
  if (!data?.records) return body;
  return {
    ...body,
    data: { ...data, records: data.records.map((record) => ({ ...record, member: { ...record.member, id } })) },
  };
}

interface DocumentOperations {
  paths?: Record<string, Record<string, { operationId?: string; 'x-required-scopes'?: string[] }>>;
}
type Scope = 'read' | 'members:write' | 'events:write';
const scopes: Scope[] = ['read', 'members:write', 'events:write'];

/** The answers, by operationId, status and name, of apps that `openApp` opens on fresh stores. Fails on an operation
 * of the document without requests. */
export async function captureExamples(
  document: DocumentOperations,
  openApp: (options: { config?: Partial<Config> }) => Promise<ExampleApp>,
): Promise<CapturedExamples> {
  const t = await openApp({});
  const limited = await openApp({ config: { rateLimitPerSecond: 1 } });
  try {
    const community = await seeded(t);
    const token = await t.token(community, scopes);
    const limitedToken = await limited.token(await seeded(limited), scopes);
    const examples: CapturedExamples = {};
    for (const item of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(item)) {
        const { operationId } = operation;
        if (!operationId) continue;
        const requests = exampleRequests[operationId] ?? [];
        const [first] = requests;
        if (!first)
          throw new Error(
            `No example request for operation ${operationId}: add one to scripts/openapi/capture-examples.ts.`,
          );
        const found: CapturedExamples[string] = {};
        // Request ids name the request, so that regenerating gives the same examples.
        const send = async (app: ExampleApp, request: ExampleRequest, authorization: string | null) => {
          const key = request.name
            .toLowerCase()
            .replace(/[^a-z0-9]+/g, '-')
            .replace(/^-|-$/g, '');
          const res = await app.app.inject({
            method: request.method ?? 'GET',
            url: request.url,
            headers: {
              ...request.headers,
              'x-request-id': `req-${operationId}-${key}`,
              ...(authorization ? { authorization: `Bearer ${authorization}` } : {}),
              ...(request.body ? { 'content-type': 'application/json' } : {}),
              ...(request.raw ? { 'content-type': request.raw.contentType } : {}),
            },
            ...(request.body ? { payload: JSON.stringify(request.body) } : {}),
            ...(request.raw ? { payload: request.raw.payload } : {}),
          });
          const status = String(res.statusCode);
          // An iCalendar answer is described by its media type; only JSON answers become examples.
          if (request.setup || !String(res.headers['content-type'] ?? '').startsWith('application/json')) return status;
          const body = res.json<Record<string, unknown>>();
          found[status] = {
            ...found[status],
            [key]: { summary: request.name, value: request.stabilize ? request.stabilize(body) : body },
          };
          return status;
        };
        for (const request of requests) await send(t, request, token);
        await send(t, { ...first, name: 'No token' }, null);
        // A token holding every scope but the one needed answers 403.
        const needed = operation['x-required-scopes'] ?? [];
        const others = scopes.filter((scope) => !needed.includes(scope));
        if (needed.length > 0 && others.length > 0)
          await send(t, { ...first, name: 'A token without the scope' }, await t.token(community, others));
        const overLimit = { ...first, name: 'Over the rate limit' };
        for (let attempt = 0; attempt < 3 && (await send(limited, overLimit, limitedToken)) !== '429'; attempt++);
        for (const [status, named] of Object.entries(found)) {
          // Only the 429 of the rate-limited app: its other answers repeat the first request.
          if (status !== '429' && named['over-the-rate-limit']) delete named['over-the-rate-limit'];
          if (Object.keys(named).length === 0) delete found[status];
        }
        examples[operationId] = Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
      }
    }
    return examples;
  } finally {
    await t.close();
    await limited.close();
  }
}

async function seeded(t: ExampleApp): Promise<string> {
  const community = await t.community('example');
  await t.importRecords(community, [
    ...postRecords,
    announcements,
    ...exampleEvents,
    registrationEvent,
    unregisterEvent,
    dorothy,
    ...badgeGroupRecords,
    ...exampleMemberSets,
  ]);
  return community;
}
