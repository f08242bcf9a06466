// Starts the whole system as separate processes (gateway + six services), the way `npm start` does;
// also used by the end-to-end tests and the benchmarks. Build first (`npx turbo run build`).
import { spawn } from 'node:child_process';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { callerAssertionKeys } from './caller-assertion-keys.mjs';
import { isReachable } from './infrastructure.mjs';
import { readStartEnv } from './script-env.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Services in start order, with their port offset from the gateway port. */
export const SERVICES = [
  { name: 'scheduling', offset: 2, urlVar: 'SCHEDULING_URL' },
  { name: 'events', offset: 4, urlVar: 'EVENTS_URL' },
  { name: 'bookings', offset: 1, urlVar: 'BOOKINGS_URL' },
  { name: 'catalog', offset: 3, urlVar: 'CATALOG_URL' },
  { name: 'calendar-sync', offset: 5, urlVar: 'CALENDAR_SYNC_URL' },
  { name: 'webhooks', offset: 6, urlVar: 'WEBHOOKS_URL' },
];

/** The V8 flags of `env` (SERVICE_NODE_FLAGS, documented in script-env.mjs) as arguments of each service's `node`. */
export function serviceNodeFlags(env = process.env) {
  return readStartEnv(env).SERVICE_NODE_FLAGS.split(/\s+/).filter(Boolean);
}

const COLORS = { gateway: 36, bookings: 33, scheduling: 32, catalog: 35, events: 34, 'calendar-sync': 31, webhooks: 91 };
const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** One readable line from a pino JSON line: time, level, message, request id and the interesting fields. */
export function formatLogLine(line) {
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  const { time, level, msg, request_id: requestId, service: _service, err, method, url, status, ms, ...rest } = entry;
  const parts = [String(time ?? '').slice(11, 19), (LEVELS[level] ?? level).padEnd(5), msg];
  if (method) parts.push(`${method} ${url} ${status} ${ms}ms`);
  if (requestId) parts.push(`req=${String(requestId).slice(0, 8)}`);
  const extra = Object.keys(rest).length ? JSON.stringify(rest) : '';
  if (extra && !method) parts.push(extra);
  if (err) parts.push(`\n    ${err.type}: ${err.message}${err.stack ? `\n${err.stack.split('\n').slice(1, 4).join('\n')}` : ''}`);
  return parts.join(' ');
}

/**
 * Says which of the given Postgres and NATS (either may be undefined: not given, nothing to check) is unreachable;
 * null when each given one answers.
 */
export async function checkInfrastructure(databaseUrl, natsUrl) {
  const problems = [];
  if (databaseUrl) {
    const db = new URL(databaseUrl);
    if (!(await isReachable(db.hostname, Number(db.port || 5432)))) {
      problems.push(
        `PostgreSQL is not reachable at ${db.hostname}:${db.port || 5432} (DATABASE_URL).\n  Start that server, or unset DATABASE_URL: npm start then uses a local one or starts its own (START_INFRA).`,
      );
    }
  }
  if (natsUrl) {
    const nats = new URL(natsUrl.replace(/^nats:/, 'http:'));
    if (!(await isReachable(nats.hostname, Number(nats.port || 4222)))) {
      problems.push(
        `NATS is not reachable at ${nats.hostname}:${nats.port || 4222} (NATS_URL).\n  Start that server (with JetStream: nats-server -js), or unset NATS_URL: npm start then uses a local one or starts its own (START_INFRA).`,
      );
    }
  }
  return problems.length ? problems.join('\n') : null;
}

async function waitReady(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}

/**
 * Spawns every process with `env` (DATABASE_URL, NATS_URL, NATS_PREFIX… pass through) and `serviceEnv[name]` on top
 * (one process's own: its NATS_USER and NATS_PASSWORD), waits until each
 * answers /readyz, and returns the gateway URL and a stop function. `replicas` runs N copies of a service
 * (ports after the base block), balanced by the gateway. `port: 0` (tests) puts every process on a port the OS
 * picks and the stack holds until it stops, so nothing else can take it (see `holdPort`). `databaseHost`
 * (`host:port`) sends the services' own connections there (a PgBouncer), their migration steps still straight to Postgres.
 */
export async function startStack({
  port = 3000,
  env = process.env,
  serviceEnv = {},
  replicas = {},
  output = 'pretty',
  readyTimeoutMs = 60_000,
  databaseHost,
} = {}) {
  const children = [];
  const urls = {};
  const held = [];
  const portFor = async (fixedPort) => {
    if (port !== 0) return fixedPort;
    const socket = await holdPort(env.HOST ?? '127.0.0.1');
    held.push(socket);
    return socket.address().port;
  };
  const release = () => held.splice(0).forEach((socket) => socket.close());
  const gatewayPort = await portFor(port);
  // Media URLs and OAuth redirect URIs name the gateway: on another port than 3000, its own address.
  const publicBaseUrl = env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${gatewayPort}`;
  // A fresh caller assertion key pair per start (kept across restarts of one process): the gateway gets the
  // private key, the services the public one, so no process needs a key from a file in development.
  const assertionKeys = callerAssertionKeys();
  // Loaded here, once the caller has built the workspaces: `npm start` imports this file before its build.
  const { serviceDatabaseEnv } = await import('@app/testkit');
  const nodeFlags = serviceNodeFlags(env);
  const spawnService = (name, servicePort, extraEnv) => {
    const keys = name === 'gateway' ? assertionKeys.gateway : assertionKeys.services;
    // DATABASE_URL is a superuser's: each service connects as its own role, which its migration step creates as
    // that superuser. A DATABASE_MIGRATION_URL given explicitly means the roles are already someone else's business.
    const database = env.DATABASE_URL && !env.DATABASE_MIGRATION_URL ? serviceDatabaseEnv(env.DATABASE_URL, name) : {};
    // `databaseHost` (host:port of a PgBouncer): the services connect through it, their migration steps directly.
    if (databaseHost && database.DATABASE_URL) {
      const pooled = new URL(database.DATABASE_URL);
      pooled.host = databaseHost;
      database.DATABASE_URL = pooled.toString();
    }
    const child = spawn(process.execPath, [...nodeFlags, join(ROOT, 'services', name, 'dist', 'server.js')], {
      env: {
        ...env,
        ...database,
        ...keys,
        PUBLIC_BASE_URL: publicBaseUrl,
        ...serviceEnv[name],
        ...extraEnv,
        PORT: String(servicePort),
        HOST: env.HOST ?? '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const label = `\x1b[${COLORS[name] ?? 37}m[${name}${servicePort ? `:${servicePort}` : ''}]\x1b[0m`;
    for (const stream of [child.stdout, child.stderr]) {
      const lines = createInterface({ input: stream });
      lines.on('line', (line) => {
        if (output === 'pretty') console.log(`${label} ${formatLogLine(line)}`);
        // Quiet mode still shows errors and anything that is not a log line (a startup failure).
        else if (output === 'errors' && (/"level":(5|6)0/.test(line) || !line.startsWith('{')))
          console.error(`${label} ${formatLogLine(line)}`);
      });
    }
    children.push({ name, port: servicePort, child });
    return child;
  };

  let extraPort = port + 10;
  try {
    for (const service of SERVICES) {
      const count = replicas[service.name] ?? 1;
      const ports = [await portFor(port + service.offset)];
      for (let n = 1; n < count; n += 1) ports.push(await portFor(extraPort++));
      urls[service.urlVar] = ports.map((p) => `http://127.0.0.1:${p}`).join(',');
      await Promise.all(ports.map((p) => waitReady(`http://127.0.0.1:${p}`, spawnService(service.name, p, {}), readyTimeoutMs)));
    }
    const gateway = spawnService('gateway', gatewayPort, urls);
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    await waitReady(gatewayUrl, gateway, readyTimeoutMs);
    /**
     * Starts a process again on its port after it died or was killed (fault tests): the gateway's upstream URLs
     * stay right, and with `port: 0` the stack held the port all along, so it is still free for the new process.
     */
    const restart = async (entry) => {
      const index = children.indexOf(entry);
      if (index >= 0) children.splice(index, 1);
      const child = spawnService(entry.name, entry.port, entry.name === 'gateway' ? urls : {});
      await waitReady(`http://127.0.0.1:${entry.port}`, child, readyTimeoutMs);
      return children[children.length - 1];
    };
    /** One more gateway on `gatewayPort`, its upstream URLs overridden (the bench puts its bare service behind one). */
    const startGateway = async (gatewayPort, upstreams) => {
      const child = spawnService('gateway', gatewayPort, { ...urls, ...upstreams });
      await waitReady(`http://127.0.0.1:${gatewayPort}`, child, readyTimeoutMs);
      return `http://127.0.0.1:${gatewayPort}`;
    };
    const stop = async () => {
      await stopAll(children);
      release();
    };
    return { gatewayUrl, children, restart, startGateway, stop };
  } catch (error) {
    await stopAll(children);
    release();
    throw error;
  }
}

/**
 * A port the OS picked (port 0), bound but not listening, for a child to listen on. `freePort()` gives its port
 * back before the child binds it, and anything may take it in between (EADDRINUSE); a port held this way is never
 * handed out again (to a `listen(0)` or an outgoing connection), while the child can still listen on it, since
 * both sockets allow address reuse and only the child's listens. Held until the stack stops, the port stays ours
 * across a restart, and a connection to a dead process is still refused at once.
 */
async function holdPort(host) {
  if (typeof net.BoundSocket === 'function') return new net.BoundSocket({ host, port: 0 });
  // Node before 24.19 (engines allow 22.18) has no BoundSocket: the port is given back at once, the old race.
  const port = await new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, host, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
  return { address: () => ({ port }), close: () => undefined };
}

/** SIGTERM to every process (graceful: stop accepting, drain, close NATS and the pool), SIGKILL after 10 s. */
export async function stopAll(children) {
  await Promise.all(
    children.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Drops and creates the database of `url` (benchmarks and soak runs start from nothing). */
export async function recreateDatabase(url) {
  await onServer(url, async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
}

/** Drops the database of `url` (a run whose data is too big to leave behind). */
export async function dropDatabase(url) {
  await onServer(url, (client, name) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

/** Runs `work` on a connection to the server's `postgres` database, given the name of `url`'s. */
async function onServer(url, work) {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await work(client, name);
  } finally {
    await client.end();
  }
}

/** Deletes the JetStream streams of a NATS prefix (a benchmark or soak run leaves nothing behind). */
export async function deleteStreams(natsUrl, prefix) {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await jetstreamManager(nc);
    for await (const stream of jsm.streams.list()) {
      if (stream.config.name.startsWith(`${prefix}_`)) await jsm.streams.delete(stream.config.name);
    }
  } finally {
    await nc.close();
  }
}
