import { connect } from 'node:net';

export interface SlowClientResult {
  /** Everything the server sent before it closed the connection. */
  response: string;
  /** How long after the first byte the server closed the connection. */
  closedAfterMs: number;
}

/**
 * A client that sends `head` (request line and headers, or a part of them) and then trickles one byte of `trickle`
 * every `everyMs`, as a slow-loris attack does, until the server closes the connection or `giveUpMs` passes.
 */
export function trickleRequest(url: string, head: string, options: { trickle?: string; everyMs?: number; giveUpMs?: number } = {}) {
  const { hostname, port } = new URL(url);
  const trickle = options.trickle ?? 'x'.repeat(10_000);
  return new Promise<SlowClientResult>((resolve, reject) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.write(head));
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle.charAt(sent++));
    }, options.everyMs ?? 50);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${options.giveUpMs ?? 10_000} ms`));
    }, options.giveUpMs ?? 10_000);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer is a close too
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ response: Buffer.concat(chunks).toString('utf8'), closedAfterMs: Date.now() - started });
    });
  });
}
