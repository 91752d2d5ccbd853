import type { FastifyBaseLogger, FastifyLogFn, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type LevelAware = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

const noop: FastifyLogFn = () => undefined;

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

  private forward(level: Level): FastifyLogFn {
    return ((...args: Parameters<FastifyLogFn>) => {
      if (this.created) return this.created[level](...args);
      if (this.parent.isLevelEnabled(level)) this.logger()[level](...args);
    }) as FastifyLogFn;
  }

  get level(): string {
    return (this.created ?? this.parent).level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  fatal = this.forward('fatal');
  error = this.forward('error');
  warn = this.forward('warn');
  info = this.forward('info');
  debug = this.forward('debug');
  trace = this.forward('trace');
  silent = noop;

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
