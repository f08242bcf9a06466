// What the machine itself does to the numbers, said beside them. This project's VMs run the kernel's DAMON monitor
// with a `pageout` scheme over all physical memory: a kdamond thread wakes every 500 ms, samples which memory was
// touched, and pages out what has stayed cold for a minute (file pages: code and cached files, read back from disk the
// next time they are needed). Its wake-ups take a core, which on two cores stalls a busy stack, and what it paged out
// comes back as major faults; both show in the steady runs' p99 (docs/benchmarks.md, "Steady load"). The bench
// reads and reports; it only asks DAMON to refresh its scheme counters, and changes nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processCpuMs } from '../process-cpu.mjs';

const DAMON_ADMIN = '/sys/kernel/mm/damon/admin';
const VMSTAT = '/proc/vmstat';

const read = (path) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};
const numberAt = (path) => Number(read(path) ?? 0);

/**
 * The DAMON monitors that are on, one per context of a running kdamond: its thread, what it watches (`paddr`: all
 * physical memory; `vaddr`: some processes), how often it samples, and its schemes (what each does, within which
 * quota, and the bytes it has applied that to so far). Empty where DAMON is absent, off or unreadable. `root` is the
 * sysfs admin directory; `refreshStats: false` reads the counters as they are (a test's tree of plain files cannot
 * take the kernel's command).
 */
export function damonMonitors(root = DAMON_ADMIN, { refreshStats = true } = {}) {
  const monitors = [];
  for (let index = 0; index < numberAt(join(root, 'kdamonds', 'nr_kdamonds')); index += 1) {
    const kdamond = join(root, 'kdamonds', String(index));
    if (read(join(kdamond, 'state')) !== 'on') continue;
    if (refreshStats) refreshSchemeStats(kdamond);
    for (let c = 0; c < numberAt(join(kdamond, 'contexts', 'nr_contexts')); c += 1) {
      const context = join(kdamond, 'contexts', String(c));
      const schemes = Array.from({ length: numberAt(join(context, 'schemes', 'nr_schemes')) }, (_, s) => {
        const scheme = join(context, 'schemes', String(s));
        return {
          action: read(join(scheme, 'action')),
          quota_ms: numberAt(join(scheme, 'quotas', 'ms')),
          quota_bytes: numberAt(join(scheme, 'quotas', 'bytes')),
          quota_interval_ms: numberAt(join(scheme, 'quotas', 'reset_interval_ms')),
          applied_bytes: numberAt(join(scheme, 'stats', 'sz_applied')),
        };
      });
      monitors.push({
        kdamond: index,
        pid: numberAt(join(kdamond, 'pid')),
        operations: read(join(context, 'operations')),
        sample_ms: numberAt(join(context, 'monitoring_attrs', 'intervals', 'sample_us')) / 1000,
        schemes,
      });
    }
  }
  return monitors;
}

/** DAMON updates a scheme's counters only when asked; a reader without the right to ask sees older ones. */
function refreshSchemeStats(kdamond) {
  try {
    writeFileSync(join(kdamond, 'state'), 'update_schemes_stats');
  } catch {
    // Not root, or a kernel without the command: the counters are as last refreshed.
  }
}

/** CPU milliseconds the monitor's kernel thread has used so far; undefined once it is gone. */
function cpuMsOf(pid) {
  try {
    return processCpuMs(pid);
  } catch {
    return undefined;
  }
}

/** The machine's counts of file pages read back after being reclaimed, and of major page faults, so far. */
function faults(vmstat) {
  const counters = Object.fromEntries((read(vmstat) ?? '').split('\n').map((line) => line.split(' ')));
  return { refaults: Number(counters.workingset_refault_file ?? 0), majorFaults: Number(counters.pgmajfault ?? 0) };
}

/**
 * Starts watching the running monitors; `report()` then gives, for each, the share of one core its thread used since
 * (`core_share`) and the bytes its schemes applied their action to since (`applied_mb`), with the file pages the
 * machine read back and its major faults over the same time; null when no monitor runs. `root` and `vmstat` are where
 * to read, `refreshStats` as for damonMonitors (a test gives its own).
 */
export function watchMachine({ root = DAMON_ADMIN, vmstat = VMSTAT, refreshStats = true } = {}) {
  const startedAt = Date.now();
  const monitors = damonMonitors(root, { refreshStats });
  const cpuAtStart = monitors.map((monitor) => cpuMsOf(monitor.pid));
  const faultsAtStart = faults(vmstat);
  return {
    monitors,
    report() {
      if (monitors.length === 0) return null;
      const elapsedMs = Date.now() - startedAt;
      const now = damonMonitors(root, { refreshStats });
      const faultsNow = faults(vmstat);
      return {
        damon: monitors.map((monitor, index) => {
          const cpuMs = cpuMsOf(monitor.pid);
          const used = cpuMs === undefined || cpuAtStart[index] === undefined ? null : cpuMs - cpuAtStart[index];
          const later = now.find((other) => other.pid === monitor.pid && other.operations === monitor.operations);
          const applied = monitor.schemes.reduce(
            (sum, scheme, s) => sum + ((later?.schemes[s]?.applied_bytes ?? 0) - scheme.applied_bytes),
            0,
          );
          return {
            ...monitor,
            core_share: used === null || elapsedMs === 0 ? null : +(used / elapsedMs).toFixed(3),
            applied_mb: later ? Math.round(applied / 2 ** 20) : null,
          };
        }),
        refaulted_pages: faultsNow.refaults - faultsAtStart.refaults,
        major_faults: faultsNow.majorFaults - faultsAtStart.majorFaults,
      };
    },
  };
}

/** What a monitor is and does, in one line: `pageout` within 50 ms and 128 MiB per 1000 ms, and so on. */
export function describeDamon(monitor) {
  const schemes = monitor.schemes
    .map(({ action, quota_ms, quota_bytes, quota_interval_ms }) => {
      const quota = [quota_ms && `${quota_ms} ms`, quota_bytes && `${Math.round(quota_bytes / 2 ** 20)} MiB`].filter(Boolean).join(' and ');
      return quota ? `${action} within ${quota} per ${quota_interval_ms} ms` : action;
    })
    .join(', ');
  return (
    `the kernel's DAMON monitor is on (kdamond ${monitor.kdamond}, pid ${monitor.pid}): it watches ${monitor.operations}, ` +
    `samples every ${monitor.sample_ms} ms and does ${schemes || 'nothing'}`
  );
}

/** The report of watchMachine in sentences, one per monitor, for the end of the bench's output. */
export function describeMachine(report) {
  return (report?.damon ?? []).map(
    (monitor) =>
      `${describeDamon(monitor)}; over this run it used ${monitor.core_share ?? '?'} of a core and applied its action to ` +
      `${monitor.applied_mb ?? '?'} MiB, and the machine read ${report.refaulted_pages} reclaimed file pages back in ` +
      `(${report.major_faults} major faults).`,
  );
}
