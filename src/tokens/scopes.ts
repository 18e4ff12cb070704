// Token scopes: `read` for every GET, `members:write` for adding and deactivating members, `events:write` for event writes.
export const scopes = ['read', 'members:write', 'events:write'] as const;
export type Scope = (typeof scopes)[number];

export function parseScopes(text: string): Scope[] {
  const list = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((s) => !(scopes as readonly string[]).includes(s));
  if (unknown.length > 0 || list.length === 0) {
    throw new Error(`Unknown scope(s) '${unknown.join(',') || text}'; known: ${scopes.join(', ')}.`);
  }
  return [...new Set(list)] as Scope[];
}
