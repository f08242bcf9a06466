// The example overlay with its own NATS cluster (overlays/example-nats-cluster): the services find every node, their
// streams keep as many replicas as there are nodes, the nodes route to each other, and the users are the example's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRenderer } from '../lib/render.mjs';

type K8sObject = {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  spec?: {
    replicas?: number;
    serviceName?: string;
    clusterIP?: string;
    podSelector?: { matchLabels: Record<string, string> };
    ingress?: { from?: { podSelector: { matchLabels: Record<string, string> } }[]; ports: { port: number }[] }[];
  };
};

const K8S = join(import.meta.dirname, '..');
const objects = findRenderer().render(join(K8S, 'overlays', 'example-nats-cluster')) as K8sObject[];
const one = (kind: string, prefix: string) => objects.find((o) => o.kind === kind && o.metadata.name.startsWith(prefix));
const statefulSet = one('StatefulSet', 'nats');
const config = one('ConfigMap', 'scheduling-shop-config')?.data ?? {};
const pods = Array.from({ length: statefulSet?.spec?.replicas ?? 0 }, (_, index) => `nats-${index}`);

describe('the example overlay with a NATS cluster', () => {
  it('when the services connect, then NATS_URL lists every node by its stable name, and streams keep one replica per node', () => {
    expect(pods).toHaveLength(3);
    expect(one('Service', statefulSet?.spec?.serviceName ?? '?')?.spec?.clusterIP).toBe('None');
    expect(config.NATS_URL?.split(',')).toEqual(pods.map((pod) => `nats://${pod}.${statefulSet?.spec?.serviceName}:4222`));
    expect(Number(config.NATS_STREAM_REPLICAS)).toBe(pods.length);
  });

  it('when a node starts, then its configuration routes to every node, with JetStream and the users included', () => {
    const conf = one('ConfigMap', 'nats-config')?.data?.['nats.conf'] ?? '';
    for (const pod of pods) expect(conf).toContain(`nats://${pod}.${statefulSet?.spec?.serviceName}:6222`);
    expect(conf).toMatch(/^jetstream \{/m);
    expect(conf).toMatch(/^include \.\/authorization\.conf$/m);
    const users = Buffer.from(one('Secret', 'nats-authorization')?.data?.['authorization.conf'] ?? '', 'base64').toString();
    // kustomize reads files inside an overlay only: the copy must stay the example's (regenerate both together).
    expect(users).toBe(readFileSync(join(K8S, 'overlays', 'example', 'nats-authorization.conf'), 'utf8'));
  });

  it('when nats-server reads the rendered configuration (its store moved to a temporary folder), then it is valid', () => {
    const binary = process.env.NATS_SERVER_BIN ?? 'nats-server';
    const dir = mkdtempSync(join(tmpdir(), 'nats-cluster-conf-'));
    try {
      const conf = (one('ConfigMap', 'nats-config')?.data?.['nats.conf'] ?? '').replace('/data/jetstream', join(dir, 'jetstream'));
      writeFileSync(join(dir, 'nats.conf'), conf);
      writeFileSync(
        join(dir, 'authorization.conf'),
        Buffer.from(one('Secret', 'nats-authorization')?.data?.['authorization.conf'] ?? '', 'base64'),
      );
      const checked = spawnSync(binary, ['-t', '-c', join(dir, 'nats.conf')], {
        env: { ...process.env, POD_NAME: 'nats-0' },
        encoding: 'utf8',
      });
      if (checked.error) throw new Error(`${binary} does not run (${checked.error.message}): apt-get install nats-server`);
      expect(`${checked.stdout}${checked.stderr}`).toMatch(/configuration file .* is valid/);
      expect(checked.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when traffic arrives at a node, then only the services reach its client port and only the nodes its route port', () => {
    const policy = objects.find((o) => o.kind === 'NetworkPolicy' && o.metadata.name === 'nats-from-services-and-peers');
    expect(
      policy?.spec?.ingress?.map((rule) => [rule.from?.map((from) => from.podSelector.matchLabels), rule.ports.map((p) => p.port)]),
    ).toEqual([
      [[{ 'app.kubernetes.io/part-of': 'scheduling-shop', 'app.kubernetes.io/component': 'server' }], [4222]],
      [[{ 'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/component': 'message-broker' }], [6222]],
    ]);
  });
});
