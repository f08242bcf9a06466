import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isReachable } from './reachability.js';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A nats-server of the test's own (JetStream on, its own port and store), for tests that stop and
 * restart NATS without touching the shared one. Needs the `nats-server` binary (Debian package nats-server).
 */
export class OwnNatsServer {
  private process: ChildProcess | undefined;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'nats-test-'));

  private constructor(readonly port: number) {}

  static async start(): Promise<OwnNatsServer> {
    const server = new OwnNatsServer(await freePort());
    await server.resume();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and store, so streams and their messages survive a stop. */
  async resume(): Promise<void> {
    const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
    this.process = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: 'ignore' });
    const spawned = this.process;
    const failed = new Promise<never>((_, reject) =>
      spawned.once('error', (error) => reject(new Error(`cannot run ${binary}: ${error.message}`))),
    );
    const deadline = Date.now() + 10_000;
    while (!(await Promise.race([isReachable('127.0.0.1', this.port, 200), failed]))) {
      if (Date.now() > deadline) throw new Error(`nats-server did not start on port ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }

  async destroy(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
