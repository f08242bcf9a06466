import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { inject } from 'vitest';
import type pg from 'pg';
import { testAssertionSecrets } from '@app/service-testing';
import { Bus, callerAssertionSecretsSchema, createPool, migrate, type StreamLimits } from '../../src/index.js';
import { useCallerAssertionKeys } from '../../src/http/caller-assertion.js';

export const silentLog = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/**
 * Gives an app built with buildService the run's caller assertion secret of the project's audience, as startService
 * does from the config (with the service's name as the audience): the assertions of `organizationHeaders()` pass.
 */
export function useRunCallerKeys(app: object): void {
  const audience = inject('callerAssertionAudience');
  useCallerAssertionKeys(app, callerAssertionSecretsSchema.parse(testAssertionSecrets(audience)), audience);
}

/** A schema of the test's own with the kit's tables (outbox, inbox) migrated into it. */
export async function kitSchema(): Promise<{ schema: string; pool: pg.Pool; close: () => Promise<void> }> {
  const schema = `kit_${randomBytes(4).toString('hex')}`;
  const databaseUrl = inject('databaseUrl');
  await migrate({ databaseUrl, schema, dir: mkdtempSync(join(tmpdir(), 'no-migrations-')) });
  const pool = createPool(databaseUrl, { max: 4, log: silentLog, schema });
  return { schema, pool, close: () => pool.end() };
}

/** A bus on the run's NATS with a prefix of the test's own. */
export function kitBus(options: { url?: string; prefix?: string; timeoutMs?: number; streamLimits?: StreamLimits } = {}): Promise<Bus> {
  return Bus.connect({
    url: options.url ?? inject('natsUrl'),
    prefix: options.prefix ?? `${inject('natsPrefix')}_${randomBytes(3).toString('hex')}`,
    service: 'kit-test',
    requestTimeoutMs: options.timeoutMs ?? 500,
    ...(options.streamLimits && { streamLimits: options.streamLimits }),
    log: silentLog,
  });
}

export { eventually } from '@app/service-testing';
