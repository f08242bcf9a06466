// Memory of every process of a stack over a run, sampled every `intervalMs`: RSS from /proc and, from the process's own
// /metrics, the V8 heap in use (`nodejs_heap_size_used_bytes`, garbage included) and the live heap (`nodejs_heap_live_bytes`:
// the heap in use right after the last major collection, the service kit's), cheap readings every 10 s; the soak's heap
// snapshots (live-heap.mjs) take the exact live heap before and after. Where RSS levels off is what memory limits are
// set from; a live heap whose floor keeps rising is a leak.
import { readFileSync } from 'node:fs';

const rssMb = (pid) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

async function heapMb(port, token) {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(2000),
  }).catch(() => null);
  if (!response?.ok) return { heap_used_mb: null, live_heap_mb: null, shed: null };
  const text = await response.text();
  const mb = (metric) => {
    const line = new RegExp(`^${metric}\\{[^}]*\\} (\\d+(?:\\.\\d+)?)`, 'm').exec(text);
    return line ? Math.round(Number(line[1]) / 1048576) : null;
  };
  // Requests the process refused as overloaded so far (the kit's load shedding, every reason): a soak's 503s are placed.
  const shed = [...text.matchAll(/^http_requests_shed_total\{[^}]*\} (\d+)/gm)].reduce((sum, line) => sum + Number(line[1]), 0);
  return { heap_used_mb: mb('nodejs_heap_size_used_bytes'), live_heap_mb: mb('nodejs_heap_live_bytes'), shed };
}

/** Starts sampling `children` ({name, port, child}); `stop()` ends it and resolves to the samples, oldest first. */
export function sampleMemory(children, { intervalMs = 10_000, token } = {}) {
  const started = Date.now();
  const samples = [];
  const take = async () => {
    const processes = {};
    for (const { name, port, child } of children) {
      processes[`${name}:${port}`] = { rss_mb: rssMb(child.pid), ...(await heapMb(port, token)) };
    }
    samples.push({ t_s: Math.round((Date.now() - started) / 1000), processes });
  };
  let pending = take();
  const timer = setInterval(() => {
    pending = pending.then(take);
  }, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await pending;
      await take();
      return samples;
    },
  };
}

/**
 * Where each process's RSS levels off: the mean of the run's last fifth, and whether the last fifth set a new peak.
 * RSS is a sawtooth (V8 grows its spaces, then gives pages back), so a fifth's mean against the one before says little;
 * a leak instead keeps climbing past every earlier peak. Levelled off: the last fifth's highest sample within 5 % of
 * the highest before it. A process whose RSS still climbs is named, so its limit is not set from a guess.
 */
export function rssPlateaus(samples) {
  const names = Object.keys(samples[0]?.processes ?? {});
  const fifth = Math.max(1, Math.floor(samples.length / 5));
  const rss = (list, name) => list.map((sample) => sample.processes[name].rss_mb);
  return Object.fromEntries(
    names.map((name) => {
      const lastFifth = rss(samples.slice(-fifth), name);
      const before = rss(samples.slice(0, -fifth), name);
      const last = lastFifth.reduce((sum, value) => sum + value, 0) / lastFifth.length;
      const peakBefore = Math.max(0, ...before);
      const growth = peakBefore > 0 ? (Math.max(...lastFifth) - peakBefore) / peakBefore : 0;
      return [
        name,
        {
          plateau_mb: Math.round(last),
          peak_mb: Math.max(peakBefore, ...lastFifth),
          last_fifth_peak_growth: +growth.toFixed(3),
          levelled_off: growth < 0.05,
        },
      ];
    }),
  );
}

/**
 * Each process's live heap over the load (`live_heap_mb` of the samples): the mean of the run's first and last fifths
 * and the growth between them. A floor that rises run-long is a leak; one that stays is garbage RSS holds on to.
 */
export function liveHeapTrends(samples) {
  const names = Object.keys(samples[0]?.processes ?? {});
  const fifth = Math.max(1, Math.floor(samples.length / 5));
  const mean = (list, name) => {
    const values = list.map((sample) => sample.processes[name].live_heap_mb).filter((value) => typeof value === 'number');
    return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
  };
  return Object.fromEntries(
    names.map((name) => {
      const first = mean(samples.slice(0, fifth), name);
      const last = mean(samples.slice(-fifth), name);
      const growth = first && last !== null ? +((last - first) / first).toFixed(3) : null;
      return [
        name,
        { first_fifth_mb: first === null ? null : Math.round(first), last_fifth_mb: last === null ? null : Math.round(last), growth },
      ];
    }),
  );
}

/** An SVG line chart of RSS over time, one line per process (drawn by hand: a dependency for one chart is not worth it). */
export function rssChart(samples, title) {
  const width = 900;
  const height = 420;
  const pad = { left: 60, right: 200, top: 40, bottom: 50 };
  const names = Object.keys(samples[0]?.processes ?? {});
  const maxT = Math.max(1, ...samples.map((sample) => sample.t_s));
  const maxRss = Math.max(1, ...samples.flatMap((sample) => names.map((name) => sample.processes[name].rss_mb)));
  const top = Math.ceil(maxRss / 50) * 50;
  const x = (t) => pad.left + (t / maxT) * (width - pad.left - pad.right);
  const y = (mb) => height - pad.bottom - (mb / top) * (height - pad.top - pad.bottom);
  const colors = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  const grid = [];
  for (let mb = 0; mb <= top; mb += top / 5) {
    grid.push(`<line x1="${pad.left}" y1="${y(mb)}" x2="${width - pad.right}" y2="${y(mb)}" stroke="#ddd"/>`);
    grid.push(`<text x="${pad.left - 8}" y="${y(mb) + 4}" text-anchor="end" font-size="11">${Math.round(mb)}</text>`);
  }
  for (let t = 0; t <= maxT; t += Math.max(60, Math.ceil(maxT / 10 / 60) * 60)) {
    grid.push(`<text x="${x(t)}" y="${height - pad.bottom + 16}" text-anchor="middle" font-size="11">${Math.round(t / 60)}</text>`);
  }
  const lines = names.map((name, index) => {
    const color = colors[index % colors.length];
    const points = samples.map((sample) => `${x(sample.t_s).toFixed(1)},${y(sample.processes[name].rss_mb).toFixed(1)}`).join(' ');
    const legendY = pad.top + index * 18;
    return [
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`,
      `<rect x="${width - pad.right + 16}" y="${legendY - 9}" width="12" height="12" fill="${color}"/>`,
      `<text x="${width - pad.right + 34}" y="${legendY + 1}" font-size="12">${name}</text>`,
    ].join('\n');
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${pad.left}" y="24" font-size="14">${title}</text>`,
    ...grid,
    `<text x="${(pad.left + width - pad.right) / 2}" y="${height - 12}" text-anchor="middle" font-size="12">minutes</text>`,
    `<text x="16" y="${(pad.top + height - pad.bottom) / 2}" font-size="12" transform="rotate(-90 16 ${(pad.top + height - pad.bottom) / 2})" text-anchor="middle">RSS (MB)</text>`,
    ...lines,
    '</svg>',
    '',
  ].join('\n');
}
