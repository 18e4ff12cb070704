// A real HTTP receiver of webhooks on 127.0.0.1: records every request, verifies its signature with the
// standardwebhooks package, and answers as the test scripts it (a status per attempt, or never).
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The payload as `Webhook.verify` returned it; null when the signature did not verify. */
  verified: { type: string; timestamp: string; data: Record<string, unknown> } | null;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Called per request: a status to answer, or 'hang' to never answer. Default 204. */
  respond: (request: Received, index: number) => number | 'hang';
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(secret: string): Promise<Receiver> {
  const verifier = new Webhook(secret);
  const hanging: ServerResponse[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    respond: () => 204,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`received ${receiver.received.length} of ${count} webhooks within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return receiver.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: Received['verified'] = null;
      try {
        verified = verifier.verify(body, request.headers as Record<string, string>) as Received['verified'];
      } catch {
        verified = null;
      }
      const entry: Received = {
        id: String(request.headers['webhook-id']),
        timestamp: String(request.headers['webhook-timestamp']),
        headers: request.headers,
        body,
        verified,
      };
      const index = receiver.received.length;
      receiver.received.push(entry);
      const answer = receiver.respond(entry, index);
      if (answer === 'hang') {
        hanging.push(response);
        return;
      }
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  receiver.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hooks`;
  return receiver;
}
