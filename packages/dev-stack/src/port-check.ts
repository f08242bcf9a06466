import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import net from 'node:net';

/** A port the stack will listen on, and which of its processes needs it. */
export interface WantedPort {
  port: number;
  owner: string;
}

/** Whether `host:port` can be listened on now (something else listening on it, on that address or all of them, says no). */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** The socket inodes listening on `port` (TCP, IPv4 and IPv6), from /proc/net: empty where /proc is not Linux's. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is `ADDR:PORT` in hex; state 0A is LISTEN; the inode is the tenth field.
      if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A' && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * Who listens on `port`: `mariadbd (pid 3794)`, found by the socket's inode among the processes' open files (Linux
 * only, and only the processes this user may inspect); null when it cannot be told.
 */
export function portHolder(port: number): string | null {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return null;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) {
        const command = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
        return `${command} (pid ${pid})`;
      }
    }
  }
  return null;
}

/** The first base port after `base` (in steps of 100) at which every offset of `offsets` is free, or null. */
async function freeBase(host: string, base: number, offsets: readonly number[]): Promise<number | null> {
  for (let candidate = base + 100; candidate + Math.max(...offsets) < 65_536 && candidate <= base + 2_000; candidate += 100) {
    const free = await Promise.all(offsets.map((offset) => portIsFree(host, candidate + offset)));
    if (free.every(Boolean)) return candidate;
  }
  return null;
}

/**
 * Refuses, before any process starts, a stack whose ports are taken: the error names each taken port, the process of
 * the stack that needs it, who holds it, and the variable that moves the whole block (the stack's ports follow its
 * base port), with a base at which every port is free. A port taken half-way through a start would otherwise leave
 * the processes before it running and report only a service that did not become ready.
 */
export async function assertPortsFree(host: string, base: number, wanted: readonly WantedPort[], variable: string): Promise<void> {
  const free = await Promise.all(wanted.map(({ port }) => portIsFree(host, port)));
  const taken = wanted.filter((_, index) => !free[index]);
  if (taken.length === 0) return;
  const lines = taken.map(({ port, owner }) => `port ${port} (${owner}) is taken by ${portHolder(port) ?? 'another process'}`);
  const alternative = await freeBase(
    host,
    base,
    wanted.map(({ port }) => port - base),
  );
  const move =
    alternative === null ? `set ${variable} to another base port` : `set ${variable}=${alternative} (every port it needs is free there)`;
  throw new Error(`${lines.join('; ')}. The stack's ports follow ${variable} (${base}): ${move}.`);
}
