import { infraMode, type InfraMode } from '@app/dev-stack';

/**
 * Where the integration tests get Postgres and NATS, from `TEST_INFRA` (the choice `npm start` makes with
 * START_INFRA, @app/dev-stack): `auto` (default) the local servers when reachable, else an embedded
 * Postgres and a nats-server child process, else containers; `local` only the local servers (failing when one is
 * down); `embedded` the embedded Postgres and a nats-server from PATH, even where local servers run; `containers`
 * always containers (CI runs suites so with each of the last two, to keep those paths working).
 */
export type TestInfra = InfraMode;

export function testInfra(): TestInfra {
  return infraMode('TEST_INFRA');
}
