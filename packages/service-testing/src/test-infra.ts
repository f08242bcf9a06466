/**
 * Where the integration tests get Postgres and NATS, from `TEST_INFRA` (the choice `npm start` makes with
 * START_INFRA, scripts/infrastructure.mjs): `auto` (default) the local servers when reachable, else an embedded
 * Postgres and a nats-server child process, else containers; `local` only the local servers (failing when one is
 * down); `embedded` the embedded Postgres and a nats-server from PATH, even where local servers run; `containers`
 * always containers (CI runs suites so with each of the last two, to keep those paths working).
 */
export type TestInfra = 'auto' | 'local' | 'embedded' | 'containers';

const MODES: readonly TestInfra[] = ['auto', 'local', 'embedded', 'containers'];

export function testInfra(): TestInfra {
  const value = process.env.TEST_INFRA || 'auto';
  if (!(MODES as readonly string[]).includes(value)) {
    throw new Error(`TEST_INFRA=${value} is not one of ${MODES.join(', ')}`);
  }
  return value as TestInfra;
}
