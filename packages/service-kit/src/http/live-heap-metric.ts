import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import { Gauge, type Registry } from 'prom-client';

/**
 * The heap in use right after the process's last major (mark-compact) collection: what is alive then, without the
 * garbage that `nodejs_heap_size_used_bytes` counts too. Read every 10 s by the soak (bench/lib/memory-sampler.mjs),
 * it tells a leak (a rising floor) from V8 collecting lazily, without a heap snapshot. One observer per process,
 * however many apps it builds (tests build many).
 */
let liveAfterMajorGc: number | undefined;
let observing = false;

function observeMajorCollections(): void {
  if (observing) return;
  observing = true;
  const observer = new PerformanceObserver((list) => {
    const major = list
      .getEntries()
      .some((entry) => (entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (major) liveAfterMajorGc = getHeapStatistics().used_heap_size;
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** Adds `nodejs_heap_live_bytes` to `registry`; absent until the first major collection. */
export function registerLiveHeapMetric(registry: Registry): void {
  observeMajorCollections();
  new Gauge({
    name: 'nodejs_heap_live_bytes',
    help: 'V8 heap in use right after the last major (mark-compact) garbage collection: the live heap, garbage excluded',
    registers: [registry],
    collect() {
      if (liveAfterMajorGc === undefined) return;
      this.set(liveAfterMajorGc);
    },
  });
}
