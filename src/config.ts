// Hearth's configuration: one schema, read once from the environment, frozen.
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const ConfigSchema = Type.Object({
  databaseUrl: Type.String({ minLength: 1 }),
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  rateLimitPerSecond: Type.Integer({ minimum: 1 }),
  redisUrl: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  databasePoolSize: Type.Integer({ minimum: 1, maximum: 1000 }),
  bodyLimitBytes: Type.Integer({ minimum: 1024 }),
  trustProxy: Type.Boolean(),
});

export type Config = Readonly<Static<typeof ConfigSchema>>;

export const defaultConfig: Config = Object.freeze({
  databaseUrl: './data/hearth.db',
  host: '127.0.0.1',
  port: 3000,
  logLevel: 'info',
  rateLimitPerSecond: 50,
  redisUrl: null,
  databasePoolSize: 10,
  bodyLimitBytes: 64 * 1024,
  trustProxy: false,
});

/** Documented variables, with the config key each one sets. */
const variables = {
  DATABASE_URL: 'databaseUrl',
  HOST: 'host',
  PORT: 'port',
  LOG_LEVEL: 'logLevel',
  RATE_LIMIT_PER_SECOND: 'rateLimitPerSecond',
  REDIS_URL: 'redisUrl',
  DATABASE_POOL_SIZE: 'databasePoolSize',
  BODY_LIMIT_BYTES: 'bodyLimitBytes',
  TRUST_PROXY: 'trustProxy',
} as const satisfies Record<string, keyof Config>;

export class ConfigError extends Error {}

/** Builds the config from environment variables and overrides; throws a ConfigError naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const raw: Record<string, unknown> = { ...defaultConfig };
  for (const [name, key] of Object.entries(variables)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const base = defaultConfig[key];
    if (typeof base === 'number') raw[key] = /^\d+$/.test(value) ? Number(value) : value;
    else if (typeof base === 'boolean') raw[key] = value === 'true' ? true : value === 'false' ? false : value;
    else raw[key] = value;
  }
  Object.assign(raw, overrides);
  const errors = [...Value.Errors(ConfigSchema, raw)];
  if (errors.length > 0) {
    const names = Object.fromEntries(Object.entries(variables).map(([n, k]) => [k, n]));
    const detail = errors.map((e) => {
      const key = e.path.slice(1);
      return `${names[key] ?? key}: ${e.message} (got ${JSON.stringify(raw[key])})`;
    });
    throw new ConfigError(`Invalid configuration: ${detail.join('; ')}`);
  }
  return Object.freeze(raw as Config);
}

/** The config with secrets hidden, for printing. */
export function describeConfig(config: Config): Record<string, unknown> {
  const hide = (url: string | null) => url?.replace(/\/\/([^@/]*)@/, '//***@') ?? null;
  return { ...config, databaseUrl: hide(config.databaseUrl), redisUrl: hide(config.redisUrl) };
}
