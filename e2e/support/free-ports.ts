import { createServer } from 'node:net';

/** Whether `port` can be listened on now. */
function canListen(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The first of `count` consecutive ports free now, for a process that cannot listen on port 0 and report its port
 * (PgBouncer, the bench's bare stack). Below Linux's ephemeral range (32768 and up), so no connection another test
 * opens meanwhile, and no server on port 0, can be given it before that process binds it: a pick inside that range
 * once found its port taken by then (EADDRINUSE in CI).
 */
export async function freePorts(count = 1): Promise<number> {
  for (;;) {
    const first = 20_000 + Math.floor(Math.random() * 12_000);
    let free = true;
    for (let port = first; free && port < first + count; port++) free = await canListen(port);
    if (free) return first;
  }
}
