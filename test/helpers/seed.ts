// The setup most test files share: one community in a store, the records it holds and a token of it, made through
// the real services and the real import path.
import type { Store } from '../../src/db/store.js';
import { createCommunitiesService } from '../../src/communities/communities.service.js';
import type { Clock } from '../../src/lib/clock.js';
import type { FieldNames } from '../../src/tokens/field-names.js';
import type { Scope } from '../../src/tokens/scopes.js';
import { createTokensService } from '../../src/tokens/tokens.service.js';
import { importLines } from '../../src/import/import.service.js';
import type { WriteRunner } from '../../src/writes/write-runner.js';

export interface TokenOptions {
  expiresInMs?: number;
  fieldNames?: FieldNames;
}

export interface Seeded {
  /** The community's id. */
  community: string;
  /** The secret of its first token. */
  token: string;
  tokenId: string;
  /** Another token of the community (its secret). */
  newToken(scopes?: Scope[], options?: TokenOptions): Promise<string>;
}

export interface SeedOptions {
  name?: string;
  /** Imported before the token is made; none by default. */
  records?: object[];
  /** Of the first token; `read` by default. */
  scopes?: Scope[];
  /** The wall clock by default; a test app hands its own. */
  clock?: Clock;
  /** The app's write runner, so that its answer cache hears of the import; one of the import's own by default. */
  writes?: WriteRunner;
}

export async function seedCommunity(store: Store, slug: string, options: SeedOptions = {}): Promise<Seeded> {
  const community = (
    await createCommunitiesService(store.db, store.dialect, options.clock).create(slug, options.name ?? slug)
  ).id;
  if (options.records && options.records.length > 0) {
    await importLines(
      store,
      community,
      options.records.map((r) => JSON.stringify(r)),
      { clock: options.clock, writes: options.writes },
    );
  }
  const tokens = createTokensService(store.db, options.clock);
  const first = await tokens.create(community, { scopes: options.scopes ?? ['read'] });
  return {
    community,
    token: first.secret,
    tokenId: first.id,
    newToken: async (scopes = ['read'], opts = {}) => (await tokens.create(community, { scopes, ...opts })).secret,
  };
}
