// What the schemas cannot see: the objects of the example overlay fit together the way README.md says they do.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRenderer } from '../lib/render.mjs';

type Labels = Record<string, string>;
type Probe = { httpGet?: { path: string; port: string } };
type Container = {
  name: string;
  ports?: { name: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  resources?: { requests?: Labels; limits?: Labels };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
  volumeMounts?: { name: string; mountPath: string }[];
};
type PodTemplate = {
  metadata: { labels: Labels };
  spec: {
    containers: Container[];
    terminationGracePeriodSeconds?: number;
    securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
    volumes?: { name: string; emptyDir?: object }[];
  };
};
type K8sObject = {
  kind: string;
  metadata: { name: string; labels?: Labels };
  data?: Record<string, string>;
  spec: {
    selector?: Labels & { matchLabels?: Labels };
    template?: PodTemplate;
    ports?: { port: number; targetPort: string }[];
    podSelector?: { matchLabels: Labels };
    ingress?: { from?: { podSelector: { matchLabels: Labels } }[]; ports: { port: number }[] }[];
  };
};

const objects = findRenderer().render(join(import.meta.dirname, '..', 'overlays', 'example')) as K8sObject[];
const ofKind = (kind: string) => objects.filter((o) => o.kind === kind);
const named = (kind: string, name: string) => ofKind(kind).find((o) => o.metadata.name === name);
const matches = (selector: Labels, labels: Labels) => Object.entries(selector).every(([key, value]) => labels[key] === value);
const deployments = ofKind('Deployment');
const drainMs = Number(ofKind('ConfigMap')[0]?.data?.SHUTDOWN_DRAIN_MS);
const SERVICES = ['gateway', 'bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'];

describe('example overlay', () => {
  it('when rendered, then every service has a Deployment, Service, PodDisruptionBudget and migration Job', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const name of SERVICES) {
      expect(named('Service', name), name).toBeDefined();
      expect(named('PodDisruptionBudget', name), name).toBeDefined();
      expect(named('Job', `${name}-migrate`), name).toBeDefined();
    }
  });

  it.each(SERVICES)('when %s runs, then it is probed, bounded, non-root and outlives its drain', (name) => {
    const pod = named('Deployment', name)?.spec.template as PodTemplate;
    const [container] = pod.spec.containers;
    if (!container) throw new Error(`${name} has no container`);

    expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(Object.keys(container.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(container.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(container.volumeMounts).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
    expect((pod.spec.terminationGracePeriodSeconds ?? 30) * 1000).toBeGreaterThan(drainMs);
  });

  it('when pods read their configuration, then every ConfigMap and Secret they name is rendered', () => {
    const pods = [...deployments, ...ofKind('Job')].map((o) => o.spec.template as PodTemplate);
    const references = pods.flatMap((pod) => pod.spec.containers.flatMap((c) => c.envFrom ?? []));

    for (const { configMapRef, secretRef } of references) {
      if (configMapRef) expect(named('ConfigMap', configMapRef.name), configMapRef.name).toBeDefined();
      if (secretRef) expect(named('Secret', secretRef.name), secretRef.name).toBeDefined();
    }
  });

  it('when a pod connects to Postgres, then only the migrate Jobs hold the migration connection, each with its service role', () => {
    const secretsOf = (o: K8sObject) =>
      (o.spec.template as PodTemplate).spec.containers
        .flatMap((c) => c.envFrom ?? [])
        .flatMap((from) => (from.secretRef ? [from.secretRef.name] : []));
    const holders = [...deployments, ...ofKind('Job')].filter((o) =>
      secretsOf(o).some((name) => name.startsWith('database-migration-secrets')),
    );

    expect(holders.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(SERVICES.map((name) => `Job/${name}-migrate`).sort());
    for (const job of holders) {
      const service = job.metadata.name.replace(/-migrate$/, '');
      expect(
        secretsOf(job).some((name) => name.startsWith(`${service}-secrets`)),
        job.metadata.name,
      ).toBe(true);
    }
  });

  it.each(SERVICES)('when the %s Service routes, then it reaches the server pods only, on their http port', (name) => {
    const service = named('Service', name) as K8sObject;
    const serverPods = [...deployments, ...ofKind('Job')].filter((o) =>
      matches(service.spec.selector ?? {}, o.spec.template?.metadata.labels ?? {}),
    );

    expect(serverPods.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([`Deployment/${name}`]);
    expect(service.spec.ports?.[0]?.targetPort).toBe('http');
  });

  it('when the gateway proxies, then each *_URL names a Service and its port', () => {
    const env = named('Deployment', 'gateway')?.spec.template?.spec.containers[0]?.env ?? [];
    const urls = env.filter((variable) => variable.name.endsWith('_URL')).map((variable) => new URL(variable.value ?? ''));

    expect(urls).toHaveLength(SERVICES.length - 1);
    for (const url of urls) expect(named('Service', url.hostname)?.spec.ports?.[0]?.port, url.href).toBe(Number(url.port));
  });

  it('when traffic arrives, then only the gateway pods may reach a service port and anyone may reach the gateway', () => {
    const policies = ofKind('NetworkPolicy');
    const defaultDeny = named('NetworkPolicy', 'default-deny-ingress');

    expect(defaultDeny?.spec.ingress).toBeUndefined();
    for (const deployment of deployments) {
      const labels = deployment.spec.template?.metadata.labels ?? {};
      const port = deployment.spec.template?.spec.containers[0]?.ports?.[0]?.containerPort;
      expect(matches(defaultDeny?.spec.podSelector?.matchLabels ?? {}, labels), deployment.metadata.name).toBe(true);
      const rules = policies
        .filter((p) => p !== defaultDeny && matches(p.spec.podSelector?.matchLabels ?? {}, labels))
        .flatMap((p) => p.spec.ingress ?? []);
      const expectedFrom =
        deployment.metadata.name === 'gateway'
          ? undefined
          : [{ podSelector: { matchLabels: named('Deployment', 'gateway')?.spec.selector?.matchLabels } }];
      expect(rules, deployment.metadata.name).toEqual([
        { ...(expectedFrom ? { from: expectedFrom } : {}), ports: [{ protocol: 'TCP', port }] },
      ]);
    }
  });
});
