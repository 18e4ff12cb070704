// `npx tsx bench/rum-quality.ts --database postgres://…`: would a RUM index rank PostgreSQL search well enough? Its top N by
// `<=>`, re-ranked exactly, against the exact top 10, on search-zipf and the quality check's queries; rolled back after.
import { parseArgs } from 'node:util';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../src/db/database.js';
import { batchTimeouts, openStore } from '../src/db/store.js';
import { groupTexts } from '../src/search/postgres-search-index.js';
import { parseSearchQuery, type SearchQuery } from '../src/search/search-query.js';
import { corpusCommunityId } from './corpus.js';
import { exactSearch } from './exact-search.js';
import { percentile } from './stats.js';
import { searchQueries } from './workloads.js';
import { searchZipfQueries } from './zipf.js';

const log = (text: string) => process.stderr.write(`${text}\n`);
const TOP = 10;

/** RUM's best `n` matches by `<=>` (cover density, its own fixed weights, no length normalization), then ranked exactly. */
async function rumTop(
  db: Kysely<Database>,
  communityId: string,
  query: SearchQuery,
  n: number,
): Promise<{ ids: string[]; ms: number }> {
  const { matching, ranking } = groupTexts(query);
  if (matching.length === 0) return { ids: [], ms: 0 };
  const started = performance.now();
  const { rows } = await sql<{ id: string }>`with query as (
      select string_agg('(' || q.matching::text || ')', ' | ')::tsquery as matching,
             (string_agg('(' || q.ranking::text || ')', ' | ') filter (where numnode(q.ranking) > 0))::tsquery as ranking
      from unnest(${matching}::text[], ${ranking}::text[]) as g(matching, ranking),
           lateral (select to_tsquery('hearth_search', g.matching) as matching, to_tsquery('hearth_search', g.ranking) as ranking) as q
      where querytree(q.matching) not in ('', 'T')),
    top as materialized (select s.id, s.created_at, s.document from post_search s
      where s.community_id = ${communityId} and s.document @@ (select matching from query)
      order by s.document <=> (select matching from query) limit ${n})
    select id from top order by ts_rank('{0, 0, 0.1, 1}'::real[], document, (select ranking from query), 1) desc,
      created_at desc, id desc limit ${TOP}`.execute(db);
  return { ids: rows.map((row) => row.id), ms: performance.now() - started };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      database: { type: 'string' },
      queries: { type: 'string', default: '1000' },
      candidates: { type: 'string', default: '100,1000' },
    },
  });
  if (!values.database?.startsWith('postgres'))
    throw new Error('--database must be a postgres:// URL (a bench corpus)');
  const store = openStore(values.database, 2, batchTimeouts);
  try {
    const available = await sql`select 1 from pg_available_extensions where name = 'rum'`.execute(store.db);
    if (available.rows.length === 0) throw new Error('The rum extension is not available on this server');
    const community = { id: await corpusCommunityId(store) };
    // search-zipf's first draws (repeats kept, as the quality check counts them) and the check's other queries.
    const sets: Record<string, readonly string[]> = {
      ...searchQueries,
      zipf: searchZipfQueries(Number(values.queries), 21),
    };
    const sizes = (values.candidates ?? '').split(',').map(Number);
    const exact = exactSearch(store.dialect);
    // Made and measured in one transaction, rolled back: the corpus is left as it was.
    await store.db
      .transaction()
      .execute(async (trx: Transaction<Database>) => {
        const made = performance.now();
        // Building the index over a large corpus takes longer than the store's statement timeout allows.
        await sql`set local statement_timeout = 0`.execute(trx);
        await sql`create extension if not exists rum`.execute(trx);
        await sql`create index post_search_rum on post_search using rum (community_id rum_text_ops, document rum_tsvector_ops)`.execute(
          trx,
        );
        const size = await sql<{
          rum: string;
          gin: string;
        }>`select pg_size_pretty(pg_relation_size('post_search_rum')) as rum,
          pg_size_pretty(pg_relation_size('post_search_document')) as gin`.execute(trx);
        log(
          `RUM index built in ${((performance.now() - made) / 1000).toFixed(1)} s: ${size.rows[0]?.rum} (GIN ${size.rows[0]?.gin})`,
        );
        for (const [name, queries] of Object.entries(sets)) {
          const same = new Map(sizes.map((n) => [n, 0]));
          const times = new Map<number, number[]>(sizes.map((n) => [n, []]));
          for (const q of queries) {
            const query = parseSearchQuery(q);
            const reference = await exact(trx, 'post', community.id, query, { limit: TOP, offset: 0 });
            for (const n of sizes) {
              const top = await rumTop(trx, community.id, query, n);
              times.get(n)?.push(top.ms);
              if (top.ids.join() === reference.join()) same.set(n, (same.get(n) ?? 0) + 1);
            }
          }
          const line = sizes.map((n) => {
            const ms = [...(times.get(n) ?? [])].sort((a, b) => a - b);
            return `top ${n}: ${same.get(n)} of ${queries.length} equal to exact, p50 ${percentile(ms, 50).toFixed(1)} ms p99 ${percentile(ms, 99).toFixed(1)} ms`;
          });
          log(`${name.padEnd(9)} ${line.join('; ')}`);
        }
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  } finally {
    await store.close();
  }
}

class RolledBack extends Error {}

await main();
