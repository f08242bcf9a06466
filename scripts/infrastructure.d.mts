export type InfraMode = 'auto' | 'local' | 'embedded' | 'containers';

export const INFRA_MODES: readonly InfraMode[];
/** The mode `variable` of `env` asks for (unset or empty: auto); throws for anything else. */
export function infraMode(variable: string, env?: NodeJS.ProcessEnv): InfraMode;
/** NATS_SERVER_BIN, else the first `nats-server` on PATH; undefined when there is none. */
export function findNatsServer(env?: NodeJS.ProcessEnv): string | undefined;
/** The message when no NATS answers, none is on PATH and no container engine answers: the install commands. */
export const MISSING_NATS: string;
export function isReachable(host: string, port: number, ms?: number): Promise<boolean>;

/** A server: where to reach it, one line on where it came from, and (when it is the caller's to stop) how. */
export interface ProvidedServer {
  url: string;
  description: string;
  stop?: () => Promise<void>;
}

export interface ProvideOptions {
  mode: InfraMode;
  /** The local servers probed first: a superuser's URL (maintenance database) and a NATS URL. */
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

export interface ProvidedInfrastructure {
  postgres: ProvidedServer;
  nats: ProvidedServer;
  /** Stops what was started for the caller (the embedded servers, containers with a `stop`), the last first. */
  stop: () => Promise<void>;
}

export function provideInfrastructure(options: ProvideOptions): Promise<ProvidedInfrastructure>;
