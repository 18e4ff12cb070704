// JSON columns come back as text from SQLite and parsed from PostgreSQL; both become values here.
export function readJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

export function writeJson(value: unknown): string {
  return JSON.stringify(value);
}
