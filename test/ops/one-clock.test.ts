// One clock: what the services write is dated by the clock they were given, never by the wall clock beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { createWebhooksService } from '../../src/webhooks/webhooks.service.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

let testStore: TestStore;
// Far from the wall clock, so that a date read from it could not pass for this one.
const clock = { now: Date.parse('2001-02-03T04:05:06.789Z') };
const now = () => clock.now;

beforeAll(async () => {
  testStore = await createTestStore();
});
afterAll(() => testStore.cleanup());

describe('the injected clock', () => {
  it("dates a community, a token's creation, expiry and revocation, and a webhook", async () => {
    const { db, dialect } = testStore.store;
    const community = await createCommunitiesService(db, dialect, now).create('clocked', 'Clocked');
    expect(community.created_at).toBe('2001-02-03 04:05:06.789000');

    const tokens = createTokensService(db, now);
    const { id } = await tokens.create(community.id, { scopes: ['read'], expiresInMs: 60_000 });
    clock.now += 1000;
    expect(await tokens.revoke(id)).toBe(true);
    expect(await tokens.list(community.id)).toEqual([
      expect.objectContaining({
        id,
        created_at: '2001-02-03 04:05:06.789000',
        expires_at: '2001-02-03 04:06:06.789000',
        revoked_at: '2001-02-03 04:05:07.789000',
      }),
    ]);

    const hook = await createWebhooksService(db, now).add(community.id, 'http://127.0.0.1:9/hook', {
      allowPrivate: true,
    });
    expect(hook.created_at).toBe('2001-02-03 04:05:07.789000+00');
  });
});
