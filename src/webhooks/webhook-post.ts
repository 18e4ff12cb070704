// Posts one webhook message to the addresses its host was checked to have: the connection never resolves the
// name again (no DNS rebinding between check and connect), while the Host header, TLS SNI and certificate
// check still use the URL's host name. Redirects are not followed.
import type { LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedUrl } from './webhook-address.js';

export interface PostResult {
  statusCode: number;
}

/** A `lookup` for the socket that answers with the checked addresses instead of asking DNS. */
function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const [first] = addresses;
    if (options.all) callback(null, [...addresses]);
    else if (first) callback(null, first.address, first.family);
    else callback(Object.assign(new Error('no checked address'), { code: 'ENOTFOUND' }), '', 0);
  };
}

/** Keep-alive agents of one dispatcher: a pooled connection was made to an address checked when it was opened. */
export function createWebhookAgents() {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });
  return {
    http,
    https,
    destroy(): void {
      http.destroy();
      https.destroy();
    },
  };
}
export type WebhookAgents = ReturnType<typeof createWebhookAgents>;

/** Sends `body` and resolves with the status once the answer's head arrives (its body is discarded). */
export function postWebhook(
  target: CheckedUrl,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
  agents: WebhookAgents,
): Promise<PostResult> {
  const { url, host, addresses } = target;
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const options = {
      method: 'POST',
      host,
      port: url.port === '' ? (secure ? 443 : 80) : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(addresses),
      signal,
    };
    const onResponse = (response: IncomingMessage) => {
      // The body is not needed: it is read and dropped (within the same deadline), so the connection can serve again.
      response.resume();
      resolve({ statusCode: response.statusCode ?? 0 });
    };
    const req: ClientRequest = secure
      ? httpsRequest({ ...options, agent: agents.https }, onResponse)
      : httpRequest({ ...options, agent: agents.http }, onResponse);
    req.on('error', reject);
    req.end(body);
  });
}
