// Waits, before a run is measured, until the stack has finished the work the runs before it left behind: the
// consumers catching up on a burst of bookings, the relay draining its outbox, Postgres's autovacuum after a bulk
// seed. Without it, a run (a steady-rate one above all) is measured against a stack still busy with the last one.
// "Settled" is read from the stack's CPU (/proc): under QUIET_SHARE of one core over a whole window.
import { setTimeout as sleep } from 'node:timers/promises';
import { stackCpuMs } from '../process-cpu.mjs';

// An idle stack (eleven Node processes with their timers, NATS, Postgres) spends 0.02–0.06 of a core on this VM; a
// backlog being worked off, most of one or both.
const QUIET_SHARE = Number(process.env.BENCH_SETTLE_SHARE ?? 0.25);
const WINDOW_MS = 1000;
const TIMEOUT_MS = 120_000;

/**
 * Resolves, once the stack is quiet, to the seconds waited and the stack's share of a core over the last window; after
 * `timeoutMs` it gives up (`settled: false`) rather than hang the bench. Without /proc, resolves at once. `cpuMs`
 * reads the stack's CPU milliseconds so far (its own reading of /proc unless a test gives another).
 */
export async function settle({ database, cpuMs = () => stackCpuMs(database), timeoutMs = TIMEOUT_MS }) {
  const startedAt = Date.now();
  let share = Infinity;
  try {
    let before = cpuMs();
    while (Date.now() - startedAt < timeoutMs) {
      await sleep(WINDOW_MS);
      const now = cpuMs();
      share = (now - before) / WINDOW_MS;
      before = now;
      if (share < QUIET_SHARE) break;
    }
  } catch {
    // No /proc (not Linux): nothing to wait on.
    share = 0;
  }
  return { waited_s: +((Date.now() - startedAt) / 1000).toFixed(1), cpu_share: +share.toFixed(2), settled: share < QUIET_SHARE };
}
