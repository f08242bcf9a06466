import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { damonMonitors, describeMachine, watchMachine } from '../../bench/lib/machine.mjs';

interface FakeKdamond {
  state: string;
  pid: number;
  operations: string;
  sampleUs: number;
  schemes: { action: string; quotaMs: number; quotaBytes: number; appliedBytes: number }[];
}

/**
 * `npm run bench` says when the kernel's DAMON monitor runs, and what it did during the run, since on this project's
 * VMs its wake-ups and page-outs make the steady runs' p99. It reads DAMON's sysfs admin tree and /proc/vmstat; these
 * tests give it their own, laid out as the kernel's (plain files cannot take the kernel's refresh command, hence
 * `refreshStats: false`).
 */
describe('the bench’s machine note', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), `${text}\n`);
  };

  /** A sysfs admin tree with one kdamond per entry, each with one context; returns its directory. */
  function sysfs(kdamonds: FakeKdamond[]): string {
    root = mkdtempSync(join(tmpdir(), 'damon-'));
    file('admin/kdamonds/nr_kdamonds', String(kdamonds.length));
    kdamonds.forEach((kdamond, index) => {
      const base = `admin/kdamonds/${index}`;
      file(`${base}/state`, kdamond.state);
      file(`${base}/pid`, String(kdamond.pid));
      file(`${base}/contexts/nr_contexts`, '1');
      file(`${base}/contexts/0/operations`, kdamond.operations);
      file(`${base}/contexts/0/monitoring_attrs/intervals/sample_us`, String(kdamond.sampleUs));
      file(`${base}/contexts/0/schemes/nr_schemes`, String(kdamond.schemes.length));
      kdamond.schemes.forEach((scheme, s) => {
        file(`${base}/contexts/0/schemes/${s}/action`, scheme.action);
        file(`${base}/contexts/0/schemes/${s}/quotas/ms`, String(scheme.quotaMs));
        file(`${base}/contexts/0/schemes/${s}/quotas/bytes`, String(scheme.quotaBytes));
        file(`${base}/contexts/0/schemes/${s}/quotas/reset_interval_ms`, '1000');
        file(`${base}/contexts/0/schemes/${s}/stats/sz_applied`, String(scheme.appliedBytes));
      });
    });
    return join(root, 'admin');
  }

  const pageout = (appliedBytes: number) => ({ action: 'pageout', quotaMs: 50, quotaBytes: 128 * 2 ** 20, appliedBytes });

  it('when a kdamond is on, then it is reported with what it watches, how often it samples and what its schemes do', () => {
    const admin = sysfs([
      { state: 'off', pid: 11, operations: 'vaddr', sampleUs: 5000, schemes: [] },
      { state: 'on', pid: 12, operations: 'paddr', sampleUs: 500_000, schemes: [pageout(4096)] },
    ]);
    expect(damonMonitors(admin, { refreshStats: false })).toEqual([
      {
        kdamond: 1,
        pid: 12,
        operations: 'paddr',
        sample_ms: 500,
        schemes: [{ action: 'pageout', quota_ms: 50, quota_bytes: 128 * 2 ** 20, quota_interval_ms: 1000, applied_bytes: 4096 }],
      },
    ]);
  });

  it('when DAMON is absent or every kdamond is off, then there is nothing to report', () => {
    const admin = sysfs([{ state: 'off', pid: 11, operations: 'paddr', sampleUs: 500_000, schemes: [pageout(0)] }]);
    expect(damonMonitors(admin, { refreshStats: false })).toEqual([]);
    expect(damonMonitors(join(admin, 'no-such-directory'))).toEqual([]);
    expect(watchMachine({ root: admin, refreshStats: false }).report()).toBeNull();
    expect(describeMachine(null)).toEqual([]);
  });

  it('when watched over a run, then what the monitor took and paged out, and what came back, are given and said', () => {
    // This test process stands in for the kdamond thread: it burns 200 ms of CPU between the start and the report,
    // counted in CPU rather than wall time so that a loaded machine only makes the test slower, never wrong.
    const admin = sysfs([{ state: 'on', pid: process.pid, operations: 'paddr', sampleUs: 500_000, schemes: [pageout(2 ** 30)] }]);
    file('vmstat', 'pgmajfault 100\nworkingset_refault_file 5000\nnr_free_pages 7');
    const startedAt = Date.now();
    const watch = watchMachine({ root: admin, vmstat: join(root, 'vmstat'), refreshStats: false });
    const cpuAtStart = process.cpuUsage();
    const burntUs = () => {
      const { user, system } = process.cpuUsage(cpuAtStart);
      return user + system;
    };
    while (burntUs() < 200_000) Math.sqrt(Math.random());
    file('admin/kdamonds/0/contexts/0/schemes/0/stats/sz_applied', String(2 ** 30 + 300 * 2 ** 20));
    file('vmstat', 'pgmajfault 160\nworkingset_refault_file 9000\nnr_free_pages 7');

    const report = watch.report()!;
    const wallMs = Date.now() - startedAt;
    const [monitor] = report.damon;
    expect(monitor).toMatchObject({ pid: process.pid, applied_mb: 300 });
    // Its share of a core, times at most the wall time watched, holds the 200 ms burnt (less a 10 ms clock tick, and
    // less what rounding the share to 3 decimals can take: half a thousandth of the time watched, ~1 ms on a slow run);
    // and one process of this test cannot have used more than the machine's cores.
    expect(monitor!.core_share! * wallMs).toBeGreaterThanOrEqual(190 - 0.0005 * wallMs);
    expect(monitor!.core_share).toBeLessThanOrEqual(availableParallelism());
    expect(report).toMatchObject({ refaulted_pages: 4000, major_faults: 60 });
    expect(describeMachine(report)).toEqual([
      `the kernel's DAMON monitor is on (kdamond 0, pid ${process.pid}): it watches paddr, samples every 500 ms and does ` +
        `pageout within 50 ms and 128 MiB per 1000 ms; over this run it used ${monitor!.core_share} of a core and applied its ` +
        'action to 300 MiB, and the machine read 4000 reclaimed file pages back in (60 major faults).',
    ]);
  });
});
