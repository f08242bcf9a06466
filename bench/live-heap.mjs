// The live JS heap of a running process, measured the only way that cannot mistake garbage V8 has not yet
// collected for a leak: a heap snapshot (V8 runs a full GC before it writes one) summed node by node.
// The process must run with `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=<dir>` (see heapSnapshotOptions).
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function heapSnapshotOptions(dir) {
  return `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}`;
}

/** Signals the process, waits until it answers HTTP again (the snapshot is written synchronously), sums it. */
export async function liveHeapMb({ child, port }, dir) {
  const mine = () => readdirSync(dir).filter((name) => name.includes(`.${child.pid}.`) && name.endsWith('.heapsnapshot'));
  const before = new Set(mine());
  child.kill('SIGUSR2');
  for (let waited = 0; waited < 60_000; waited += 200) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const written = mine().find((name) => !before.has(name));
    const answering = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (written && answering) {
      const path = join(dir, written);
      const snapshot = JSON.parse(readFileSync(path, 'utf8'));
      rmSync(path);
      const fields = snapshot.snapshot.meta.node_fields;
      const sizeAt = fields.indexOf('self_size');
      let bytes = 0;
      for (let i = sizeAt; i < snapshot.nodes.length; i += fields.length) bytes += snapshot.nodes[i];
      return Math.round((bytes / 1048576) * 10) / 10;
    }
  }
  throw new Error(`no heap snapshot from pid ${child.pid}`);
}

/** Live heap of every process, one after the other (each snapshot pauses its process for a moment). */
export async function liveHeaps(children, dir) {
  const sizes = {};
  for (const entry of children) sizes[`${entry.name}:${entry.port}`] = await liveHeapMb(entry, dir);
  return sizes;
}
