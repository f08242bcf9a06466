import type { FastifyInstance } from 'fastify';

/**
 * One sample of the app's `/metrics` (the first whose labels include all of `labels`), or undefined when there is
 * none: how tests see a metric move through the service's public surface.
 */
export async function metricValue(app: FastifyInstance, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  const response = await app.inject({ url: '/metrics' });
  if (response.statusCode !== 200) throw new Error(`/metrics answered ${response.statusCode}`);
  for (const line of response.body.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match?.[1] !== name) continue;
    const present = new Map([...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) return Number(match[3]);
  }
  return undefined;
}
