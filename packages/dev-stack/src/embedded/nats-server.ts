import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alive, commandLine, ownerOf, waitForExit } from './process-owner.ts';
import type { EmbeddedNatsReady } from './protocol.ts';

/**
 * `nats-server` with JetStream, its store in `dataDir/nats`, on a port it picks itself (read from its log).
 * `started` gets its stop as soon as the process runs, before it is known to answer.
 */
export async function startNats(binary: string, dataDir: string, started: (stop: () => Promise<void>) => void): Promise<EmbeddedNatsReady> {
  const storeDir = join(dataDir, 'nats');
  mkdirSync(storeDir, { recursive: true });
  await stopOrphanedNats(dataDir, storeDir);
  const log = createWriteStream(join(dataDir, 'nats.log'), { flags: 'a' });
  const child = spawn(binary, ['-a', '127.0.0.1', '-p', '-1', '-js', '-sd', storeDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  started(() => stopNats(child));
  writeFileSync(join(dataDir, 'nats.pid'), `${child.pid}\n`);
  return new Promise((resolve, reject) => {
    let output: string | null = '';
    const timer = setTimeout(() => reject(new Error(`${binary} did not start within 15 s (see ${join(dataDir, 'nats.log')})`)), 15_000);
    child.stderr.on('data', (chunk: Buffer) => {
      log.write(chunk);
      if (output === null) return;
      output += chunk.toString();
      const port = /Listening for client connections on [^\s]*:(\d+)/.exec(output)?.[1];
      if (port && /Server is ready/.test(output)) {
        clearTimeout(timer);
        resolve({ port: Number(port), version: /Version:\s+(\S+)/.exec(output)?.[1] ?? 'unknown' });
        output = null;
      }
    });
    child.once('error', (error) => reject(new Error(`cannot run ${binary}: ${error.message}`)));
    child.once('exit', (code) => {
      if (output !== null) reject(new Error(`${binary} exited (code ${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
}

/** SIGTERM (NATS flushes its store), SIGKILL after 10 s. */
async function stopNats(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A nats-server whose process was killed outlives it on the store (`nats.pid`); it is stopped before a new one
 * starts there, unless the process of another running npm start owns it.
 */
async function stopOrphanedNats(dataDir: string, storeDir: string): Promise<void> {
  const pidFile = join(dataDir, 'nats.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  // No command line: gone, or no /proc to tell whose it is.
  if (Number.isInteger(pid) && pid > 0 && alive(pid) && commandLine(pid)?.includes(storeDir)) {
    const owner = ownerOf(pid);
    if (owner) throw new Error(`${storeDir} is in use by another npm start (its servers' process ${owner}): stop that one first`);
    process.kill(pid, 'SIGTERM');
    await waitForExit(pid, 10_000);
  }
  rmSync(pidFile, { force: true });
}
