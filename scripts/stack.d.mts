import type { ChildProcess } from 'node:child_process';

export interface StackChild {
  name: string;
  port: number;
  child: ChildProcess;
}

export interface Stack {
  gatewayUrl: string;
  children: StackChild[];
  /** Starts a child again on its port (after it was killed; with `port: 0` the stack held it) and waits until it is ready. */
  restart(child: StackChild): Promise<StackChild>;
  /** One more gateway on `port`, with some upstream URLs overridden (EVENTS_URL, …); resolves to its URL once ready. */
  startGateway(port: number, upstreams: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

export const SERVICES: { name: string; offset: number; urlVar: string }[];
/** `SERVICE_NODE_FLAGS` of `env` (unset or empty: `--single-threaded-gc --no-allocation-site-pretenuring`) as command-line arguments. */
export function serviceNodeFlags(env?: NodeJS.ProcessEnv): string[];
export function formatLogLine(line: string): string;
/** Which of the given servers (undefined: not checked) is unreachable, and what to do; null when all answer. */
export function checkInfrastructure(databaseUrl: string | undefined, natsUrl: string | undefined): Promise<string | null>;
export function startStack(options?: {
  /** The gateway's port, the services' follow it (default 3000); 0: every process on a port the OS picks, held by the stack. */
  port?: number;
  env?: NodeJS.ProcessEnv;
  /** A process's own variables on top of `env`, by service name (its NATS_USER and NATS_PASSWORD). */
  serviceEnv?: Record<string, Record<string, string>>;
  replicas?: Record<string, number>;
  output?: 'pretty' | 'errors' | 'none';
  readyTimeoutMs?: number;
  /** `host:port` of a PgBouncer the services connect through (their migration steps go straight to Postgres). */
  databaseHost?: string;
}): Promise<Stack>;
export function stopAll(children: StackChild[]): Promise<void>;
export function recreateDatabase(url: string): Promise<void>;
export function dropDatabase(url: string): Promise<void>;
export function deleteStreams(natsUrl: string, prefix: string): Promise<void>;
