import net from 'node:net';

/**
 * Connects to host:port and lets `judge` decide from the socket's events; an error, a close or no decision within
 * `ms` is false. The socket is closed either way.
 */
export function tcpProbe(
  host: string,
  port: number,
  ms: number,
  judge: (socket: net.Socket, done: (ok: boolean) => void) => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
    judge(socket, done);
  });
}

/** True when something accepts TCP connections at host:port within `ms`. */
export function isReachable(host: string, port: number, ms = 1000): Promise<boolean> {
  return tcpProbe(host, port, ms, (socket, done) => socket.once('connect', () => done(true)));
}
