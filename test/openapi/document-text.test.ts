// The published document's prose: no references to spec sections a reader does not have, every scope introduced.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const text = readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8');
const doc = JSON.parse(text) as {
  info: { description: string };
  components: { schemas: Record<string, { properties?: Record<string, { properties?: Record<string, unknown> }> }> };
};

describe('the OpenAPI document', () => {
  it('names no spec section', () => {
    expect(text.match(/spec \d+\.\d+/g) ?? []).toEqual([]);
    expect(text.match(/"Rich-text blocks, as the chat product writes them"/g)?.length).toBe(4);
  });

  it('introduces every scope a token can carry', () => {
    expect(doc.info.description).toContain(
      'carries scopes:\n`read` (every GET), `members:write` (adding and deactivating members, assigning badges, ' +
        'replacing the members of\ngroups) and `events:write` (creating, changing and deleting calendar events); ' +
        'each operation lists the scope it\nneeds.',
    );
  });
});
