import { inject } from 'vitest';
import './provided-context.js';

/** NATS reserves a stream's max_bytes on its disk: test runs' streams stay small, so many runs fit on one NATS. */
export const TEST_STREAM_MAX_BYTES = 64 * 1024 * 1024;
/** Likewise for the consumers' dead-letter streams. */
const TEST_DEAD_LETTER_MAX_BYTES = 8 * 1024 * 1024;

/**
 * Env for a service under test: the run's own database and NATS prefix and its caller assertion keys (from the
 * global setup): services verify with the public keys, the gateway signs with the private one.
 */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    DATABASE_URL: inject('databaseUrl'),
    NATS_URL: inject('natsUrl'),
    NATS_PREFIX: inject('natsPrefix'),
    CALLER_ASSERTION_PUBLIC_KEYS: inject('callerAssertionPublicKeys'),
    CALLER_ASSERTION_PRIVATE_KEY: inject('callerAssertionPrivateKey'),
    CALLER_ASSERTION_KEY_ID: inject('callerAssertionKeyId'),
    NATS_STREAM_MAX_BYTES: String(TEST_STREAM_MAX_BYTES),
    NATS_DLQ_MAX_BYTES: String(TEST_DEAD_LETTER_MAX_BYTES),
    ...extra,
  };
}
