// Command-line options of `npm run bench` (and `bench:smoke`), with BENCH_SCALE as the environment's say on scale.
import { parseArgs } from 'node:util';

export interface BenchOptions {
  scale: number;
  seed: number;
  durationSeconds: number;
  warmupSeconds: number;
  aloneSeconds: number;
  /** The loaded run of each workload in this many rounds, alternating Hearth's and the baseline's. */
  rounds: number;
  connections: number;
  only: string[] | null;
  rebuild: boolean;
  smoke: boolean;
  /** Where results, chart and report go; null: the repository's places (or, for a smoke run, a temporary directory). */
  out: string | null;
  /** The store Hearth serves the corpus from; PostgreSQL's corpus lives in a database of its own on `postgresUrl`. */
  store: 'sqlite' | 'postgres';
  postgresUrl: string;
}

function positive(name: string, text: string, integer: boolean): number {
  const value = Number(text.replace(/_/g, ''));
  if (!(value > 0) || (integer && !Number.isInteger(value)))
    throw new Error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got '${text}'`);
  return value;
}

function positiveStore(value: string | undefined): never {
  throw new Error(`--store must be sqlite or postgres, got '${value}'`);
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string' },
      seed: { type: 'string', default: '1' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string', default: '10' },
      rounds: { type: 'string' },
      only: { type: 'string' },
      rebuild: { type: 'boolean', default: false },
      smoke: { type: 'boolean', default: false },
      out: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
    },
    strict: true,
  });
  const smoke = values.smoke ?? false;
  const scale = values.scale ?? (smoke ? '300' : env.BENCH_SCALE || '1000000');
  return {
    scale: positive('scale', scale, true),
    seed: positive('seed', values.seed ?? '1', true),
    durationSeconds: positive('duration', values.duration ?? (smoke ? '1.5' : '15'), false),
    warmupSeconds: values.warmup === '0' ? 0 : positive('warmup', values.warmup ?? (smoke ? '0.5' : '3'), false),
    aloneSeconds: smoke ? 0.5 : 5,
    rounds: positive('rounds', values.rounds ?? (smoke ? '1' : '3'), true),
    connections: positive('connections', values.connections ?? '10', true),
    only: values.only ? values.only.split(',').map((name) => name.trim()) : null,
    rebuild: values.rebuild ?? false,
    smoke,
    out: values.out ?? null,
    store:
      values.store === 'postgres' ? 'postgres' : values.store === 'sqlite' ? 'sqlite' : positiveStore(values.store),
    postgresUrl: env.BENCH_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  };
}
