// A local server answering Slack's chat methods as their reference pages document them (chat.postMessage,
// chat.update, chat.getPermalink, conversations.history with include_all_metadata; POST, form bodies with JSON
// fields, a bearer token, `ok`), keeping the messages it was sent per channel. Tests make a call answer 429 with
// Retry-After, answer a Slack error, or store the post and then answer nothing (or a 5xx), as a lost answer would.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const CHAT_TOKEN = 'xoxb-3333-4444-chatstandin';

export interface ChatCall {
  method: string;
  params: Record<string, string>;
  at: number;
}

export interface StoredMessage {
  ts: string;
  text: string;
  blocks: unknown;
  metadata?: unknown;
  edited?: { user: string; ts: string };
}

/**
 * Instead of answering: a 429 for `rateLimit` seconds; a Slack error; or the call done (the post stored) and then
 * no answer for `silenceMs`, or a 5xx.
 */
export type ChatTrouble =
  | { rateLimit: number }
  | { error: string }
  | { doneThenSilentMs: number }
  | { doneThenStatus: number }
  | null;

export interface ChatStandIn {
  url: string;
  calls: ChatCall[];
  /** Messages by channel id, oldest first. */
  channels: Map<string, StoredMessage[]>;
  trouble: (call: ChatCall, nth: number) => ChatTrouble;
  close(): Promise<void>;
}

const json = (text: string | undefined): unknown => (text === undefined ? undefined : JSON.parse(text));

export async function startChatStandIn(channelIds: readonly string[]): Promise<ChatStandIn> {
  const channels = new Map<string, StoredMessage[]>(channelIds.map((id) => [id, []]));
  const standIn: ChatStandIn = { url: '', calls: [], channels, trouble: () => null, close: async () => {} };
  // Slack's ts: seconds and a six-digit sequence, unique per channel.
  let sequence = 0;
  const nextTs = () => `${Math.floor(Date.now() / 1000)}.${String(++sequence).padStart(6, '0')}`;

  const bot = { user: 'U99BOT', bot_id: 'B99BOT', app_id: 'A99HEARTH', team: 'T01ACME', type: 'message' };
  const view = (m: StoredMessage, withMetadata: boolean) => {
    const { metadata, ...rest } = m;
    return { ...bot, ...rest, ...(withMetadata && metadata !== undefined ? { metadata } : {}) };
  };

  const answer = (method: string, params: Record<string, string>): object => {
    const list = channels.get(params.channel ?? '');
    switch (method) {
      case 'chat.postMessage': {
        if (!list) return { ok: false, error: 'channel_not_found' };
        if (!params.text && !params.blocks) return { ok: false, error: 'no_text' };
        const message: StoredMessage = {
          ts: nextTs(),
          text: params.text ?? '',
          blocks: json(params.blocks),
          metadata: json(params.metadata),
        };
        list.push(message);
        return { ok: true, channel: params.channel, ts: message.ts, message: view(message, false) };
      }
      case 'chat.update': {
        if (!list) return { ok: false, error: 'channel_not_found' };
        const message = list.find((m) => m.ts === params.ts);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.text = params.text ?? '';
        message.blocks = json(params.blocks);
        message.edited = { user: bot.user, ts: nextTs() };
        return { ok: true, channel: params.channel, ts: message.ts, text: message.text, message: view(message, false) };
      }
      case 'chat.getPermalink': {
        if (!list) return { ok: false, error: 'channel_not_found' };
        if (!list.some((m) => m.ts === params.message_ts)) return { ok: false, error: 'message_not_found' };
        return {
          ok: true,
          channel: params.channel,
          permalink: `https://acme.slack.com/archives/${params.channel}/p${params.message_ts?.replace('.', '')}`,
        };
      }
      case 'conversations.history': {
        if (!list) return { ok: false, error: 'channel_not_found' };
        const oldest = Number(params.oldest ?? 0);
        const limit = Number(params.limit ?? 100);
        const newest = list.filter((m) => Number(m.ts) > oldest).reverse();
        const at = params.cursor ? Number(Buffer.from(params.cursor, 'base64').toString()) : 0;
        const next = at + limit < newest.length ? Buffer.from(String(at + limit)).toString('base64') : '';
        return {
          ok: true,
          messages: newest.slice(at, at + limit).map((m) => view(m, params.include_all_metadata === 'true')),
          has_more: next !== '',
          response_metadata: { next_cursor: next },
        };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      const method = (req.url ?? '').replace(/^\/api\//, '');
      const params = Object.fromEntries(new URLSearchParams(body));
      const call: ChatCall = { method, params, at: Date.now() };
      standIn.calls.push(call);
      const nth = standIn.calls.filter((c) => c.method === method).length;
      const reply = (status: number, payload: object, headers: Record<string, string> = {}) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(payload));
      };
      if (req.method !== 'POST') return reply(405, { ok: false, error: 'method_not_allowed' });
      if (req.headers.authorization !== `Bearer ${CHAT_TOKEN}`) return reply(200, { ok: false, error: 'invalid_auth' });
      const trouble = standIn.trouble(call, nth);
      if (trouble && 'rateLimit' in trouble)
        return reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(trouble.rateLimit) });
      if (trouble && 'error' in trouble) return reply(200, { ok: false, error: trouble.error });
      const result = answer(method, params);
      if (trouble && 'doneThenSilentMs' in trouble) {
        setTimeout(() => reply(200, result), trouble.doneThenSilentMs).unref();
        return;
      }
      if (trouble && 'doneThenStatus' in trouble)
        return reply(trouble.doneThenStatus, { ok: false, error: 'internal_error' });
      reply(200, result);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  standIn.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return standIn;
}
