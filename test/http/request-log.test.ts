// Request lines as people and machines read them: with LOG_FORMAT=pretty one readable line per request once
// answered, with json Fastify's two JSON lines; `auto` by whether the destination is a terminal; the probes
// (/healthz, /readyz, /metrics) only at debug.
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createTestStore, type TestStore } from '../helpers/test-store.js';

let testStore: TestStore;
beforeAll(async () => {
  testStore = await createTestStore();
});
afterAll(() => testStore.cleanup());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** An app writing its logs, as `config` says, to a captured destination (a terminal when `isTTY`). */
async function loggedApp(settings: Partial<Config>, isTTY?: boolean, prepare?: (app: FastifyInstance) => void) {
  const written: string[] = [];
  const config = loadConfig({}, { databaseUrl: testStore.url, ...settings });
  const app = await buildApp(config, {
    store: testStore.store,
    logDestination: { write: (text: string) => written.push(text), isTTY },
  });
  prepare?.(app);
  await app.ready();
  return { app, written };
}

/** Requests to every probe, then to the API (refused without a token) and to no route. */
async function requests(app: FastifyInstance) {
  for (const url of ['/healthz', '/readyz', '/metrics', '/admin/v0/members?per_page=2', '/nowhere']) {
    await app.inject({ method: 'GET', url });
  }
}

describe('readable request lines (LOG_FORMAT=pretty)', () => {
  it('writes one line per request once answered: time, level, method, URL, status and milliseconds', async () => {
    // The log's time fixed; the request's duration (Fastify reads perf_hooks' clock) moved 3.2 ms as each is answered.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(2026, 2, 10, 14, 5, 9) });
    let now = 1000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const { app, written } = await loggedApp({ logFormat: 'pretty', logLevel: 'info' }, undefined, (app) =>
      app.addHook('onSend', (_request, _reply, payload, done) => {
        now += 3.2;
        done(null, payload);
      }),
    );
    await requests(app);
    app.log.warn({ files: ['hearth.db'] }, 'a line with more to say');
    await app.close();
    expect(written).toEqual([
      '[14:05:09] INFO: GET /admin/v0/members?per_page=2 401 3.2 ms\n',
      '[14:05:09] INFO: GET /nowhere 404 3.2 ms\n',
      '[14:05:09] WARN: a line with more to say {"files":["hearth.db"]}\n',
    ]);
  });

  it('writes the probes at debug, and only there', async () => {
    const { app, written } = await loggedApp({ logFormat: 'pretty', logLevel: 'debug' });
    await requests(app);
    await app.close();
    const lines = written.map((line) => line.replace(/^\[\d\d:\d\d:\d\d\] /, '').replace(/ \d+\.\d ms\n$/, ''));
    expect(lines).toEqual([
      'DEBUG: GET /healthz 200',
      'DEBUG: GET /readyz 200',
      'DEBUG: GET /metrics 200',
      'INFO: GET /admin/v0/members?per_page=2 401',
      'INFO: GET /nowhere 404',
    ]);
  });

  it('is the form `auto` takes on a terminal, in colour', async () => {
    const { app, written } = await loggedApp({ logFormat: 'auto', logLevel: 'info' }, true);
    await app.inject({ method: 'GET', url: '/nowhere' });
    await app.close();
    expect(written.map((line) => line.replace(/^\[\d\d:\d\d:\d\d\] /, '').replace(/ \d+\.\d ms/, ' N ms'))).toEqual([
      '\u001b[32mINFO\u001b[39m: \u001b[36mGET /nowhere 404 N ms\u001b[39m\n',
    ]);
  });
});

describe('JSON request lines (LOG_FORMAT=json, or auto off a terminal)', () => {
  /** The lines of a run, without what differs between any two (time, pid, host, ids, ports, durations). */
  const stable = (written: string[]) =>
    written.map((text) => {
      const { time, pid, hostname, request_id, responseTime, ...line } = JSON.parse(text) as Record<string, unknown>;
      expect([typeof time, typeof pid, typeof hostname, typeof request_id]).toEqual([
        'number',
        'number',
        'string',
        'string',
      ]);
      return responseTime === undefined ? line : { ...line, responseTime: typeof responseTime };
    });

  it.each([
    ['json', true],
    ['auto', undefined],
  ] as const)(
    'LOG_FORMAT=%s writes the incoming and completed lines of each request but the probes',
    async (format, isTTY) => {
      const { app, written } = await loggedApp({ logFormat: format, logLevel: 'info' }, isTTY);
      await requests(app);
      await app.close();
      const req = (url: string) => ({ method: 'GET', url, host: 'localhost:80', remoteAddress: '127.0.0.1' });
      expect(stable(written)).toEqual([
        { level: 30, req: req('/admin/v0/members?per_page=2'), msg: 'incoming request' },
        { level: 30, res: { statusCode: 401 }, responseTime: 'number', msg: 'request completed' },
        { level: 30, req: req('/nowhere'), msg: 'incoming request' },
        { level: 30, res: { statusCode: 404 }, responseTime: 'number', msg: 'request completed' },
      ]);
    },
  );

  it('writes the probes at debug', async () => {
    const { app, written } = await loggedApp({ logFormat: 'json', logLevel: 'debug' });
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.close();
    expect(stable(written)).toEqual([
      {
        level: 20,
        req: { method: 'GET', url: '/healthz', host: 'localhost:80', remoteAddress: '127.0.0.1' },
        msg: 'incoming request',
      },
      { level: 20, res: { statusCode: 200 }, responseTime: 'number', msg: 'request completed' },
    ]);
  });
});
