import { randomBytes } from 'node:crypto';
import type { StartedNetwork, StartedTestContainer } from 'testcontainers';
import { startNatsContainer } from './nats-container.js';
import { serviceDatabaseEnv } from './database-roles.js';
import { PortForwarder } from './port-forwarder.js';
import { startPostgresContainer } from './postgres-container.js';
import { firstLine, startExplained } from './start-errors.js';

/** The services behind the gateway, with the port each listens on inside its container. */
const SERVICES = {
  bookings: { port: 3001, urlVariable: 'BOOKINGS_URL' },
  scheduling: { port: 3002, urlVariable: 'SCHEDULING_URL' },
  catalog: { port: 3003, urlVariable: 'CATALOG_URL' },
  events: { port: 3004, urlVariable: 'EVENTS_URL' },
  'calendar-sync': { port: 3005, urlVariable: 'CALENDAR_SYNC_URL' },
  webhooks: { port: 3006, urlVariable: 'WEBHOOKS_URL' },
} as const;

export type ServiceName = keyof typeof SERVICES | 'gateway';

export interface SystemOptions {
  /**
   * Service images: `${prefix}/<service>:${tag}` (default `scheduling-shop/<service>:latest`, as docker-compose.yml
   * builds them), or one image per service. Postgres and NATS: `postgres` / `nats`, else `POSTGRES_IMAGE` /
   * `NATS_IMAGE`, else the official images.
   */
  images?: { prefix?: string; tag?: string; postgres?: string; nats?: string } & Partial<Record<ServiceName, string>>;
  /** Replicas per service behind the gateway (default 1 each); the gateway balances between them. */
  replicas?: Partial<Record<Exclude<ServiceName, 'gateway'>, number>>;
  /**
   * Extra environment per service, for example provider URLs for calendar-sync
   * (`{ 'calendar-sync': { GOOGLE_API_URL: 'http://host.containers.internal:4010' } }`), or for every one (`all`).
   */
  env?: Partial<Record<ServiceName | 'all', Record<string, string>>>;
  /** The gateway's admin token (default: a random one, returned as `adminToken`). */
  adminToken?: string;
}

export interface StartedSystem {
  /** The gateway as this machine reaches it, e.g. `http://127.0.0.1:49213`. */
  readonly gatewayUrl: string;
  /** Bearer token of `/admin/v1/*`. */
  readonly adminToken: string;
  /** Creates an organization through the admin API; returns its id and first API key. */
  createOrganization(name?: string, timezone?: string): Promise<{ id: string; apiKey: string }>;
  /** Stops every container and removes the network. */
  stop(): Promise<void>;
}

const LISTENING = /"msg":"[a-z-]+ listening"/;

/**
 * The whole system in containers for an outside team's integration tests: Postgres, NATS with JetStream and every
 * service image on one network, with random host ports; only the gateway is reachable from the test.
 */
export async function startSystem(options: SystemOptions = {}): Promise<StartedSystem> {
  const { Network } = await import('testcontainers');
  const network = await new Network().start();
  const started: StartedTestContainer[] = [];
  // The gateway's address, a port held here for the system's life: it is the PUBLIC_BASE_URL the services are started
  // with, before the engine publishes the gateway on a port of its own choosing (forwarded to once it is known).
  const front = await PortForwarder.open();
  const stopAll = async () => {
    await front.close();
    await Promise.allSettled(started.reverse().map((container) => container.stop({ timeout: 5_000 })));
    await network.stop().catch(() => undefined);
  };
  try {
    const [postgres, nats] = await allStarted(started, [
      startPostgresContainer({ network, image: options.images?.postgres }),
      startNatsContainer({ network, image: options.images?.nats }),
    ] as const);

    const adminToken = options.adminToken ?? randomBytes(24).toString('base64url');
    const assertionKeys = callerAssertionKeys();
    const gatewayUrl = `http://127.0.0.1:${front.port}`;
    const common = {
      NODE_ENV: 'production',
      // Production refuses to start with /metrics beside the API: a listener of its own, never published.
      METRICS_PORT: '9464',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'info',
      DATABASE_URL: databaseUrl(postgres.networkUrl, 'scheduling_shop'),
      NATS_URL: nats.networkUrl ?? '',
      PUBLIC_BASE_URL: gatewayUrl,
      CALENDAR_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
      OAUTH_STATE_SECRET: randomBytes(32).toString('base64url'),
      ...options.env?.all,
    };

    const upstreams: Record<string, string> = {};
    const services = Object.entries(SERVICES).flatMap(([name, { port, urlVariable }]) => {
      const count = options.replicas?.[name as keyof typeof SERVICES] ?? 1;
      const aliases = Array.from({ length: count }, (_, i) => `${name}-${i}`);
      upstreams[urlVariable] = aliases.map((alias) => `http://${alias}:${port}`).join(',');
      // Each service connects as its own Postgres role; its migration step, as the superuser, creates it.
      const database = serviceDatabaseEnv(common.DATABASE_URL, name, randomBytes(18).toString('base64url'));
      const secrets = assertionKeys.services[name] ?? {};
      return aliases.map((alias) => ({
        name: name as ServiceName,
        alias,
        env: { ...common, ...database, ...secrets, PORT: String(port) },
      }));
    });
    // One at a time is not needed: migrations queue behind an advisory lock, so services start together.
    await allStarted(
      started,
      services.map((service) =>
        startService(network, imageOf(service.name, options), service.alias, { ...service.env, ...options.env?.[service.name] }),
      ),
    );
    const gateway = await startService(
      network,
      imageOf('gateway', options),
      'gateway',
      {
        ...common,
        ...serviceDatabaseEnv(common.DATABASE_URL, 'gateway', randomBytes(18).toString('base64url')),
        ...upstreams,
        PORT: '3000',
        ADMIN_TOKEN: adminToken,
        ...assertionKeys.gateway,
        ...options.env?.gateway,
      },
      true,
    );
    started.push(gateway);
    front.pointAt(gateway.getHost(), gateway.getMappedPort(3000));

    return {
      gatewayUrl,
      adminToken,
      async createOrganization(name = 'Test organization', timezone = 'UTC') {
        const response = await fetch(`${gatewayUrl}/admin/v1/organizations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name, timezone }),
        });
        if (response.status !== 201) throw new Error(`creating an organization answered ${response.status}: ${await response.text()}`);
        const { data } = (await response.json()) as { data: { id: string; api_key: string } };
        return { id: data.id, apiKey: data.api_key };
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** The services' database on the Postgres container, as the other containers of the network reach it. */
function databaseUrl(networkUrl: string | undefined, database: string): string {
  if (!networkUrl) throw new Error('the Postgres container of a system is on its network');
  const url = new URL(networkUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

function imageOf(service: ServiceName, options: SystemOptions): string {
  return options.images?.[service] ?? `${options.images?.prefix ?? 'scheduling-shop'}/${service}:${options.images?.tag ?? 'latest'}`;
}

async function startService(
  network: StartedNetwork,
  image: string,
  alias: string,
  env: Record<string, string>,
  published = false,
): Promise<StartedTestContainer> {
  const howToGet = 'Build the service images first: `npm run images` (or `docker compose build`), or name others in `images`.';
  return startExplained(
    alias,
    image,
    async () => {
      const { GenericContainer, Wait } = await import('testcontainers');
      // The last lines the service logged: when it exits before listening, they say why.
      const tail: string[] = [];
      const container = new GenericContainer(image)
        .withNetwork(network)
        .withNetworkAliases(alias)
        .withEnvironment(env)
        .withLogConsumer((stream) =>
          stream.on('data', (line: Buffer | string) => {
            tail.push(String(line).trimEnd().slice(0, 500));
            if (tail.length > 12) tail.shift();
          }),
        )
        .withWaitStrategy(Wait.forLogMessage(LISTENING))
        .withStartupTimeout(120_000);
      if (published) container.withExposedPorts(Number(env.PORT));
      return container.start().catch((error: unknown) => {
        throw new Error(`${firstLine(error)}\nits last log lines:\n${tail.join('\n')}`, { cause: error });
      });
    },
    howToGet,
  );
}

/**
 * Waits for every start, even after one has failed, and records each container that did start in `started`, so a
 * failed system start stops all of them (Promise.all would leave the slower ones running unseen).
 */
async function allStarted<
  T extends readonly Promise<StartedTestContainer | { container: StartedTestContainer; networkUrl: string | undefined }>[],
>(started: StartedTestContainer[], starts: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(starts);
  for (const result of results) {
    if (result.status === 'fulfilled') started.push('networkUrl' in result.value ? result.value.container : result.value);
  }
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}

/**
 * Fresh caller assertion secrets per system, one per service: each service verifies with its own, the gateway mints
 * with all of them.
 */
function callerAssertionKeys() {
  const keyId = `testkit-${randomBytes(4).toString('hex')}`;
  const keys = Object.fromEntries(
    Object.keys(SERVICES).map((name) => [name, { kid: keyId, secret: randomBytes(32).toString('base64url') }]),
  );
  return {
    gateway: { CALLER_ASSERTION_SIGNING_KEYS: JSON.stringify(keys) },
    services: Object.fromEntries(
      Object.entries(keys).map(([name, { kid, secret }]) => [name, { CALLER_ASSERTION_SECRETS: JSON.stringify({ [kid]: secret }) }]),
    ) as Record<string, Record<string, string>>,
  };
}
