// What the stack and its embedded servers' process (servers-process.ts) say to each other over IPC: the parent sends
// one request, the process answers once with its servers or an error, and stops everything and exits on `{ stop: true }`,
// SIGTERM or a disconnect.

/** The process's own file, as its command line names it (another npm start's process is told apart by it). */
export const SERVERS_PROCESS_FILE = 'servers-process.ts';

export interface EmbeddedRequest {
  /** The folder of both servers' data and logs. */
  dataDir: string;
  postgres: boolean;
  nats: { binary: string } | undefined;
}

export interface EmbeddedPostgresReady {
  port: number;
  /** The superuser `postgres`'s, kept in `dataDir/postgres-password`. */
  password: string;
  version: string;
}

export interface EmbeddedNatsReady {
  port: number;
  version: string;
}

export interface EmbeddedReady {
  postgres: EmbeddedPostgresReady | undefined;
  nats: EmbeddedNatsReady | undefined;
}

export type EmbeddedAnswer = { ready: EmbeddedReady } | { error: string };

export interface EmbeddedStop {
  stop: true;
}
