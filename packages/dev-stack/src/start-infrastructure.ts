import { resolve } from 'node:path';
import { checkInfrastructure } from './infrastructure-check.ts';
import { infraMode } from './infra-mode.ts';
import { provideInfrastructure } from './provide-infrastructure.ts';
import { readStartEnv } from './start-env.ts';

/** `npm start`'s Postgres and NATS: the URLs the stack gets, a line each on where they came from, and how to stop them. */
export interface StartInfrastructure {
  databaseUrl: string;
  natsUrl: string;
  postgres: string;
  nats: string;
  /** Stops what was started for this run (the embedded servers); kept containers and given servers stay. */
  stop: () => Promise<void>;
}

export interface StartInfrastructureOptions {
  /** The checkout: START_DATA_DIR is relative to it, and the descriptions name folders from it. */
  root: string;
  /** The database the stack uses on the chosen server. */
  database: string;
  env?: NodeJS.ProcessEnv;
  /** Runs before the first question to a container engine: the kept containers come from @scheduling-shop/testkit's build. */
  beforeContainers?: () => void;
}

/**
 * DATABASE_URL and NATS_URL as given (checked to answer: nothing embedded ever starts for them, as in production);
 * what is unset comes from START_INFRA's choice: the local servers, else embedded ones with their data in
 * START_DATA_DIR, else the kept containers `scheduling-shop-postgres` / `scheduling-shop-nats`.
 */
export async function chooseStartInfrastructure({
  root,
  database,
  env = process.env,
  beforeContainers = () => undefined,
}: StartInfrastructureOptions): Promise<StartInfrastructure> {
  const given = { postgres: env.DATABASE_URL || undefined, nats: env.NATS_URL || undefined };
  const problem = await checkInfrastructure(given.postgres, given.nats);
  if (problem) throw new Error(problem);
  if (given.postgres && given.nats) {
    return { databaseUrl: given.postgres, natsUrl: given.nats, postgres: 'DATABASE_URL', nats: 'NATS_URL', stop: async () => undefined };
  }
  const testkit = async () => {
    beforeContainers();
    return import('@scheduling-shop/testkit');
  };
  const mode = infraMode('START_INFRA', env);
  const found = await provideInfrastructure({
    mode,
    local: { postgresUrl: `postgres://postgres@127.0.0.1:5432/${database}`, natsUrl: 'nats://127.0.0.1:4222' },
    dataDir: resolve(root, readStartEnv(env).START_DATA_DIR),
    root,
    env,
    skip: { postgres: Boolean(given.postgres), nats: Boolean(given.nats) },
    containers: {
      available: async () => (await testkit()).containerEngineAnswers(),
      postgres: async () => (await testkit()).keptPostgresContainer(),
      nats: async () => (await testkit()).keptNatsContainer(),
    },
  });
  const postgres = given.postgres ? { url: given.postgres, description: 'DATABASE_URL' } : required(found.postgres, 'PostgreSQL');
  const nats = given.nats ? { url: given.nats, description: 'NATS_URL' } : required(found.nats, 'NATS');
  return {
    databaseUrl: given.postgres ?? withDatabase(postgres.url, database),
    natsUrl: nats.url,
    postgres: postgres.description,
    nats: nats.description,
    stop: found.stop,
  };
}

/** A server that was not skipped: provideInfrastructure returns one or throws. */
function required<Server>(server: Server | undefined, name: string): Server {
  if (!server) throw new Error(`no ${name} was provided`);
  return server;
}

/** The same server's URL, naming `database` instead of the maintenance database. */
function withDatabase(url: string, database: string): string {
  const own = new URL(url);
  own.pathname = `/${database}`;
  return own.toString();
}
