import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The nats-server to run: NATS_SERVER_BIN, else the first `nats-server` on PATH; undefined when there is none. */
export function findNatsServer(env: NodeJS.ProcessEnv = process.env): string | undefined {
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
