import { inject } from 'vitest';
import './provided-context.js';

/** Env for a service under test: the run's own database and NATS prefix (from the global setup). */
export function testEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    DATABASE_URL: inject('databaseUrl'),
    NATS_URL: inject('natsUrl'),
    NATS_PREFIX: inject('natsPrefix'),
    ...extra,
  };
}
