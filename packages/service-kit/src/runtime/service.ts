import type { FastifyInstance } from 'fastify';
import type { BaseConfig } from '../config.js';
import { migrate, migrationOptionsOf } from '../db/migrate.js';
import { configureServer } from '../http/build-service.js';
import { useCallerAssertionKeys } from '../http/caller-assertion.js';
import { addMetrics } from '../http/metrics.js';
import { useLoadShedding } from '../http/load-shedding.js';
import { useIdempotencyStore } from '../http/idempotency/idempotency-hooks.js';
import { IdempotencyStore } from '../http/idempotency/idempotency.store.js';
import { RetentionSweeper, retentionOf, type RetainedRows, type SweepResult } from '../outbox/retention-sweeper.js';
import { openInfrastructure, type Infrastructure } from './infrastructure.js';
import { createLogger } from './logger.js';
import { kitTuning, type KitTuningOverrides } from '../tuning.js';
import type { BackgroundTask } from '../workers/background-task.js';

const SHUTDOWN_GRACE_MS = 5000;

export interface Built {
  app: FastifyInstance;
  background?: BackgroundTask[];
  /** Closes what `build` opened beyond the infrastructure (the Prisma client). */
  close?: () => Promise<void>;
  /** The service's own tables whose old rows the kit's retention sweep deletes, beside its outbox and inbox. */
  retention?: readonly RetainedRows[];
}

/** What a service is: its name, its schema and migrations, and how to build its app from the infrastructure. */
export interface ServiceDefinition<C extends BaseConfig> {
  name: string;
  schema: string;
  migrationsDir: string;
  build(infra: Infrastructure<C>): Promise<Built>;
}

export interface RunningService<C extends BaseConfig> extends Built {
  infra: Infrastructure<C>;
  /** The address it listens on, when started with `listen`. */
  url?: string;
  /** The address of its `/metrics` listener, when METRICS_PORT is set. */
  metricsUrl?: string;
  /** Reports not-ready on `/readyz` and keeps serving for `ms`, so traffic moves away before `stop`. */
  drain(ms: number): Promise<void>;
  /** Runs the retention sweep now (it runs by itself at the tuning's pace), as its next tick would. */
  sweepRetention(): Promise<SweepResult>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** False in tests that use `app.inject`: no HTTP listener. */
  listen?: boolean;
  /** Tests' values in place of the kit's constants (`KIT_TUNING`); a process always runs with those. */
  tuning?: KitTuningOverrides;
}

/**
 * Boots a service: migrations, connections, app, background tasks, and (unless `listen` is false, as in
 * tests that use `app.inject`) the HTTP listener. `stop` drains in reverse order.
 */
export async function startService<C extends BaseConfig>(
  definition: ServiceDefinition<C>,
  config: C,
  options: StartOptions = {},
): Promise<RunningService<C>> {
  const tuning = kitTuning(options.tuning);
  const log = createLogger(config, definition.name);
  // Waits for a Postgres that does not answer yet by itself (the migration's connection is retried), NATS below.
  await migrate(migrationOptionsOf(config, { schema: definition.schema, dir: definition.migrationsDir }));
  const infra = await openInfrastructure(config, definition.name, definition.schema, log, tuning);
  const built = await definition.build(infra).catch(async (error: unknown) => {
    await infra.close(); // a client the service needs (the gateway's Redis) was not reachable: leave nothing open
    throw error;
  });
  try {
    useCallerAssertionKeys(built.app, config.CALLER_ASSERTION_SECRETS, definition.name);
  } catch (error) {
    await built.close?.();
    await infra.close();
    throw error;
  }
  // Every service keeps its Idempotency-Keys in its own schema (the kit's migration 0003).
  const idempotency = new IdempotencyStore(infra.pool);
  useIdempotencyStore(built.app, idempotency);
  addMetrics(built.app, infra.metrics.registry);
  useLoadShedding(built.app, { maxInFlight: config.MAX_IN_FLIGHT, maxEventLoopDelayMs: config.SHED_EVENT_LOOP_DELAY_MS });
  // Every schema has the kit's outbox and inbox (migration 0001): their old rows, and expired Idempotency-Keys, are
  // swept beside the relay and consumers, and so are the rows of the service's own tables it names.
  const retention = retentionOf(config, tuning.retentionSweep);
  const sweeper = new RetentionSweeper(infra.pool, retention, log, idempotency, built.retention);
  const background = [...(built.background ?? []), sweeper];
  for (const task of background) await task.start();
  const server = await configureServer(built.app, config, tuning.httpTimeouts);
  let url: string | undefined;
  if (options.listen !== false) url = await built.app.listen({ host: config.HOST, port: config.PORT });
  return {
    ...built,
    infra,
    url,
    metricsUrl: server.metricsUrl,
    sweepRetention: () => sweeper.sweep(),
    async drain(ms) {
      infra.startDraining();
      await new Promise((resolve) => setTimeout(resolve, ms));
    },
    async stop() {
      // Graceful: stop accepting and let in-flight requests finish, but cut connections that are still
      // open after the grace period (a client that keeps streaming must not hold shutdown forever).
      const force = setTimeout(() => built.app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await built.app.close();
      clearTimeout(force);
      await server.close();
      for (const task of [...background].reverse()) await task.stop();
      await built.close?.();
      await infra.close();
    },
  };
}
