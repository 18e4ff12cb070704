// Rows read by `id IN (...)` come back in the store's order; pages need them in the order of their ids.

/** Rows in the order of `ids`; an id without a row (gone since the ids were read) is left out. */
export function inOrder<T extends { id: string }>(ids: readonly string[], rows: readonly T[]): T[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
