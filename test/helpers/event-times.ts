// The API shows no event's time zone, so a copy made from its answers (a pull, an import of fetched records) holds
// none and answers its events' times in UTC: the same instants. This re-expresses a tree of answers that way.
export function eventTimesInUtc(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(eventTimesInUtc);
  if (value === null || typeof value !== 'object') return value;
  const out = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, eventTimesInUtc(inner)]));
  for (const key of ['start_date', 'end_date'])
    if (typeof out[key] === 'string') out[key] = `${new Date(Date.parse(out[key])).toISOString().slice(0, 19)}+00:00`;
  return out;
}
