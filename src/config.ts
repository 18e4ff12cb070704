// Hearth's configuration: one schema, read once from the environment, frozen.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { DURATION_PATTERN } from './lib/duration.js';

// Each setting's `description` is its meaning in docs/configuration.md's configuration table (`npm run docs:config`).
export const ConfigSchema = Type.Object({
  databaseUrl: Type.String({ minLength: 1, description: 'SQLite file path, or a `postgres://` URL' }),
  host: Type.String({ minLength: 1, description: 'address `hearth serve` and `hearth start` listen on' }),
  port: Type.Integer({ minimum: 0, maximum: 65535, description: 'port `hearth serve` and `hearth start` listen on' }),
  logLevel: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    {
      description:
        'pino level (`silent` to turn logs off); the probes `/healthz`, `/readyz` and `/metrics` are logged at `debug`',
    },
  ),
  logFormat: Type.Union(
    (['auto', 'json', 'pretty'] as const).map((f) => Type.Literal(f)),
    {
      description:
        '`json`: one JSON object a line; `pretty`: readable lines, one per request (`GET /admin/v0/members 200 3.2 ms`); `auto`: pretty when stdout is a terminal, else json',
    },
  ),
  rateLimitPerSecond: Type.Integer({ minimum: 1, description: 'requests per second per token' }),
  authFailuresPerSecond: Type.Integer({
    minimum: 1,
    description: 'requests per second per client address that fail authentication (limited before any token work)',
  }),
  redisUrl: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
    description: 'share rate limits between several Hearth processes',
  }),
  databasePoolSize: Type.Integer({ minimum: 1, maximum: 1000, description: 'PostgreSQL connections per process' }),
  databaseQueryTimeoutMs: Type.Integer({
    minimum: 10,
    description: 'PostgreSQL: a query longer than this is abandoned (503 `unavailable`)',
  }),
  databaseAcquireTimeoutMs: Type.Integer({
    minimum: 10,
    description: 'PostgreSQL: longest wait for a pooled connection (503 `unavailable`)',
  }),
  bodyLimitBytes: Type.Integer({ minimum: 1024, description: 'largest accepted request body' }),
  bodyTimeoutMs: Type.Integer({ minimum: 100, description: 'a request body must arrive within this time, else 408' }),
  trustProxy: Type.Boolean({ description: 'trust `X-Forwarded-*` from a proxy in front' }),
  metricsToken: Type.Union([Type.String({ minLength: 16 }), Type.Null()], {
    secret: true,
    description:
      '`GET /metrics` then needs `Authorization: Bearer <METRICS_TOKEN>` (16 characters or more); unset, it is open',
  }),
  answerCacheBytes: Type.Integer({
    minimum: 0,
    description: 'bytes of rendered answers each process keeps in memory (0 turns the answer cache off)',
  }),
  compression: Type.Boolean({
    description:
      'answers of 1 KB and more in brotli or gzip to clients that accept them; `false` where a proxy in front compresses',
  }),
  webhookAllowPrivate: Type.Boolean({
    description: 'allow webhooks to loopback and private addresses (development and tests only)',
  }),
  webhookTimeoutMs: Type.Integer({
    minimum: 100,
    maximum: 60_000,
    description: 'a webhook receiver must answer within this time, else the attempt failed',
  }),
  webhookRetryBaseMs: Type.Integer({
    minimum: 1,
    description:
      'first retry delay of a failed webhook attempt; each further one doubles (with jitter, at most an hour), for 24 hours',
  }),
  webhookPollMs: Type.Integer({
    minimum: 10,
    description:
      "how often the webhook dispatcher looks for messages other processes wrote (this process's own leave at once)",
  }),
  webhookConcurrency: Type.Integer({
    minimum: 1,
    maximum: 1000,
    description: 'webhook deliveries one process keeps in flight at once',
  }),
  webhookRetentionDays: Type.Integer({
    minimum: 1,
    description:
      'days a delivered or failed webhook message and its attempts are kept (then deleted, in batches of 500); pending ones are always kept',
  }),
  slackBotToken: Type.Union([Type.String({ pattern: '^xoxb-' }), Type.Null()], {
    secret: true,
    allowed: 'a Slack bot token, xoxb-…, or unset',
    description:
      "bot token `hearth slack connect` stores for a community when no `--bot-token-file` is given (read here, never from the command line's arguments)",
  }),
  slackAppToken: Type.Union([Type.String({ pattern: '^xapp-' }), Type.Null()], {
    secret: true,
    allowed: 'a Slack app-level token, xapp-…, or unset',
    description:
      "app-level token (Socket Mode) `hearth slack connect` stores for a community when no `--app-token-file` is given (read here, never from the command line's arguments)",
  }),
  slackSigningSecret: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
    secret: true,
    description: 'signing secret `hearth slack connect` stores when no `--signing-secret-file` is given',
  }),
  slackApiUrl: Type.String({
    pattern: '^https?://',
    allowed: 'an http(s) URL',
    description: "base URL of Slack's Web API for `hearth slack sync` (changed only to test against a stand-in)",
  }),
  slackSyncEvery: Type.Union([Type.String({ pattern: DURATION_PATTERN }), Type.Null()], {
    allowed: 'a duration such as 1h, 30m or 1d, or unset',
    description:
      'how often `hearth serve` runs `hearth slack sync` for every community with a Slack connection (healing what the Events API dropped); unset, never (`--slack-sync-every` overrides it)',
  }),
  lumaApiKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
    secret: true,
    description:
      "Luma API key (one calendar's) for `hearth luma pull` and `LUMA_PULL_EVERY` when no `--api-key-file` is given (read here, never from the command line's arguments)",
  }),
  lumaApiUrl: Type.String({
    pattern: '^https?://',
    allowed: 'an http(s) URL',
    description: "base URL of Luma's public API (changed only to test against a stand-in)",
  }),
  lumaCommunity: Type.Union([Type.String({ minLength: 1 }), Type.Null()], {
    allowed: "a community's slug, or unset",
    description: '`hearth serve` pulls Luma events into this community every `LUMA_PULL_EVERY`',
  }),
  lumaPullEvery: Type.Union([Type.String({ pattern: DURATION_PATTERN }), Type.Null()], {
    allowed: 'a duration such as 15m, 1h (a whole number and s, m, h, d or w), or unset',
    description:
      '`hearth serve` pulls `LUMA_COMMUNITY` from Luma this often (the first pull at start); unset, it never does',
  }),
  console: Type.Boolean({
    description: "serve the operators' console at `/console` (and redirect `/` to it); `false` turns it off",
  }),
  consoleUrl: Type.Union([Type.String({ pattern: '^https?://[^\\s]+$' }), Type.Null()], {
    allowed: 'an http(s) URL, or unset',
    description:
      'the address operators reach Hearth at (`https://hearth.example.com`), for the sign-in links `hearth operator` prints; unset: http://HOST:PORT',
  }),
  corsOrigins: Type.Array(Type.String({ pattern: '^(\\*|https?://[^/\\s]+)$' }), {
    allowed: '* or origins such as https://events.example.com (scheme and host, no path), comma-separated',
    description:
      'origins whose browser pages may call the API, comma-separated (`https://events.example.com`), or `*`; unset, CORS is off',
  }),
});

export type Config = Readonly<Static<typeof ConfigSchema>>;

export const defaultConfig: Config = Object.freeze({
  databaseUrl: './data/hearth.db',
  host: '127.0.0.1',
  port: 3000,
  logLevel: 'info',
  logFormat: 'auto',
  rateLimitPerSecond: 50,
  authFailuresPerSecond: 20,
  redisUrl: null,
  databasePoolSize: 10,
  // A frozen PostgreSQL must answer 503 within 3 s: at most a wait for a connection plus one query.
  databaseQueryTimeoutMs: 1500,
  databaseAcquireTimeoutMs: 1000,
  bodyLimitBytes: 64 * 1024,
  bodyTimeoutMs: 10_000,
  trustProxy: false,
  answerCacheBytes: 32 * 2 ** 20,
  compression: true,
  webhookAllowPrivate: false,
  webhookTimeoutMs: 10_000,
  webhookRetryBaseMs: 10_000,
  webhookPollMs: 1000,
  webhookConcurrency: 16,
  webhookRetentionDays: 7,
  corsOrigins: [],
  console: true,
  consoleUrl: null,
  metricsToken: null,
  slackBotToken: null,
  slackSigningSecret: null,
  slackAppToken: null,
  slackApiUrl: 'https://slack.com/api/',
  slackSyncEvery: null,
  lumaApiKey: null,
  lumaApiUrl: 'https://public-api.luma.com',
  lumaCommunity: null,
  lumaPullEvery: null,
});

/** Documented variables, with the config key each one sets. */
export const variables = {
  DATABASE_URL: 'databaseUrl',
  HOST: 'host',
  PORT: 'port',
  LOG_LEVEL: 'logLevel',
  LOG_FORMAT: 'logFormat',
  RATE_LIMIT_PER_SECOND: 'rateLimitPerSecond',
  RATE_LIMIT_AUTH_FAILURES_PER_SECOND: 'authFailuresPerSecond',
  REDIS_URL: 'redisUrl',
  DATABASE_POOL_SIZE: 'databasePoolSize',
  DATABASE_QUERY_TIMEOUT_MS: 'databaseQueryTimeoutMs',
  DATABASE_ACQUIRE_TIMEOUT_MS: 'databaseAcquireTimeoutMs',
  BODY_LIMIT_BYTES: 'bodyLimitBytes',
  BODY_TIMEOUT_MS: 'bodyTimeoutMs',
  TRUST_PROXY: 'trustProxy',
  ANSWER_CACHE_BYTES: 'answerCacheBytes',
  COMPRESSION: 'compression',
  CORS_ORIGINS: 'corsOrigins',
  CONSOLE: 'console',
  CONSOLE_URL: 'consoleUrl',
  WEBHOOK_ALLOW_PRIVATE: 'webhookAllowPrivate',
  WEBHOOK_TIMEOUT_MS: 'webhookTimeoutMs',
  WEBHOOK_RETRY_BASE_MS: 'webhookRetryBaseMs',
  WEBHOOK_POLL_MS: 'webhookPollMs',
  WEBHOOK_CONCURRENCY: 'webhookConcurrency',
  WEBHOOK_RETENTION_DAYS: 'webhookRetentionDays',
  METRICS_TOKEN: 'metricsToken',
  SLACK_BOT_TOKEN: 'slackBotToken',
  SLACK_SIGNING_SECRET: 'slackSigningSecret',
  SLACK_APP_TOKEN: 'slackAppToken',
  SLACK_API_URL: 'slackApiUrl',
  SLACK_SYNC_EVERY: 'slackSyncEvery',
  LUMA_API_KEY: 'lumaApiKey',
  LUMA_API_URL: 'lumaApiUrl',
  LUMA_COMMUNITY: 'lumaCommunity',
  LUMA_PULL_EVERY: 'lumaPullEvery',
} as const satisfies Record<string, keyof Config>;

export class ConfigError extends Error {}

/** Builds the config from environment variables and overrides; throws a ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = { ...defaultConfig };
  for (const [name, key] of Object.entries(variables)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const base = defaultConfig[key];
    if (Array.isArray(base))
      raw[key] = value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    else if (typeof base === 'number') raw[key] = /^\d+$/.test(value) ? Number(value) : value;
    else if (typeof base === 'boolean') raw[key] = value === 'true' ? true : value === 'false' ? false : value;
    else raw[key] = value;
  }
  Object.assign(raw, overrides);
  const names: Record<string, string> = Object.fromEntries(Object.entries(variables).map(([n, k]) => [k, n]));
  // One line per bad setting (a union reports each of its members too): the variable, its value, what is allowed.
  const bad = new Set([...Value.Errors(ConfigSchema, raw)].map((e) => e.path.split('/')[1] ?? ''));
  const detail = [...bad].map((key) => {
    const schema: TSchema | undefined = ConfigSchema.properties[key as keyof Config];
    const name = names[key] ?? key;
    const given = env[name] !== undefined && env[name] !== '' && !(key in overrides) ? env[name] : raw[key];
    return `${name}: got ${shownValue(given, schema?.['secret'] === true)}; allowed: ${schema ? allowedValues(schema) : 'nothing'}`;
  });
  const scheme = typeof raw['databaseUrl'] === 'string' ? unsupportedScheme(raw['databaseUrl']) : null;
  if (scheme) {
    detail.push(
      `DATABASE_URL: unsupported scheme '${scheme}' (use a SQLite file path, sqlite:PATH, or a postgres:// URL)`,
    );
  }
  if (detail.length > 0) throw new ConfigError(`Invalid configuration: ${detail.join('; ')}`);
  return Object.freeze(raw as Config);
}

/** What a setting accepts, in words, from its schema (the error messages and docs/configuration.md's table). */
export function allowedValues(schema: TSchema): string {
  if (typeof schema['allowed'] === 'string') return schema['allowed'];
  if (Array.isArray(schema['anyOf'])) {
    const members = (schema['anyOf'] as TSchema[]).filter((member) => member['type'] !== 'null');
    const unset = members.length < schema['anyOf'].length ? ', or unset' : '';
    if (members.every((member) => 'const' in member))
      return `one of ${members.map((member) => String(member['const'])).join(', ')}`;
    return `${members.map(allowedValues).join(' or ')}${unset}`;
  }
  const min: unknown = schema['minimum'];
  const max: unknown = schema['maximum'];
  switch (schema['type']) {
    case 'integer':
      if (typeof min === 'number' && typeof max === 'number') return `a whole number from ${min} to ${max}`;
      if (typeof min === 'number') return `a whole number, ${min} or more`;
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'string':
      return typeof schema['minLength'] === 'number' && schema['minLength'] > 1
        ? `${schema['minLength']} characters or more`
        : 'any text';
    default:
      return 'see docs/configuration.md';
  }
}

/** A bad value as the message shows it: a secret by its length only, a URL's password masked. */
function shownValue(value: unknown, secret: boolean): string {
  if (typeof value !== 'string') return Array.isArray(value) ? `'${value.join(',')}'` : String(value);
  if (secret) return `${value.length} characters (not shown)`;
  return `'${value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s]*@/i, '$1***@')}'`;
}

/**
 * The scheme of a URL-looking DATABASE_URL that no store serves (`mysql:`), or null. Without this check
 * `mysql://x@host/db` would quietly become a SQLite file of that name.
 */
export function unsupportedScheme(databaseUrl: string): string | null {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]+):\//.exec(databaseUrl)?.[1]?.toLowerCase();
  if (scheme === undefined || scheme === 'postgres' || scheme === 'postgresql' || scheme === 'sqlite') return null;
  return `${scheme}:`;
}
