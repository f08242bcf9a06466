import type { z } from 'zod';
import { loadConfigOrExit, type BaseConfig } from '../config.js';
import { shutdownTracing } from '../telemetry/shutdown.js';
import { startService, type ServiceDefinition } from './service.js';

/** The body of every `server.ts`: parse env, start, and shut down gracefully on SIGINT/SIGTERM. */
export async function runMain<S extends z.ZodType<BaseConfig>>(definition: ServiceDefinition<z.infer<S>>, configSchema: S): Promise<void> {
  const config: z.infer<S> = loadConfigOrExit(configSchema, definition.name);
  const service = await startService(definition, config).catch((error: unknown) => {
    console.error(`[${definition.name}] failed to start: ${describeStartFailure(error, config)}`);
    process.exit(1);
  });
  service.app.log.info({ url: service.url }, `${definition.name} listening`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.app.log.info({ signal, drainMs: config.SHUTDOWN_DRAIN_MS }, 'shutting down: draining, then closing');
    const force = setTimeout(() => process.exit(1), config.SHUTDOWN_DRAIN_MS + 10_000);
    force.unref();
    // Not-ready first (balancers stop routing here), then close: in-flight requests finish, none is dropped.
    service
      .drain(config.SHUTDOWN_DRAIN_MS)
      .then(() => service.stop())
      .then(() => shutdownTracing()) // the last requests' spans are exported before the process exits
      .then(
        () => process.exit(0),
        (error: unknown) => {
          service.app.log.error({ err: error }, 'unclean shutdown');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

function describeStartFailure(error: unknown, config: BaseConfig): string {
  const text = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string } | null)?.code;
  if (code === 'ECONNREFUSED' && /5432|postgres/i.test(`${text} ${config.DATABASE_URL}`) && !/4222/.test(text)) {
    return `PostgreSQL is not reachable at ${redact(config.DATABASE_URL)} (${text}). Start it (the local service, or: npm run compose:secrets && docker compose -f docker-compose.yml -f ops/compose/publish-infra.yml up -d postgres).`;
  }
  if (/CONNECTION_REFUSED|ECONNREFUSED|nats/i.test(`${code ?? ''} ${text}`)) {
    return `NATS is not reachable at ${config.NATS_URL} (${text}). Start it with JetStream (docker compose up -d nats, or nats-server -js).`;
  }
  return text;
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}
