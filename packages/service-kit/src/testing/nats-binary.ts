import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForNats } from '@app/testkit';

/** A nats-server process (JetStream on, its own port and store) that can be stopped and started again. */
export class NatsBinary {
  private process: ChildProcess | undefined;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'nats-test-'));

  constructor(readonly port: number) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and store, so streams and their messages survive a stop. */
  async start(): Promise<void> {
    const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
    this.process = spawn(binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], { stdio: 'ignore' });
    const spawned = this.process;
    const failed = new Promise<never>((_, reject) =>
      spawned.once('error', (error) => reject(new Error(`cannot run ${binary}: ${error.message}`))),
    );
    // Ready when it greets with INFO, as the NATS container is judged; a missing binary fails at once instead.
    const ready = waitForNats('127.0.0.1', this.port, 10_000);
    ready.catch(() => undefined); // when the spawn failed first, the wait's own timeout is nobody's business
    await Promise.race([ready, failed]);
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.storeDir, { recursive: true, force: true });
  }
}
