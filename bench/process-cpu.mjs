// Where a scenario's CPU goes: the CPU time of each process of the stack (and of this client) over a run,
// divided by the requests it served. Read from /proc, so Linux only; elsewhere the breakdown is left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const CLOCK_TICKS_PER_MS = 0.1; // USER_HZ is 100 on Linux: one tick is 10 ms

const ROOT = join(import.meta.dirname, '..');

/**
 * The process group a command line (its arguments) belongs to: a service by its dist path, a bare ceiling process, the
 * bench's webhook receiver, Postgres, NATS, or none. Only this checkout's processes and Postgres's backends of
 * `database` count: on a machine shared with other stacks, theirs are not the scenario's.
 */
function groupOf(argv, database) {
  // The script is not always node's first argument: SERVICE_NODE_FLAGS come before it (@app/dev-stack).
  const service = argv
    .slice(1)
    .map((argument) => /^(.+)\/services\/([\w-]+)\/dist\//.exec(argument))
    .find(Boolean);
  if (service) return service[1] === ROOT ? service[2] : null;
  const commandLine = argv.join(' ');
  if (commandLine.includes(`${ROOT}/bench/`)) {
    const bare = /bench\/ceiling\/((?:bare|framework)-\w+)\.mjs/.exec(commandLine)?.[1];
    if (bare) return bare;
    // The webhook scenarios' receiver plays the customer's server: load-generating side, like autocannon.
    if (commandLine.includes('bench/webhook-receiver.mjs')) return 'client';
  }
  if (commandLine.startsWith('postgres')) {
    // A backend reads "postgres: <cluster>: <user> <database> <client> <state>"; background processes have no database.
    const backendOf = /^postgres: [^:]+: \S+ (\S+) (?:\[local\]|\S+\(\d+\))/.exec(commandLine)?.[1];
    return !database || !backendOf || backendOf === database ? 'postgres' : null;
  }
  if (commandLine.includes('nats-server')) return 'nats';
  return null;
}

/** The CPU milliseconds a process (or kernel thread) has used so far; throws when it is gone. */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command (which may hold ") " itself): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_MS;
}

/** Which group of the CPU table a running process counts under (see groupOf), or null; throws when it is gone. */
export function processGroup(pid, database) {
  return groupOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean), database);
}

/** CPU milliseconds so far of every process of a group, by pid; this process's own under `client`. */
function snapshot(database) {
  const processes = new Map();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const group = processGroup(pid, database);
      if (!group) continue;
      processes.set(pid, { group, ms: processCpuMs(pid) });
    } catch {
      // The process ended between listing and reading.
    }
  }
  const own = process.cpuUsage();
  processes.set('self', { group: 'client', ms: (own.user + own.system) / 1000 });
  return processes;
}

/** The CPU milliseconds so far of the stack's processes (every group but this client), summed. */
export function stackCpuMs(database) {
  let ms = 0;
  for (const [pid, process] of snapshot(database)) if (pid !== 'self' && process.group !== 'client') ms += process.ms;
  return ms;
}

/**
 * Starts measuring; `perRequest(n)` then gives each group's CPU milliseconds per request (groups under
 * 0.05 ms left out). Differences are taken per process: a pooled Postgres connection that closes during
 * the run (idle timeout) must not take its earlier CPU time out of the sum. Its last moments are lost.
 */
export function cpuMeter({ database } = {}) {
  if (!existsSync('/proc/self/stat')) return { perRequest: () => null };
  const before = snapshot(database);
  return {
    perRequest(requests) {
      if (!requests) return null;
      const totals = {};
      for (const [pid, { group, ms }] of snapshot(database)) totals[group] = (totals[group] ?? 0) + ms - (before.get(pid)?.ms ?? 0);
      const shares = Object.entries(totals)
        .map(([group, ms]) => [group, ms / requests])
        .filter(([, ms]) => ms >= 0.05)
        .sort((a, b) => b[1] - a[1]);
      return Object.fromEntries(shares.map(([group, ms]) => [group, +ms.toFixed(2)]));
    },
  };
}
