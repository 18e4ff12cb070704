// The published document's prose: no references to spec sections a reader does not have, every scope introduced.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const text = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
const doc = JSON.parse(text) as {
  info: { description: string };
  components: { schemas: Record<string, { properties?: Record<string, { properties?: Record<string, unknown> }> }> };
  paths: Record<string, Record<string, { security?: { bearerAuth?: string[] }[] }>>;
};

describe('the OpenAPI document', () => {
  it('names no spec section', () => {
    expect(text.match(/spec \d+\.\d+/g) ?? []).toEqual([]);
    expect(text.match(/"Rich-text blocks, as the chat product writes them"/g)?.length).toBe(4);
  });

  it('introduces every scope a token can carry, as the operations require them', () => {
    // The one GET that `read` does not open: its records carry e-mails.
    const getsBeyondRead = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([method, operation]) => method === 'get' && operation.security?.[0]?.bearerAuth?.[0] !== 'read')
        .map(([, operation]) => [path, operation.security?.[0]?.bearerAuth]),
    );
    expect(getsBeyondRead).toEqual([['/admin/v0/calendar_events/{calendar_event_id}/registrations', ['events:write']]]);
    expect(doc.info.description).toContain(
      'carries scopes:\n`read` (every GET but the list of an event\u2019s registrations), `members:write` (adding and ' +
        'deactivating\nmembers, assigning badges, replacing the members of groups) and `events:write` (creating, ' +
        'changing and\ndeleting calendar events, registering people for them and listing their registrations, ' +
        'e-mails included);\neach operation lists the scope it needs.',
    );
  });
});
