import { readFileSync } from 'node:fs';
import { SERVERS_PROCESS_FILE } from './protocol.ts';

/** Whether process `pid` runs (one of another user's counts). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of `pid`, argument by argument; undefined where it cannot be read (gone, or no /proc). */
export function commandLine(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
}

/** The pid of the servers' process (of another npm start) that started server `pid`, while it runs; else undefined. */
export function ownerOf(pid: number): number | undefined {
  try {
    const parent = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
    return commandLine(parent)?.some((argument) => argument.endsWith(SERVERS_PROCESS_FILE)) ? parent : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves once `pid` has exited, or after `timeoutMs` when it still runs. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<void> {
  for (let waited = 0; alive(pid) && waited < timeoutMs; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
}
