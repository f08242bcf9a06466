// Where a scenario's CPU goes: the CPU time of each process of the stack (and of this client) over a run,
// divided by the requests it served. Read from /proc, so Linux only; elsewhere the breakdown is left out.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const CLOCK_TICKS_PER_MS = 0.1; // USER_HZ is 100 on Linux: one tick is 10 ms

/** The process group a command line belongs to: a service by its dist path, Postgres, NATS, or none. */
function groupOf(commandLine) {
  const service = /services\/([\w-]+)\/dist\//.exec(commandLine)?.[1];
  if (service) return service;
  if (commandLine.startsWith('postgres')) return 'postgres';
  if (commandLine.includes('nats-server')) return 'nats';
  return null;
}

/** CPU milliseconds so far per group, this process's own under `client`. */
function snapshot() {
  const totals = {};
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const group = groupOf(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '));
      if (!group) continue;
      // Fields after the parenthesised command: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      totals[group] = (totals[group] ?? 0) + (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_MS;
    } catch {
      // The process ended between listing and reading: its time is gone from both snapshots alike.
    }
  }
  const own = process.cpuUsage();
  totals.client = (own.user + own.system) / 1000;
  return totals;
}

/** Starts measuring; `perRequest(n)` then gives each group's CPU milliseconds per request (groups under 0.05 ms left out). */
export function cpuMeter() {
  if (!existsSync('/proc/self/stat')) return { perRequest: () => null };
  const before = snapshot();
  return {
    perRequest(requests) {
      if (!requests) return null;
      const after = snapshot();
      const shares = Object.entries(after)
        .map(([group, ms]) => [group, (ms - (before[group] ?? 0)) / requests])
        .filter(([, ms]) => ms >= 0.05)
        .sort((a, b) => b[1] - a[1]);
      return Object.fromEntries(shares.map(([group, ms]) => [group, +ms.toFixed(2)]));
    },
  };
}
