import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { kubePlayPod } from './pod.mjs';

const SERVICES = ['gateway', 'bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'] as const;

function podman(args: string[]): string {
  const result = spawnSync('podman', args, { encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`podman ${args.join(' ')} failed: ${result.stderr || result.error?.message}`);
  return result.stdout;
}

/** A loopback port the OS picks for a listen(0), given back at once for podman to bind. */
function portTheOsPicks(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/**
 * The example overlay's Deployments run by `podman kube play` as one pod, with the locally built images: their
 * container specs (read-only root file system with /tmp mounted, non-root user, dropped capabilities, limits,
 * ports) are what the images must run under in a cluster. Driven through the gateway.
 */
describe('the Kubernetes manifests under podman kube play', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-play-'));
  const file = join(dir, 'pod.yaml');
  const adminToken = randomBytes(24).toString('base64url');
  let gateway: string;

  beforeAll(async () => {
    const prefix = process.env.IMAGE_PREFIX ?? 'scheduling-shop';
    const tag = process.env.IMAGE_TAG ?? 'latest';
    const podFor = (gatewayHostPort: number) =>
      kubePlayPod({
        name: `ss-kube-${Date.now().toString(36)}`,
        gatewayHostPort,
        images: {
          ...Object.fromEntries(SERVICES.map((service) => [service, `${prefix}/${service}:${tag}`])),
          postgres: process.env.POSTGRES_IMAGE ?? 'postgres:16-alpine',
          nats: process.env.NATS_IMAGE ?? 'nats:2.10-alpine',
        },
        secrets: {
          postgresPassword: randomBytes(12).toString('hex'),
          adminToken,
          calendarKeys: `k1:${randomBytes(32).toString('base64')}`,
          oauthStateSecret: randomBytes(32).toString('base64url'),
        },
      });
    // A hostPort is a concrete port that podman itself must bind (Kubernetes has no "any port"), so it cannot be held
    // for it: the OS picks one, and when something else took it before podman bound it, the pod is played on another.
    const play = async (attempt = 1): Promise<{ pod: ReturnType<typeof kubePlayPod>; port: number }> => {
      const port = await portTheOsPicks();
      const pod = podFor(port);
      writeFileSync(file, stringify(pod));
      try {
        podman(['kube', 'play', file]);
        return { pod, port };
      } catch (error) {
        spawnSync('podman', ['kube', 'down', file], { stdio: 'ignore', timeout: 120_000 });
        if (attempt === 3 || !/address already in use/i.test((error as Error).message)) throw error;
        return play(attempt + 1);
      }
    };
    const { pod, port } = await play();
    gateway = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 180_000;
    while (!(await fetch(`${gateway}/readyz`).catch(() => null))?.ok) {
      if (Date.now() > deadline)
        throw new Error(`the gateway of the pod never got ready:\n${podman(['pod', 'logs', '--tail', '20', pod.metadata.name])}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }, 240_000);

  afterAll(() => {
    spawnSync('podman', ['kube', 'down', file], { stdio: 'ignore', timeout: 120_000 });
    rmSync(dir, { recursive: true, force: true });
  }, 150_000);

  it('when every service runs as its Deployment says, then an organization books a slot through the gateway', async () => {
    const organization = await fetch(`${gateway}/admin/v1/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kube' }),
    });
    expect(organization.status).toBe(201);
    const { data } = (await organization.json()) as { data: { api_key: string } };
    const api = (path: string, body?: object) =>
      fetch(`${gateway}${path}`, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${data.api_key}`, 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      });
    // The gateway is ready before the services behind it have applied their migrations: wait for each to answer.
    for (const service of SERVICES.filter((name) => name !== 'gateway')) {
      const deadline = Date.now() + 120_000;
      while ((await api(`/api/v1/ping/${service}`)).status !== 200 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
    // Open every day: the default hours (Mon–Fri) would leave no slot tomorrow on a Friday or Saturday.
    const availability = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
      day,
      start: '09:00',
      end: '17:00',
    }));
    const created = await api('/api/v1/schedules', { name: 'Desk', timezone: 'UTC', availability });
    expect(created.status).toBe(201);
    const schedule = (await created.json()) as { data: { id: string } };
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const booking = await api('/api/v1/bookings', {
      schedule_id: schedule.data.id,
      start_time: `${tomorrow}T10:00:00Z`,
      end_time: `${tomorrow}T10:30:00Z`,
      attendee: { name: 'Ada', email: 'ada@example.com' },
    });
    expect(booking.status).toBe(201);
  });
});
