import { PortForwarder, startNatsContainer } from '@scheduling-shop/testkit';
import { NatsBinary } from './nats-binary.js';
import { testInfra } from './test-infra.js';

/** What an OwnNatsServer runs on: the nats-server binary, or a NATS container (testkit's StartedNats). */
interface RestartableNats {
  /** Where it listens now (may change with every start). */
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A NATS server of the test's own (JetStream on, its own store), for tests that stop and restart NATS without
 * touching the shared one. With TEST_INFRA=containers it is a NATS container, stopped and started again; otherwise
 * the `nats-server` binary (Debian package nats-server, or NATS_SERVER_BIN). Clients use one address for its whole
 * life: a port the OS gave the test and the test keeps, forwarded to wherever the server listens after each start.
 */
export class OwnNatsServer {
  private constructor(
    private readonly forwarder: PortForwarder,
    private readonly server: RestartableNats,
  ) {}

  static async start(): Promise<OwnNatsServer> {
    const forwarder = await PortForwarder.open();
    try {
      const server = testInfra() === 'containers' ? await startNatsContainer() : await startedBinary();
      const own = new OwnNatsServer(forwarder, server);
      own.forward();
      return own;
    } catch (error) {
      await forwarder.close();
      throw error;
    }
  }

  get port(): number {
    return this.forwarder.port;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.forwarder.port}`;
  }

  /** Starts again on the same store, so streams and their messages survive a stop; the URL stays the same. */
  async resume(): Promise<void> {
    await this.server.start();
    this.forward();
  }

  /** Stops the server: its clients are cut off at once and cannot connect until `resume`. */
  async stop(): Promise<void> {
    this.forwarder.cut();
    await this.server.stop();
  }

  async destroy(): Promise<void> {
    await this.forwarder.close();
    await this.server.remove();
  }

  private forward(): void {
    const { hostname, port } = new URL(this.server.url);
    this.forwarder.pointAt(hostname, Number(port));
  }
}

async function startedBinary(): Promise<NatsBinary> {
  const binary = new NatsBinary();
  await binary.start();
  return binary;
}
