import { freePort, startNatsContainer } from '@app/testkit';
import { NatsBinary } from './nats-binary.js';
import { testInfra } from './test-infra.js';

export { freePort };

/** What an OwnNatsServer runs on: the nats-server binary, or a NATS container (testkit's StartedNats). */
interface RestartableNats {
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  remove(): Promise<void>;
}

/**
 * A NATS server of the test's own (JetStream on, its own port and store), for tests that stop and restart NATS
 * without touching the shared one. With TEST_INFRA=containers it is a NATS container, stopped and started again;
 * otherwise the `nats-server` binary (Debian package nats-server, or NATS_SERVER_BIN).
 */
export class OwnNatsServer {
  private constructor(
    readonly port: number,
    private readonly server: RestartableNats,
  ) {}

  static async start(): Promise<OwnNatsServer> {
    const port = await freePort();
    if (testInfra() === 'containers') return new OwnNatsServer(port, await startNatsContainer({ hostPort: port }));
    const binary = new NatsBinary(port);
    await binary.start();
    return new OwnNatsServer(port, binary);
  }

  get url(): string {
    return this.server.url;
  }

  /** Starts again on the same port and store, so streams and their messages survive a stop. */
  resume(): Promise<void> {
    return this.server.start();
  }

  stop(): Promise<void> {
    return this.server.stop();
  }

  destroy(): Promise<void> {
    return this.server.remove();
  }
}
