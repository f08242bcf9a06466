import { inject } from 'vitest';
import { testAssertionSecrets, testSigningKeys } from './caller-assertion-keys.js';
import './provided-context.js';

/** NATS reserves a stream's max_bytes on its disk: test runs' streams stay small, so many runs fit on one NATS. */
export const TEST_STREAM_MAX_BYTES = 64 * 1024 * 1024;
/** Likewise for the consumers' dead-letter streams. */
const TEST_DEAD_LETTER_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Env for a service under test: the run's own database and NATS prefix and its caller assertion secrets (from the
 * global setup): the service `service` (default: the test project's) verifies with its own, the gateway mints with all.
 */
export function testEnv(extra: Record<string, string> = {}, service = inject('callerAssertionAudience')): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    DATABASE_URL: inject('databaseUrl'),
    NATS_URL: inject('natsUrl'),
    NATS_PREFIX: inject('natsPrefix'),
    CALLER_ASSERTION_SECRETS: testAssertionSecrets(service),
    CALLER_ASSERTION_SIGNING_KEYS: testSigningKeys(),
    NATS_STREAM_MAX_BYTES: String(TEST_STREAM_MAX_BYTES),
    NATS_DLQ_MAX_BYTES: String(TEST_DEAD_LETTER_MAX_BYTES),
    ...extra,
  };
}
