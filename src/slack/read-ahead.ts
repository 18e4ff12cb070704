// The converted records handed to the import: a short history as an array (the import then parses it in this
// thread, sparing a worker's start-up), a long one as the stream it is, never held whole.
const AHEAD = 4000;

export async function readAhead(lines: AsyncGenerator<string>): Promise<string[] | AsyncGenerator<string>> {
  const first: string[] = [];
  for (;;) {
    const next = await lines.next();
    if (next.done) return first;
    first.push(next.value);
    if (first.length >= AHEAD) break;
  }
  return (async function* () {
    yield* first;
    yield* lines;
  })();
}
