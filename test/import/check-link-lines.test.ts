// The import's pool of link lines gives each record the lines and roles a plain grouping gives, the first `limit`.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { linkKey, type Link, type LinkGroup } from '../../src/import/plan.js';
import { LinkLines } from '../../src/import/check-link-lines.js';

const tables = ['profiles', 'tags', 'feeds', 'posts', 'comments'] as const;
const link = fc.record({
  table: fc.constantFrom(...tables),
  id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  role: fc.constantFrom('author', 'parent post', 'host', 'mention'),
});

/** What the pool must answer: every link under its record, in order, cut at `limit` lines a record. */
function grouped(links: Link[], limit: number): Map<string, LinkGroup> {
  const groups = new Map<string, LinkGroup>();
  for (const { table, id, line, role } of links) {
    const key = linkKey(table, id);
    const group = groups.get(key) ?? { table, id, lines: [], roles: [] };
    groups.set(key, group);
    if (group.lines.length < limit) {
      group.lines.push(line);
      group.roles.push(role);
    }
  }
  return groups;
}

describe('LinkLines', () => {
  it('keeps the first lines and roles of each record, through every growth of the pool', () => {
    fc.assert(
      fc.property(fc.array(link, { maxLength: 4000 }), fc.integer({ min: 1, max: 120 }), (given, limit) => {
        const links: Link[] = given.map((l, i) => ({ ...l, line: i + 1 }));
        const pool = new LinkLines(limit);
        for (const l of links) pool.add(l);
        const expected = grouped(links, limit);
        expect([...pool.records()]).toEqual([...expected].map(([key, { table, id }]) => ({ key, table, id })));
        const keys = [...expected.keys()].reverse();
        expect(pool.groupsOf([...keys, 'posts:none'])).toEqual(keys.map((key) => expected.get(key)));
      }),
      { numRuns: 80 },
    );
  });

  it('keeps every line without a limit', () => {
    const pool = new LinkLines();
    for (let line = 1; line <= 3000; line++) pool.add({ table: 'profiles', id: 'p', line, role: 'author' });
    const [group] = pool.groupsOf(['profiles:p']);
    expect(group?.lines).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    expect(new Set(group?.roles)).toEqual(new Set(['author']));
  });
});
