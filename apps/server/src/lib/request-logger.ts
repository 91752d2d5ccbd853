import type { FastifyBaseLogger, FastifyLogFn, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LevelAware = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * A request's logger that creates its child logger (with the request id) only when something is logged.
 * Pino builds a child's bindings eagerly, redaction included, which cost a few microseconds on every
 * request although at the usual levels most requests never log a line.
 */
class RequestLogger implements FastifyBaseLogger {
  private created: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private logger(): FastifyBaseLogger {
    this.created ??= this.parent.child(this.bindings, this.options);
    return this.created;
  }

  private log(level: Level, args: Parameters<FastifyLogFn>): void {
    if (this.created) this.created[level](...args);
    else if (this.parent.isLevelEnabled(level)) this.logger()[level](...args);
  }

  get level(): string {
    return (this.created ?? this.parent).level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  // Methods, not per-instance closures: one of these loggers is made for every request.
  fatal(...args: Parameters<FastifyLogFn>) {
    this.log('fatal', args);
  }
  error(...args: Parameters<FastifyLogFn>) {
    this.log('error', args);
  }
  warn(...args: Parameters<FastifyLogFn>) {
    this.log('warn', args);
  }
  info(...args: Parameters<FastifyLogFn>) {
    this.log('info', args);
  }
  debug(...args: Parameters<FastifyLogFn>) {
    this.log('debug', args);
  }
  trace(...args: Parameters<FastifyLogFn>) {
    this.log('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: request loggers are created lazily (see RequestLogger). */
export const lazyRequestLogger: ChildLoggerFactory = (logger, bindings, options) => {
  const parent = logger as Partial<LevelAware>;
  // A route-level log level or serializers need the child at once; so does a logger that is not pino.
  if (options.level || options.serializers || typeof parent.isLevelEnabled !== 'function') {
    return logger.child(bindings, options);
  }
  return new RequestLogger(parent as LevelAware, bindings, options);
};
