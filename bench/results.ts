// The shapes a benchmark run produces (what the harness writes to results JSON and the report reads back), and their names.

export interface LoadFigures {
  /** Responses per second over the measured window. */
  rps: number;
  /** Responses received in the measured window (every status). */
  requests: number;
  /** Responses that were not 2xx, and socket errors or timeouts; any of these fails the run. */
  non2xx: number;
  errors: number;
  /**
   * 503 answers (a statement past the store's deadline, shed as the API documents): counted, their times in the
   * percentiles, not failing the run. Absent from results taken before they were counted.
   */
  shed?: number;
  p50Ms: number;
  /** Absent from results taken before the console workload's target (p95) was added. */
  p95Ms?: number;
  p99Ms: number;
  /** Server CPU (user + system) per response, in microseconds. */
  cpuPerRequestUs: number;
  /** Server CPU share of one core over the window (1 = one core busy). */
  cpuCores: number;
  /** Peak resident set of the server during this workload (VmHWM after a reset), MB. */
  peakRssMb: number;
}

export interface WorkloadResult {
  name: string;
  title: string;
  /** What it requests, in words, for the method section. */
  description: string;
  /** Mean body size of a sample of its responses, as sent (compressed, for a compressed workload); the baseline answers this many bytes. */
  bodyBytes: number;
  /** A compressed workload's coding, the mean size of the same answers uncompressed, and the workload asking for them so. */
  coding?: 'br' | 'gzip';
  identityBytes?: number;
  identity?: string;
  urls: number;
  /** Mean `total_records` over the sampled answers of a list or search (how much each one counts). */
  meanTotalRecords: number | null;
  /** Under load: `connections` connections, as fast as each answers. */
  hearth: LoadFigures;
  baseline: LoadFigures;
  /** One connection, one request at a time: latency without queueing behind other requests. */
  hearthAlone: LoadFigures;
  baselineAlone: LoadFigures;
  /** Share of the loaded run's answers served from the answer cache (from /metrics), or null when unknown. */
  cacheHitRate?: number | null;
  /** A workload of several page kinds (the console's): each kind on one connection alone, after the runs above. */
  pages?: PageFigures[];
}

export interface PageFigures {
  name: string;
  urls: number;
  hearthAlone: LoadFigures;
}

export interface SkippedWorkload {
  name: string;
  title: string;
  reason: string;
}

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  /** Load averages (1 min) seen before each workload: other work on the machine shows here. */
  loadAverages: number[];
}

export interface CorpusInfo {
  key: string;
  scale: number;
  seed: number;
  schema: string;
  reused: boolean;
  /** From the `hearth demo` run that built the corpus (kept beside it, so a reused corpus still reports it). */
  records: number;
  counts: Record<string, number>;
  importSeconds: number;
  importRecordsPerSecond: number;
  /** Wall time of the whole `hearth demo` process and the CPU it used (user + system). */
  processSeconds: number;
  processCpuSeconds: number;
  databaseMb: number;
  builtAt: string;
  /** Set when an older schema's corpus was migrated forward instead of imported again. */
  migratedFrom?: string;
  migrationSeconds?: number;
}

export interface TargetResult {
  name: string;
  goal: string;
  measured: string;
  /** null when a workload it needs was skipped. */
  pass: boolean | null;
}

export interface RunSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** Length of the one-connection latency runs. */
  aloneSeconds: number;
  /** Rounds of each loaded run, alternating Hearth's and the baseline's (absent in results from before them: one). */
  rounds?: number;
  smoke: boolean;
  /** The store Hearth served the corpus from. */
  store?: 'sqlite' | 'postgres';
}

export interface BenchResults {
  startedAt: string;
  finishedAt: string;
  settings: RunSettings;
  machine: MachineInfo;
  corpus: CorpusInfo;
  /** VmHWM of the Hearth process over the whole run, from start to the last workload, MB. */
  hearthPeakRssMb: number;
  baselinePeakRssMb: number;
  workloads: WorkloadResult[];
  skipped: SkippedWorkload[];
  targets: TargetResult[];
}

/** One import workload: `hearth import` of an NDJSON file, timed by the command itself. */
export interface ImportResult {
  name: string;
  title: string;
  description: string;
  records: number;
  seconds: number;
  recordsPerSecond: number;
  /** VmHWM of the import process, MB. */
  peakRssMb: number;
  /** slack-events only: the acknowledgements' p99 under the burst, Hearth's and the bare server's, ms. */
  ackP99Ms?: number;
  ackBareP99Ms?: number;
  /** slack-events only: the load average (1 min) when the run ended. */
  loadAverage?: number;
}

/** The import workloads' figures of one store, kept apart from the read workloads' (they run without a server). */
export interface ImportResults {
  finishedAt: string;
  store: 'sqlite' | 'postgres';
  scale: number;
  seed: number;
  imports: ImportResult[];
  targets: TargetResult[];
}

/** A store as the report and the charts name it. */
export const storeName = (store: ImportResults['store']): string => (store === 'postgres' ? 'PostgreSQL' : 'SQLite');
