// Why JSON.parse refused a text, said the same way on every Node version: V8's reason, then the line and column
// where it stopped (Node 20 says only the position; Node 22 adds its own line and column).
export function jsonParseProblem(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const reason = message.replace(/\s*\(line \d+ column \d+\)$/, '');
  const at = /\s*at position (\d+)$/.exec(reason);
  if (!at) return reason;
  const position = Number(at[1]);
  const before = text.slice(0, position);
  let line = 1;
  for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) line++;
  const column = position - before.lastIndexOf('\n');
  return `${reason.slice(0, at.index)} at line ${line}, column ${column}`;
}
