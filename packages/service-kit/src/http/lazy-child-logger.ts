import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
type LogMethod = FastifyBaseLogger['info'];
type Bindings = Parameters<FastifyBaseLogger['child']>[0];

/**
 * A request's logger (Fastify's `request.log`) that becomes the pino child with the request id only when a line is
 * written at a level the logger writes. pino builds a child at once (its bindings serialised, redaction set up),
 * a few microseconds on every request that most requests never use: the kit logs a request once, at info, when it
 * completes, and the probes not at all, so below info (the bench and many deployments run at warn) no request would.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
  ) {}

  get #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings);
    return this.#child;
  }

  get level(): string {
    return (this.#child ?? this.parent).level;
  }

  set level(level: string) {
    this.#logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return writesAt(this.#child ?? this.parent, level);
  }

  child(...args: Parameters<FastifyBaseLogger['child']>): FastifyBaseLogger {
    return this.#logger.child(...args);
  }

  #write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.#logger[level] as (...line: unknown[]) => void)(...args);
  }

  trace: LogMethod = (...args: unknown[]) => this.#write('trace', args);
  debug: LogMethod = (...args: unknown[]) => this.#write('debug', args);
  info: LogMethod = (...args: unknown[]) => this.#write('info', args);
  warn: LogMethod = (...args: unknown[]) => this.#write('warn', args);
  error: LogMethod = (...args: unknown[]) => this.#write('error', args);
  fatal: LogMethod = (...args: unknown[]) => this.#write('fatal', args);
  silent: LogMethod = () => undefined;
}

/** Whether `log` writes lines of `level`: pino's answer; a logger without the method (not pino) writes everything. */
export function writesAt(log: FastifyBaseLogger, level: string): boolean {
  return (log as Partial<Logger>).isLevelEnabled?.(level) ?? true;
}

/** Fastify's `childLoggerFactory`: a lazy child per request, a pino child at once for a route's own level or serializers. */
export const lazyChildLoggerFactory: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  Object.keys(options).length > 0
    ? logger.child(bindings, options)
    : (new LazyChildLogger(logger, bindings) as unknown as FastifyBaseLogger);
