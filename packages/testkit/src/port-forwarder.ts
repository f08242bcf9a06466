import net from 'node:net';

/**
 * A loopback port the OS picked (listen on 0) and kept for as long as the test needs it, forwarding each connection
 * to wherever the backend listens now. A server that stops and starts again (on a port of its own choosing each
 * time) keeps one address this way: nothing is ever given back for another process to take in between. While the
 * backend is down, connections are cut and new ones closed at once, as a stopped server's would be refused.
 */
export class PortForwarder {
  private backend: { host: string; port: number } | undefined;
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly server: net.Server) {
    server.on('connection', (client) => this.forward(client));
  }

  static async open(): Promise<PortForwarder> {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    return new PortForwarder(server);
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Forwards new connections to `host:port`. */
  pointAt(host: string, port: number): void {
    this.backend = { host, port };
  }

  /** The backend is gone: open connections are cut, new ones closed at once. */
  cut(): void {
    this.backend = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private forward(client: net.Socket): void {
    if (!this.backend) {
      client.destroy();
      return;
    }
    const upstream = net.connect(this.backend.port, this.backend.host);
    for (const [socket, other] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.sockets.add(socket);
      socket.on('error', () => other.destroy());
      socket.on('close', () => {
        this.sockets.delete(socket);
        other.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
