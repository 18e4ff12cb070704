// Raw HTTP over a socket: requests no HTTP client would send (bad bytes, no Host, a body a byte at a time),
// and the answer parsed just enough to check its status, headers and body.
import { connect } from 'node:net';

export interface RawAnswer {
  /** Everything the server wrote before it closed the socket (or the timeout). */
  text: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the first byte sent until the server closed the socket. */
  closedAfterMs: number | null;
}

/** The first final response in `text` (status line, headers, and a body of Content-Length bytes); a `100 Continue` before it is skipped. */
export function parseResponse(text: string): Omit<RawAnswer, 'text' | 'closedAfterMs'> {
  while (/^HTTP\/1\.[01] 1\d\d /.test(text) && text.includes('\r\n\r\n'))
    text = text.slice(text.indexOf('\r\n\r\n') + 4);
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const rest = end < 0 ? '' : text.slice(end + 4);
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: Buffer.from(rest).subarray(0, length).toString(),
  };
}

/** Sends `parts` one after another, `gapMs` apart, and collects what comes back until the server closes (or `timeoutMs`). */
export function rawRequest(
  port: number,
  parts: (string | Buffer)[],
  options: { gapMs?: number; timeoutMs?: number; abortAfterMs?: number; endAfterSend?: boolean } = {},
): Promise<RawAnswer> {
  const { gapMs = 0, timeoutMs = 5000, abortAfterMs, endAfterSend = false } = options;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const started = performance.now();
    let closedAfterMs: number | null = null;
    let sent = 0;
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ text, closedAfterMs, ...parseResponse(text) });
    };
    const timer = setTimeout(() => {
      socket.destroy();
    }, abortAfterMs ?? timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      if (abortAfterMs === undefined && performance.now() - started < timeoutMs)
        closedAfterMs = performance.now() - started;
      finish();
    });
    const next = () => {
      if (socket.destroyed || sent >= parts.length) return;
      socket.write(parts[sent++] ?? '');
      if (sent < parts.length) setTimeout(next, gapMs);
      else if (endAfterSend) socket.end();
    };
    socket.on('connect', next);
  });
}
