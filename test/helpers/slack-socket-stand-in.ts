// A local stand-in of Slack's Socket Mode: `apps.connections.open` (POST, the app-level token as bearer) answers a
// `ws://127.0.0.1:…` URL; each socket opened there is greeted with `hello`, then sent what the test sends (envelopes
// as Slack's Socket Mode docs show them, `disconnect`), and the acknowledgements it receives are kept in order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

export interface SocketStandIn {
  /** The Web API's base URL (`…/api/`), for the client's slackApiUrl. */
  url: string;
  /** Bearer tokens apps.connections.open was called with, in order. */
  opens: string[];
  /** Open sockets, oldest first (a socket closed leaves the list). */
  sockets: WebSocket[];
  /** Acknowledgements received: the envelope_id and the socket's number (1 for the first socket opened). */
  acks: { envelope_id: string; socket: number }[];
  /** Resolves once `n` sockets have been opened in all (and greeted). */
  opened(n: number): Promise<void>;
  /** Resolves with the acknowledgement of `envelopeId` once it arrives (rejects after `ms`). */
  ackOf(envelopeId: string, ms?: number): Promise<{ envelope_id: string; socket: number }>;
  /** Sends an `events_api` envelope around `payload` on the newest socket. */
  sendEvent(envelopeId: string, payload: Record<string, unknown>, retryAttempt?: number): void;
  send(message: Record<string, unknown>): void;
  /** Sends these characters as they are: a message that is not an envelope. */
  sendRaw(text: string): void;
  close(): Promise<void>;
}

export async function startSocketStandIn(): Promise<SocketStandIn> {
  const opens: string[] = [];
  const sockets: WebSocket[] = [];
  const acks: { envelope_id: string; socket: number }[] = [];
  const waiters = new Set<() => void>();
  let count = 0;
  const tell = () => {
    for (const waiter of waiters) waiter();
  };

  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const auth = req.headers.authorization ?? '';
      res.setHeader('content-type', 'application/json');
      if (req.method !== 'POST' || req.url !== '/api/apps.connections.open') {
        res.end(JSON.stringify({ ok: false, error: 'unknown_method' }));
        return;
      }
      if (!/^Bearer xapp-/.test(auth)) {
        res.end(JSON.stringify({ ok: false, error: 'not_allowed_token_type' }));
        return;
      }
      opens.push(auth.slice('Bearer '.length));
      const { port } = server.address() as AddressInfo;
      res.end(JSON.stringify({ ok: true, url: `ws://127.0.0.1:${port}/link/?ticket=t${opens.length}` }));
    });
  });
  const wss = new WebSocketServer({ server, path: '/link/' });
  wss.on('connection', (socket) => {
    const number = ++count;
    sockets.push(socket);
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { envelope_id?: string };
      if (typeof message.envelope_id === 'string') acks.push({ envelope_id: message.envelope_id, socket: number });
      tell();
    });
    socket.on('close', () => {
      sockets.splice(sockets.indexOf(socket), 1);
      tell();
    });
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: 1,
        debug_info: { host: 'applink-stand-in', approximate_connection_time: 18060 },
        connection_info: { app_id: 'A0HEARTH' },
      }),
    );
    tell();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const until = (done: () => boolean, ms: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`stand-in: ${what} did not happen within ${ms} ms`));
      }, ms);
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
    });

  const newest = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('stand-in: no socket is open');
    return socket;
  };

  return {
    url: `http://127.0.0.1:${port}/api/`,
    opens,
    sockets,
    acks,
    opened: (n) => until(() => count >= n && sockets.length > 0, 15_000, `socket ${n}`),
    async ackOf(envelopeId, ms = 10_000) {
      await until(() => acks.some((ack) => ack.envelope_id === envelopeId), ms, `the ack of ${envelopeId}`);
      const found = acks.find((ack) => ack.envelope_id === envelopeId);
      if (!found) throw new Error('unreachable');
      return found;
    },
    sendEvent(envelopeId, payload, retryAttempt = 0) {
      newest().send(
        JSON.stringify({
          envelope_id: envelopeId,
          payload,
          type: 'events_api',
          accepts_response_payload: false,
          retry_attempt: retryAttempt,
          retry_reason: retryAttempt === 0 ? '' : 'timeout',
        }),
      );
    },
    send: (message) => newest().send(JSON.stringify(message)),
    sendRaw: (text) => newest().send(text),
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
