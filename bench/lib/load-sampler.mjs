// What the machine was doing while a steady run went: every SAMPLE_MS, the cores busy on the whole machine
// (/proc/stat), those of the stack's own processes (process-cpu.mjs) and those of this client. A steady run's slow requests are then set
// beside the same seconds (bench/run.mjs, BENCH_REPEAT): a stall while other processes took the cores is the
// machine's, one while only the stack was busy is the stack's.
import { readFileSync } from 'node:fs';
import { stackCpuMs } from '../process-cpu.mjs';

// Each sample reads every process of /proc: every half second keeps that under a hundredth of a core.
const SAMPLE_MS = 500;
const TICK_MS = 10; // USER_HZ is 100 on Linux

/** Busy and steal milliseconds of all cores so far (the aggregate `cpu` line of /proc/stat). */
function machineMs() {
  const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  return { busy: (user + nice + system + irq + softirq) * TICK_MS, steal: steal * TICK_MS };
}

/**
 * Starts sampling; `stop()` ends it and gives the samples: `at` (ms since the epoch, the end of the sample) and the
 * cores busy over it: the machine's, the stack's, this client's, and those the hypervisor stole. Without /proc (not Linux), no samples.
 */
export function sampleLoad({ database }) {
  const samples = [];
  let before;
  const clientMs = () => {
    const own = process.cpuUsage();
    return (own.user + own.system) / 1000;
  };
  const read = () => ({ at: Date.now(), machine: machineMs(), stack: stackCpuMs(database), client: clientMs() });
  try {
    before = read();
  } catch {
    return { stop: () => samples };
  }
  const timer = setInterval(() => {
    const now = read();
    const elapsed = now.at - before.at;
    // A process that ended within the sample (a pooled Postgres connection) takes its CPU out of the sum: never below 0.
    const cores = (from, to) => Math.max(0, (to - from) / elapsed);
    if (elapsed > 0)
      samples.push({
        at: now.at,
        machine_cores: cores(before.machine.busy, now.machine.busy),
        stack_cores: cores(before.stack, now.stack),
        client_cores: cores(before.client, now.client),
        steal_cores: cores(before.machine.steal, now.machine.steal),
      });
    before = now;
  }, SAMPLE_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

/**
 * The mean cores busy over the samples that cover [from, to] (ms since the epoch), with `other_cores`: what neither the
 * stack nor this client used (other processes, the kernel's own threads). Null without samples there.
 */
export function loadBetween(samples, from, to) {
  const within = samples.filter((sample) => sample.at >= from && sample.at <= to + SAMPLE_MS);
  if (within.length === 0) return null;
  const mean = (key) => within.reduce((sum, sample) => sum + sample[key], 0) / within.length;
  const round = (cores) => +Math.max(0, cores).toFixed(2);
  return {
    machine_cores: round(mean('machine_cores')),
    stack_cores: round(mean('stack_cores')),
    client_cores: round(mean('client_cores')),
    other_cores: round(mean('machine_cores') - mean('stack_cores') - mean('client_cores')),
    steal_cores: round(mean('steal_cores')),
  };
}
