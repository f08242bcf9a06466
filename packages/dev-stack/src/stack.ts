// Starts the whole system as separate processes (gateway + six services) from their builds, the way `npm start`
// does; also used by the end-to-end tests, the benchmarks and the OpenAPI snapshot. Build first (`npx turbo run build`).
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { once } from 'node:events';
import { callerAssertionKeys } from './caller-assertion-keys.ts';
import { holdPort, type HeldPort } from './held-port.ts';
import { assertPortsFree, type WantedPort } from './port-check.ts';
import { waitReady } from './readiness.ts';
import { printServiceOutput, type StackOutput } from './service-output.ts';
import { SERVICES } from './services.ts';
import { serviceNodeFlags } from './start-env.ts';
import { stopAll } from './stop-processes.ts';

const ROOT = join(import.meta.dirname, '..', '..', '..');

const urlOf = (port: number) => `http://127.0.0.1:${port}`;

/** One process of the stack. */
export interface StackChild {
  name: string;
  port: number;
  child: ChildProcess;
}

export interface Stack {
  gatewayUrl: string;
  children: StackChild[];
  /** The caller assertion keys of this start: each service's CALLER_ASSERTION_SECRETS (for tests that call a service directly). */
  assertionSecrets: Record<string, string>;
  /** Kills the (first) process of `name` with SIGKILL, as a crash would, and resolves once it has exited; `restart` it after. */
  kill(name: string): Promise<StackChild>;
  /** Starts a child again on its port (after it was killed; with `port: 0` the stack held it) and waits until it is ready. */
  restart(child: StackChild): Promise<StackChild>;
  /** One more gateway on `port`, with some upstream URLs overridden (EVENTS_URL, …); resolves to its URL once ready. */
  startGateway(port: number, upstreams: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** The gateway's port, the services' follow it (default 3000); 0: every process on a port the OS picks, held by the stack. */
  port?: number;
  /** Every process's environment (DATABASE_URL, NATS_URL, NATS_PREFIX… pass through); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** A process's own variables on top of `env`, by service name (its NATS_USER and NATS_PASSWORD). */
  serviceEnv?: Record<string, Record<string, string>>;
  /** N copies of a service (on ports after the base block), balanced by the gateway. */
  replicas?: Record<string, number>;
  output?: StackOutput;
  readyTimeoutMs?: number;
  /** `host:port` of a PgBouncer the services connect through (their migration steps go straight to Postgres). */
  databaseHost?: string;
  /** The variable the caller reads `port` from (PORT, BENCH_PORT, SOAK_PORT), named when a port is taken. */
  portVariable?: string;
}

/** The fixed ports of a stack at `port`: the services' at their offsets, their replicas' from `port + 10` on, the gateway's. */
function stackPorts(port: number, replicas: Record<string, number>): WantedPort[] {
  const wanted: WantedPort[] = [{ port, owner: 'gateway' }];
  let extraPort = port + 10;
  for (const service of SERVICES) {
    wanted.push({ port: port + service.offset, owner: service.name });
    for (let n = 1; n < (replicas[service.name] ?? 1); n += 1)
      wanted.push({ port: extraPort++, owner: `${service.name} replica ${n + 1}` });
  }
  return wanted;
}

/**
 * Spawns every process with `env` and `serviceEnv[name]` on top, waits until each answers /readyz, and returns the
 * gateway URL and a stop function. `port: 0` (tests) puts every process on a port the OS picks and the stack holds
 * until it stops, so nothing else can take it (see held-port.ts).
 */
export async function startStack({
  port = 3000,
  env = process.env,
  serviceEnv = {},
  replicas = {},
  output = 'pretty',
  readyTimeoutMs = 60_000,
  databaseHost,
  portVariable = 'PORT',
}: StackOptions = {}): Promise<Stack> {
  const children: StackChild[] = [];
  const urls: Record<string, string> = {};
  const held: HeldPort[] = [];
  const host = env.HOST ?? '127.0.0.1';
  if (port !== 0) await assertPortsFree(host, port, stackPorts(port, replicas), portVariable);
  const portFor = async (fixedPort: number): Promise<number> => {
    if (port !== 0) return fixedPort;
    const socket = await holdPort(host);
    held.push(socket);
    return socket.port;
  };
  const release = () => held.splice(0).forEach((socket) => socket.close());
  const gatewayPort = await portFor(port);
  // Media URLs and OAuth redirect URIs name the gateway: on another port than 3000, its own address.
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${gatewayPort}`;
  // Fresh caller assertion secrets per start (kept across restarts of one process): each service gets its own, the
  // gateway all of them, so no process needs a key from a file in development.
  const assertionKeys = callerAssertionKeys();
  // Loaded here, once the caller has built the workspaces: `npm start` imports this package before its build.
  const { serviceDatabaseEnv } = await import('@scheduling-shop/testkit');
  const nodeFlags = serviceNodeFlags(env);

  /** A process's database variables: its own role's URL, or nothing when DATABASE_URL is not a superuser's to hand out. */
  const databaseEnv = (name: string): Record<string, string> => {
    // DATABASE_URL is a superuser's: each service connects as its own role, which its migration step creates as
    // that superuser. A DATABASE_MIGRATION_URL given explicitly means the roles are already someone else's business.
    if (!env.DATABASE_URL || env.DATABASE_MIGRATION_URL) return {};
    const database = serviceDatabaseEnv(env.DATABASE_URL, name);
    if (!databaseHost) return database;
    // Through the PgBouncer at `databaseHost`: the service's own connections, not its migration step's.
    const pooled = new URL(database.DATABASE_URL);
    pooled.host = databaseHost;
    return { ...database, DATABASE_URL: pooled.toString() };
  };

  const spawnService = (name: string, servicePort: number, extraEnv: Record<string, string>): StackChild => {
    const keys = name === 'gateway' ? assertionKeys.gateway : (assertionKeys.services[name] ?? {});
    const child = spawn(process.execPath, [...nodeFlags, join(ROOT, 'services', name, 'dist', 'server.js')], {
      env: {
        ...env,
        ...databaseEnv(name),
        ...keys,
        PUBLIC_BASE_URL: publicBaseUrl,
        ...serviceEnv[name],
        ...extraEnv,
        PORT: String(servicePort),
        HOST: host,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    printServiceOutput(name, servicePort, [child.stdout, child.stderr], output);
    const entry = { name, port: servicePort, child };
    children.push(entry);
    return entry;
  };
  const startProcess = async (name: string, processPort: number, extraEnv: Record<string, string>): Promise<StackChild> => {
    const entry = spawnService(name, processPort, extraEnv);
    await waitReady(urlOf(processPort), entry.child, readyTimeoutMs);
    return entry;
  };

  let extraPort = port + 10;
  try {
    for (const service of SERVICES) {
      const count = replicas[service.name] ?? 1;
      const ports = [await portFor(port + service.offset)];
      for (let n = 1; n < count; n += 1) ports.push(await portFor(extraPort++));
      urls[service.urlVar] = ports.map(urlOf).join(',');
      await Promise.all(ports.map((p) => startProcess(service.name, p, {})));
    }
    await startProcess('gateway', gatewayPort, urls);
    return {
      gatewayUrl: urlOf(gatewayPort),
      children,
      assertionSecrets: Object.fromEntries(
        Object.entries(assertionKeys.services).map(([name, secrets]) => [name, secrets.CALLER_ASSERTION_SECRETS]),
      ),
      kill: async (name) => {
        const entry = children.find((candidate) => candidate.name === name);
        if (!entry) throw new Error(`no ${name} process in the stack`);
        if (entry.child.exitCode === null && entry.child.signalCode === null) {
          const exited = once(entry.child, 'exit');
          entry.child.kill('SIGKILL');
          await exited;
        }
        return entry;
      },
      // The gateway's upstream URLs stay right, and with `port: 0` the stack held the port all along.
      restart: async (entry) => {
        const index = children.indexOf(entry);
        if (index >= 0) children.splice(index, 1);
        return startProcess(entry.name, entry.port, entry.name === 'gateway' ? urls : {});
      },
      startGateway: async (otherPort, upstreams) => {
        await startProcess('gateway', otherPort, { ...urls, ...upstreams });
        return urlOf(otherPort);
      },
      stop: async () => {
        await stopAll(children);
        release();
      },
    };
  } catch (error) {
    await stopAll(children);
    release();
    throw error;
  }
}
