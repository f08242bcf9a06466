import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import type { DeadLetterSummary } from '@app/service-kit';
import type { Running } from './harness.js';

/** The repository's `npm run dlq` script (it runs against the kit's build, as operators run it). */
const DLQ_SCRIPT = fileURLToPath(new URL('../../../../scripts/dlq.mjs', import.meta.url));

/** Runs `npm run dlq -- <args>` against the service's NATS and prefix, as an operator would; its stdout. */
export async function dlq(running: Running, ...args: string[]): Promise<string> {
  const { NATS_USER: _user, NATS_PASSWORD: _password, ...env } = process.env;
  // scheduling's dead letters: webhooks consumes too, so the command is told which service's stream to read.
  const { stdout } = await promisify(execFile)(process.execPath, [DLQ_SCRIPT, ...args, '--service', 'scheduling'], {
    env: { ...env, NATS_URL: inject('natsUrl'), NATS_PREFIX: running.infra.config.NATS_PREFIX },
  });
  return stdout;
}

/** The dead letters of scheduling's consumer of bookings events, through `dlq list --json`. */
export async function listedDeadLetters(running: Running): Promise<DeadLetterSummary[]> {
  return JSON.parse(await dlq(running, 'list', '--json', '--consumer', 'scheduling-bookings')) as DeadLetterSummary[];
}
