import net from 'node:net';

/** Host and port of a `postgres://` or `nats://` URL, with the server's default port where it names none. */
export function serverAddress(url: string): { host: string; port: number } {
  // A cluster's NATS_URL lists several servers: the first answers for them.
  const first = url.split(',')[0]!.trim();
  const parsed = new URL(first.replace(/^nats:/, 'http:'));
  return { host: parsed.hostname, port: Number(parsed.port || (first.startsWith('nats:') ? 4222 : 5432)) };
}

/** Whether the server of a `postgres://` or `nats://` URL accepts connections. */
export function serverReachable(url: string): Promise<boolean> {
  const { host, port } = serverAddress(url);
  return isReachable(host, port);
}

/**
 * True when something accepts TCP connections at host:port within `ms`. @scheduling-shop/testkit has the same probe, but `npm start`
 * asks this before anything is built, and the test kit is imported from its build: so the stack keeps its own.
 */
function isReachable(host: string, port: number, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
