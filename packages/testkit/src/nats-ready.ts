import net from 'node:net';

/**
 * True once a NATS server greets at host:port with its INFO line. A bare TCP connect is not enough: an engine's
 * port forwarder accepts connections before (and without) the server behind it.
 */
function natsGreets(host: string, port: number, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('data', (data) => done(data.toString('utf8').startsWith('INFO ')));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

/** Waits until `natsGreets`, or fails after `timeoutMs`. */
export async function waitForNats(host: string, port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await natsGreets(host, port, 500))) {
    if (Date.now() > deadline) throw new Error(`NATS did not answer on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
