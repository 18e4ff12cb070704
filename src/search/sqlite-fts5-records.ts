// FTS5's own records read from its shadow tables: the varints of a docsize row and of the averages record.

/** The SQLite varints of an FTS5 record (big-endian 7-bit groups, a 9th byte of 8 bits), in order. */
export function fts5Varints(block: Uint8Array): number[] {
  const values: number[] = [];
  let i = 0;
  while (i < block.length) {
    let value = 0;
    for (let k = 0; k < 9 && i < block.length; k++) {
      const byte = block[i++] ?? 0;
      if (k === 8) {
        value = value * 256 + byte;
        break;
      }
      value = value * 128 + (byte & 127);
      if ((byte & 128) === 0) break;
    }
    values.push(value);
  }
  return values;
}

/** The average length bm25 uses, from the averages record (rows, then words per column); null when empty. */
export function averageLength(block: Uint8Array): number | null {
  const [count = 0, ...columns] = fts5Varints(block);
  const words = columns.reduce((sum, n) => sum + n, 0);
  return count > 0 ? words / count : null;
}
