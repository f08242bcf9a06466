import { findInfrastructure, type Infrastructure } from './infrastructure.js';
import { testInfra } from './test-infra.js';

interface Shared {
  users: number;
  ready: Promise<Infrastructure>;
}

// Vitest runs every project's global setup in its one main process, but each project evaluates its own copy of
// this module: a process-wide slot is what lets one Postgres and one NATS serve every project of the run.
const SLOT = Symbol.for('@app/service-testing/run-infrastructure');
const registry = globalThis as { [SLOT]?: Shared };

/**
 * The run's Postgres and NATS, found or started by the first project that asks, and `release`, which stops them
 * when the last project of the run has released them (project teardowns run after every project's set-up).
 */
export async function acquireInfrastructure(): Promise<{ infrastructure: Infrastructure; release: () => Promise<void> }> {
  const shared = (registry[SLOT] ??= { users: 0, ready: findInfrastructure(testInfra()) });
  shared.users += 1;
  const infrastructure = await shared.ready.catch((error: unknown) => {
    shared.users -= 1;
    if (registry[SLOT] === shared) delete registry[SLOT];
    throw error;
  });
  let released = false;
  return {
    infrastructure,
    release: async () => {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      if (registry[SLOT] === shared) delete registry[SLOT];
      await infrastructure.stop();
    },
  };
}
