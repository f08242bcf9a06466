import { serverAddress, serverReachable } from './reachable.ts';

/**
 * Says which of the given Postgres and NATS (either may be undefined: not given, nothing to check) is unreachable,
 * and what to do; null when each given one answers.
 */
export async function checkInfrastructure(databaseUrl: string | undefined, natsUrl: string | undefined): Promise<string | null> {
  const problems: string[] = [];
  if (databaseUrl && !(await serverReachable(databaseUrl))) {
    const { host, port } = serverAddress(databaseUrl);
    problems.push(
      `PostgreSQL is not reachable at ${host}:${port} (DATABASE_URL).\n  Start that server, or unset DATABASE_URL: npm start then uses a local one or starts its own (START_INFRA).`,
    );
  }
  if (natsUrl && !(await serverReachable(natsUrl))) {
    const { host, port } = serverAddress(natsUrl);
    problems.push(
      `NATS is not reachable at ${host}:${port} (NATS_URL).\n  Start that server (with JetStream: nats-server -js), or unset NATS_URL: npm start then uses a local one or starts its own (START_INFRA).`,
    );
  }
  return problems.length ? problems.join('\n') : null;
}
