// A local server answering as Slack's Web API documents its methods (auth.test, users.list, conversations.list,
// .history, .replies: POST, form bodies, a bearer token, `ok`, cursor paging), over the workspace of
// slack-workspace.ts, for the client's `slackApiUrl` to point at. Tests make it answer 429 or fail a call.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { channels, general, groups, owners, random, users } from './slack-workspace.js';

export const STAND_IN_TOKEN = 'xoxb-1111-2222-standintoken';

type Message = Record<string, unknown> & { ts: string; thread_ts?: string; subtype?: string };

export interface Call {
  method: string;
  params: Record<string, string>;
  at: number;
}

/** What the stand-in does to a call instead of answering it: a 429, a Slack error, nothing (answer). */
export type Trouble = { rateLimit: number } | { error: string } | null;

export interface StandIn {
  url: string;
  calls: Call[];
  /** Messages by channel id; tests may add some. */
  messages: Map<string, Message[]>;
  /** Asked before each call (its number among the calls of its method kept in `calls`, from 1). */
  trouble: (call: Call, nth: number) => Trouble;
  close(): Promise<void>;
}

const flat = (days: Record<string, object[]>) => Object.values(days).flat() as Message[];
const page = <T>(items: T[], params: Record<string, string>) => {
  const limit = Number(params.limit ?? 100);
  const at = params.cursor ? Number(Buffer.from(params.cursor, 'base64').toString()) : 0;
  const next = at + limit < items.length ? Buffer.from(String(at + limit)).toString('base64') : '';
  return { items: items.slice(at, at + limit), meta: { next_cursor: next } };
};
const byTs = (a: Message, b: Message) => Number(a.ts) - Number(b.ts);

export async function startStandIn(): Promise<StandIn> {
  const messages = new Map<string, Message[]>([
    ['C01GENERAL', flat(general)],
    ['C02RANDOM', flat(random)],
    ['G01SECRET', flat(owners)],
  ]);
  const standIn: StandIn = { url: '', calls: [], messages, trouble: () => null, close: async () => {} };

  const answer = (method: string, params: Record<string, string>): object => {
    switch (method) {
      case 'auth.test':
        return { url: 'https://acme.slack.com/', team: 'Acme', user: 'hearth', team_id: 'T01ACME', user_id: 'U99BOT' };
      case 'users.list': {
        const { items, meta } = page(users, params);
        return { members: items, cache_ts: 0, response_metadata: meta };
      }
      case 'conversations.list': {
        const types = (params.types ?? 'public_channel').split(',');
        const all = [
          ...(types.includes('public_channel') ? channels.map((c) => ({ ...c, is_private: false })) : []),
          ...(types.includes('private_channel') ? groups.map((c) => ({ ...c, is_private: true })) : []),
        ].map(({ members, ...c }) => ({ ...c, is_channel: true, num_members: members.length }));
        const { items, meta } = page(all, params);
        return { channels: items, response_metadata: meta };
      }
      case 'conversations.history': {
        // Top-level messages and broadcast replies, newest first, after `oldest`; a thread's parent carries its
        // reply_count and latest_reply as they stand.
        const oldest = Number(params.oldest ?? 0);
        const all = messages.get(params.channel ?? '') ?? [];
        const list = all
          .filter((m) => !m.thread_ts || m.thread_ts === m.ts || m.subtype === 'thread_broadcast')
          .filter((m) => Number(m.ts) > oldest)
          .map((m) => {
            if (m.thread_ts !== m.ts) return m;
            const replies = all.filter((r) => r.thread_ts === m.ts && r.ts !== m.ts).sort(byTs);
            return { ...m, reply_count: replies.length, latest_reply: replies.at(-1)?.ts ?? m.latest_reply };
          })
          .sort(byTs)
          .reverse();
        const { items, meta } = page(list, params);
        return { messages: items, has_more: meta.next_cursor !== '', response_metadata: meta };
      }
      case 'conversations.replies': {
        const all = messages.get(params.channel ?? '') ?? [];
        const parent = all.find((m) => m.ts === params.ts);
        if (!parent) return { ok: false, error: 'thread_not_found' };
        const thread = [parent, ...all.filter((m) => m.thread_ts === params.ts && m.ts !== params.ts).sort(byTs)];
        const { items, meta } = page(thread, params);
        return { messages: items, has_more: meta.next_cursor !== '', response_metadata: meta };
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
      const call: Call = { method, params, at: Date.now() };
      standIn.calls.push(call);
      const nth = standIn.calls.filter((c) => c.method === method).length;
      const reply = (status: number, json: object, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(json));
      };
      if (req.method !== 'POST') return reply(405, { ok: false, error: 'method_not_allowed' });
      if (req.headers.authorization !== `Bearer ${STAND_IN_TOKEN}`)
        return reply(200, { ok: false, error: 'invalid_auth' });
      const trouble = standIn.trouble(call, nth);
      if (trouble && 'rateLimit' in trouble)
        return reply(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(trouble.rateLimit) });
      if (trouble && 'error' in trouble) return reply(200, { ok: false, error: trouble.error });
      reply(200, { ok: true, ...answer(method, params) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  standIn.close = () => new Promise((resolve) => server.close(() => resolve()));
  return standIn;
}
