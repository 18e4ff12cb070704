// Search on SQLite: FTS5 MATCH confined to the community's docid range, ranked by bm25 (title 10, body 1); a frequent
// word from its impact postings, a phrase from its rarest word's (sqlite-search-phrase.ts), an OR of two alternatives
// from each one's best (sqlite-search-or.ts), other large answers ranked on a budget.
import { sql, type RawBuilder } from 'kysely';
import { windowIds, type Scored } from './ranked-window.js';
import type { SearchBudget } from './search-budget.js';
import type { SearchHits, SearchIndex, SearchWindow } from './search-index.js';
import type { SearchQuery } from './search-query.js';
import { impactRanking } from './sqlite-search-impacts.js';
import { orRanking, withoutRepeat } from './sqlite-search-or.js';
import { phraseRanking } from './sqlite-search-phrase.js';
import { toFts5Candidates, toFts5Match } from './sqlite-search-query.js';
import {
  bestRanked,
  countMatches,
  keysReader,
  rangeOf,
  scopeOf,
  tables,
  within,
  type Range,
  type Scope,
} from './sqlite-search-statements.js';
import { singleTerm } from './sqlite-search-words.js';

/**
 * The `count` best of the matches of `likeliest` (toFts5Candidates: title hits, and matches of every alternative) by
 * the query's own exact bm25, in one statement: bm25 walks each phrase's doclist once for its IDF, so ranking them by
 * the title query and then scoring them again by the query cost that walk twice. `+rowid` keeps the IN a filter on the
 * walk of the doclists (as an index constraint FTS5 would be queried once per candidate, the IDF walked every time);
 * `rowid desc` makes the choice among equal scores the same at every request.
 */
const bestCandidates = (scope: Scope, match: string, likeliest: string, count: number, range: Range) => sql<Scored>`
  select ${scope.fts}.rowid as docid, ${scope.bm25} as score from ${scope.fts}
  where ${scope.fts} match ${match} and ${within(scope, range)} and +${scope.fts}.rowid in (
    select rowid from ${scope.fts} where ${scope.fts} match ${likeliest} and ${within(scope, range)})
  order by score, ${scope.fts}.rowid desc limit ${count}`;

export function createSqliteSearchIndex(budget: SearchBudget): SearchIndex {
  return {
    async search(db, kind, communityId, asked: SearchQuery, window): Promise<SearchHits> {
      const query = withoutRepeat(asked);
      const match = toFts5Match(query);
      if (match === null) return { ids: [], total: 0 };
      const scope = scopeOf(kind);
      const range = await rangeOf(db, communityId);
      if (!range) return { ids: [], total: 0 };
      const term = kind === 'post' ? singleTerm(query) : null;
      const impacts = term === null ? null : await impactRanking(db, range.number, term, window.offset + window.limit);
      if (impacts) return { ids: await windowIds(impacts.ranked, window, keysReader(db, scope)), total: impacts.total };
      // The exact count, asked once: a plan that declines after counting leaves it to the next.
      let counted: Promise<number> | null = null;
      const count = (): Promise<number> => {
        counted ??= countMatches(db, scope, match, range);
        return counted;
      };
      const phrase =
        kind === 'post' ? await phraseRanking(db, scope, range, query, window.offset + window.limit, count) : null;
      if (phrase) return { ids: await windowIds(phrase.ranked, window, keysReader(db, scope)), total: phrase.total };
      const alternatives =
        kind === 'post'
          ? await orRanking(db, scope, range, query, window.offset + window.limit, budget.rankBudget)
          : null;
      if (alternatives)
        return { ids: await windowIds(alternatives.ranked, window, keysReader(db, scope)), total: alternatives.total };
      const total = await count();
      if (window.offset >= total) return { ids: [], total };
      const rows = async (query: RawBuilder<Scored>): Promise<Scored[]> => (await query.execute(db)).rows;

      /**
       * Best match first over every match (but `except`): the window's end and its ties ranked, dates read for them
       * alone; a run of ties longer than the first read put in order by the statement instead.
       */
      const exactWindow = async (part: SearchWindow, except: readonly number[] = []): Promise<string[]> => {
        const ranked = await bestRanked(db, scope, range, match, part.offset + part.limit, except);
        return windowIds(ranked, part, keysReader(db, scope));
      };

      const title = tables[kind].title;
      const likeliest = title !== null && total > budget.rankBudget ? toFts5Candidates(query, title) : null;
      if (likeliest === null) return { ids: await exactWindow(window), total };

      // More matches than the budget: the title candidates first, in exact order, then every other match in exact
      // order (read only by a page beyond the candidates). Pages stay disjoint and complete.
      const first = await rows(bestCandidates(scope, match, likeliest, budget.titleCandidates, range));
      const candidates = first.map((row) => row.docid);
      const end = window.offset + window.limit;
      const ids = await windowIds(first, window, keysReader(db, scope));
      if (end <= first.length) return { ids, total };
      const offset = Math.max(0, window.offset - first.length);
      return {
        ids: [...ids, ...(await exactWindow({ offset, limit: end - first.length - offset }, candidates))],
        total,
      };
    },
  };
}
