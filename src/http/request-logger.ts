// Request loggers made on first use: Fastify gives every request a pino child bound to its request id, whose
// bindings pino serializes at once; a request that writes no line at the logger's level never makes one.
import type { FastifyBaseLogger, FastifyLogFn, FastifyServerOptions, LogLevel } from 'fastify';

type Level = Exclude<LogLevel, 'silent'>;
type LogFn = FastifyLogFn;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

/** The parent Fastify hands over: pino's logger, which can say whether a level is written. */
interface LevelledLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

const isLevelled = (logger: FastifyBaseLogger): logger is LevelledLogger =>
  typeof (logger as Partial<LevelledLogger>).isLevelEnabled === 'function';

/** Stands in for `parent.child(bindings, options)`, made the first time a line is written or the child is asked for. */
class RequestLogger {
  #child: FastifyBaseLogger | undefined;
  readonly #parent: LevelledLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;

  constructor(parent: LevelledLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #made(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #write(level: Level, args: Parameters<LogFn>): void {
    if (this.#child !== undefined || this.#parent.isLevelEnabled(level)) this.#made()[level](...args);
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.#made().level = level;
  }
  fatal(...args: Parameters<LogFn>): void {
    this.#write('fatal', args);
  }
  error(...args: Parameters<LogFn>): void {
    this.#write('error', args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.#write('warn', args);
  }
  info(...args: Parameters<LogFn>): void {
    this.#write('info', args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.#write('debug', args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.#write('trace', args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}

/**
 * Fastify's `childLoggerFactory`: the same child as its default (`logger.child(bindings, options)`), made only when
 * it writes. A request's own level (a route's `logLevel`) or a logger that cannot tell its levels gets it at once.
 */
export const requestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  options.level === undefined && isLevelled(logger)
    ? (new RequestLogger(logger, bindings, options) as FastifyBaseLogger)
    : logger.child(bindings, options);
