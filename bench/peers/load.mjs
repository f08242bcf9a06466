// One measured run of `npm run bench:peers`: a warm-up, then autocannon for the whole duration, and the CPU each of
// the target's processes spent per request served. The same for both systems, so only the target differs.
import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { cpuMeter, processCpuMs, processGroup, stackCpuMs } from '../process-cpu.mjs';
import { settle } from '../lib/settle.mjs';

/** The pids under `rootPid` (itself included): Medusa's CLI runs the server in a child, which may fork workers. */
function processTree(rootPid) {
  const children = new Map();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // Gone between listing and reading.
    }
  }
  const tree = [];
  const visit = (pid) => {
    tree.push(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(rootPid);
  return tree;
}

/** CPU ms so far by pid: a process tree (the peer's server, as `group`) and the Postgres processes of `database`. */
function treeSnapshot(rootPid, group, database) {
  const processes = new Map();
  for (const pid of processTree(rootPid)) {
    try {
      processes.set(String(pid), { group, ms: processCpuMs(pid) });
    } catch {
      // Gone.
    }
  }
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (processGroup(pid, database) === 'postgres') processes.set(pid, { group: 'postgres', ms: processCpuMs(pid) });
    } catch {
      // Gone.
    }
  }
  return processes;
}

/**
 * How a target's CPU is read: this system's through bench/process-cpu.mjs (its services by their dist paths), a peer's
 * as the tree of its server process; both with Postgres's backends of their own database and the background processes.
 */
export function ourCpu(database) {
  return { meter: () => cpuMeter({ database }), totalMs: () => stackCpuMs(database) };
}

export function peerCpu(rootPid, group, database) {
  const totalMs = () => [...treeSnapshot(rootPid, group, database).values()].reduce((sum, process) => sum + process.ms, 0);
  return {
    totalMs,
    meter() {
      const before = treeSnapshot(rootPid, group, database);
      const ownBefore = process.cpuUsage();
      return {
        perRequest(requests) {
          if (!requests) return null;
          const totals = {};
          for (const [pid, { group: name, ms }] of treeSnapshot(rootPid, group, database))
            totals[name] = (totals[name] ?? 0) + ms - (before.get(pid)?.ms ?? 0);
          const own = process.cpuUsage(ownBefore);
          totals.client = (own.user + own.system) / 1000;
          return Object.fromEntries(
            Object.entries(totals)
              .map(([name, ms]) => [name, +(ms / requests).toFixed(2)])
              .filter(([, ms]) => ms >= 0.05)
              .sort((a, b) => b[1] - a[1]),
          );
        },
      };
    },
  };
}

/**
 * `requests` (autocannon's, cycled) against `url` for `duration` s after `warmup` s unmeasured, once the target is
 * quiet (settle.mjs). `cpu` is ourCpu or peerCpu. Numbers only: a slow or failing target is reported, never thrown.
 */
export async function measure({ name, url, headers, requests, cpu, connections, duration, warmup }) {
  const settled = await settle({ cpuMs: cpu.totalMs });
  if (!settled.settled)
    console.warn(`  the target did not settle in ${settled.waited_s} s (${settled.cpu_share} of a core): measuring anyway`);
  process.stdout.write(`running: ${name} ... `);
  // A peer answers in seconds under load: a generous timeout, so slow answers count as slow rather than as errors.
  const options = { url, headers, requests, connections, timeout: 60 };
  if (warmup > 0) await autocannon({ ...options, duration: warmup });
  const meter = cpu.meter();
  const result = await autocannon({ ...options, duration });
  const served = result.requests.total;
  const summary = {
    scenario: name,
    rps: +result.requests.average.toFixed(result.requests.average < 100 ? 1 : 0),
    requests: served,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    max_ms: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    // What a client is sent, headers included: Medusa's full answer carries variants, options and prices.
    bytes_per_response: served ? Math.round(result.throughput.total / served) : null,
    cpu_ms_per_request: meter.perRequest(served),
    settle: settled,
  };
  // The busiest second and the idlest: a target that answers in waves shows it here.
  const perSecond = result.requests;
  summary.rps_min = perSecond.min;
  summary.rps_max = perSecond.max;
  console.log(`${summary.rps} req/s`);
  return summary;
}
