import { tcpProbe } from './tcp-probe.js';

/**
 * True once a NATS server greets at host:port with its INFO line. A bare TCP connect is not enough: an engine's
 * port forwarder accepts connections before (and without) the server behind it.
 */
function natsGreets(host: string, port: number, ms = 1000): Promise<boolean> {
  return tcpProbe(host, port, ms, (socket, done) => socket.once('data', (data) => done(data.toString('utf8').startsWith('INFO '))));
}

/** Waits until `natsGreets`, or fails after `timeoutMs`. */
export async function waitForNats(host: string, port: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await natsGreets(host, port, 500))) {
    if (Date.now() > deadline) throw new Error(`NATS did not answer on ${host}:${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
