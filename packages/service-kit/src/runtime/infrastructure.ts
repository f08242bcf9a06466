import { topologyOf } from '@app/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import { natsCredentials, streamLimitsOf, type BaseConfig } from '../config.js';
import { createPool } from '../db/pool.js';
import type { ReadinessCheck } from '../http/health.js';
import { AsyncPathMetrics } from './async-path-metrics.js';
import { Bus } from '../nats/bus.js';
import { untilReachable } from './startup-wait.js';
import { KIT_TUNING, type KitTuning } from '../tuning.js';

/** The connections a service opens at boot: its database pool and its NATS bus. */
export interface Infrastructure<C extends BaseConfig = BaseConfig> {
  config: C;
  log: FastifyBaseLogger;
  pool: pg.Pool;
  bus: Bus;
  /** The async path's metrics (outbox, relay, consumers, NATS requests, pool), served on `/metrics` beside HTTP's. */
  metrics: AsyncPathMetrics;
  readiness: ReadinessCheck[];
  /** The kit's constants, or a test's values in their place: consumers take their retry schedule from here. */
  tuning: KitTuning;
  /** From now on `/readyz` answers 503: the process is about to stop and wants no new requests. */
  startDraining(): void;
  close(): Promise<void>;
}

export async function openInfrastructure<C extends BaseConfig>(
  config: C,
  service: string,
  schema: string,
  log: FastifyBaseLogger,
  tuning: KitTuning = KIT_TUNING,
): Promise<Infrastructure<C>> {
  const credentials = natsCredentials(config);
  const metrics = new AsyncPathMetrics(service);
  const pool = createPool(config.DATABASE_URL, {
    max: config.DATABASE_POOL_SIZE,
    log,
    schema,
    acquireTimeoutMs: config.DATABASE_POOL_TIMEOUT_MS,
    namedStatements: config.DATABASE_NAMED_STATEMENTS,
  });
  const connectBus = () =>
    Bus.connect({
      url: config.NATS_URL,
      prefix: config.NATS_PREFIX,
      service,
      credentials,
      topology: topologyOf(service),
      requestTimeoutMs: config.REQUEST_TIMEOUT_MS,
      streamLimits: streamLimitsOf(config),
      metrics,
      log,
    });
  const bus = await untilReachable('NATS', connectBus, { waitMs: config.STARTUP_WAIT_MS, log }).catch(async (error: unknown) => {
    await pool.end();
    throw error;
  });
  metrics.watchDatabase(pool);
  let draining = false;
  return {
    config,
    log,
    pool,
    bus,
    metrics,
    tuning,
    readiness: [
      {
        name: 'accepting',
        check: async () => {
          if (draining) throw new Error('shutting down');
        },
      },
      { name: 'database', check: async () => void (await pool.query('SELECT 1')) },
      { name: 'nats', check: () => bus.nc.flush() },
    ],
    startDraining() {
      draining = true;
    },
    async close() {
      await bus.close();
      await pool.end();
    },
  };
}
