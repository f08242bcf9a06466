/**
 * Where the integration tests get Postgres and NATS, from `TEST_INFRA`: `auto` (default) the local servers when
 * reachable, else containers; `local` only the local servers (failing when one is down); `containers` always
 * containers, even when local servers run (CI runs a suite so, to keep the container path working).
 */
export type TestInfra = 'auto' | 'local' | 'containers';

const MODES: readonly TestInfra[] = ['auto', 'local', 'containers'];

export function testInfra(): TestInfra {
  const value = process.env.TEST_INFRA || 'auto';
  if (!(MODES as readonly string[]).includes(value)) {
    throw new Error(`TEST_INFRA=${value} is not one of ${MODES.join(', ')}`);
  }
  return value as TestInfra;
}
