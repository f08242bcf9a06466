import net from 'node:net';
import { freePort } from './free-port.ts';

/** A port kept for a process of the stack to listen on, until `close()`. */
export interface HeldPort {
  port: number;
  close(): void;
}

/**
 * A port the OS picked (port 0), bound but not listening, for a child to listen on. `freePort()` gives its port
 * back before the child binds it, and anything may take it in between (EADDRINUSE); a port held this way is never
 * handed out again (to a `listen(0)` or an outgoing connection), while the child can still listen on it, since
 * both sockets allow address reuse and only the child's listens. Held until the stack stops, the port stays ours
 * across a restart, and a connection to a dead process is still refused at once.
 */
export async function holdPort(host: string): Promise<HeldPort> {
  // Node before 24.19 (engines allow 22.18) has no BoundSocket: the port is given back at once, the old race.
  if (typeof net.BoundSocket !== 'function') return { port: await freePort(host), close: () => undefined };
  const socket = new net.BoundSocket({ host, port: 0 });
  return { port: socket.address().port, close: () => socket.close() };
}
