import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitForNats } from '@scheduling-shop/testkit';

const LISTENING = /Listening for client connections on [^\s]*:(\d+)/;

/**
 * A nats-server process (JetStream on, its own store) that can be stopped and started again. Each start lets the
 * server pick its port (`-p -1`) and reads it from the server's log line, so no port is chosen and given back first.
 */
export class NatsBinary {
  private process: ChildProcess | undefined;
  private readonly storeDir = mkdtempSync(join(tmpdir(), 'nats-test-'));
  private currentPort: number | undefined;

  /** `config`: a nats-server configuration file's text (an `authorization` block), read with `-c`. */
  constructor(private readonly config?: string) {}

  /** The port of the running server (a new one after every start). */
  get port(): number {
    if (this.currentPort === undefined) throw new Error('nats-server is not started');
    return this.currentPort;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same store, so streams and their messages survive a stop. */
  async start(): Promise<void> {
    const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
    const args = ['-a', '127.0.0.1', '-p', '-1', '-js', '-sd', this.storeDir];
    if (this.config !== undefined) {
      const file = join(this.storeDir, 'server.conf');
      writeFileSync(file, this.config, { mode: 0o600 });
      args.unshift('-c', file);
    }
    const spawned = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.process = spawned;
    const port = await new Promise<number>((resolve, reject) => {
      let log = '';
      const timer = setTimeout(() => reject(new Error(`${binary} did not report its port in time:\n${log}`)), 10_000);
      const settle = (action: () => void) => {
        clearTimeout(timer);
        spawned.stderr.off('data', onData);
        // The server keeps logging: its output is read (and dropped) so the pipe never fills up and blocks it.
        spawned.stderr.resume();
        action();
      };
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        const match = LISTENING.exec(log);
        if (match) settle(() => resolve(Number(match[1])));
      };
      spawned.stderr.on('data', onData);
      spawned.once('error', (error) => settle(() => reject(new Error(`cannot run ${binary}: ${error.message}`))));
      spawned.once('exit', (code) => settle(() => reject(new Error(`${binary} exited (${code}) before listening:\n${log}`))));
    });
    this.currentPort = port;
    // Ready when it greets with INFO, as the NATS container is judged.
    await waitForNats('127.0.0.1', port, 10_000);
  }

  async stop(): Promise<void> {
    const running = this.process;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
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
