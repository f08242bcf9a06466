import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRenderer } from '../lib/render.mjs';
import { kustomizations, validateKustomization } from '../validate.mjs';

const HERE = join(import.meta.dirname, '..');
const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);
const renderer = findRenderer();
const dirs = kustomizations().map((dir) => relative(HERE, dir));

describe('deploy/k8s kustomizations', () => {
  it.each(dirs)('when %s is rendered, then every object is valid against the Kubernetes schemas', (dir) => {
    const { objects, problems } = validateKustomization(join(HERE, dir), renderer);

    expect(problems).toEqual([]);
    expect(objects.length).toBeGreaterThan(30);
  });
});

describe('validation of a broken manifest', () => {
  it.each([
    ['wrong-type', 'Deployment broken: /spec/replicas must be integer'],
    ['unknown-field', 'Deployment broken: /spec/template/spec/containers/0/imagePullPolcy: unknown field'],
    ['unknown-kind', 'Deploymnet broken: no Kubernetes schema for apps/v1 Deploymnet'],
  ])('when the manifest is %s, then the problem is named', (name, problem) => {
    const { problems } = validateKustomization(fixture(name), renderer);

    expect(problems).toContain(problem);
  });

  it('when validate.mjs meets a broken manifest, then it exits 1 and prints the problem', () => {
    const result = spawnSync(process.execPath, [join(HERE, 'validate.mjs'), fixture('wrong-type')], { encoding: 'utf8' });

    expect(result.status).toBe(1);
    expect(result.stderr).toContain('/spec/replicas must be integer');
  });

  it('when validate.mjs checks the repository, then it exits 0', () => {
    const result = spawnSync(process.execPath, [join(HERE, 'validate.mjs')], { cwd: HERE, encoding: 'utf8' });

    expect(result.stderr).not.toContain('FAIL');
    expect(result.stdout).toMatch(/ok {3}base: \d+ objects valid/);
    expect(result.status).toBe(0);
  });
});

describe('caller assertion keys in the example overlay', () => {
  const objects = renderer.render(join(HERE, 'overlays', 'example')) as {
    kind: string;
    metadata: { name: string };
    data?: Record<string, string>;
  }[];
  const secretOf = (service: string) => {
    const secret = objects.find((object) => object.kind === 'Secret' && object.metadata.name.startsWith(`${service}-secrets`));
    return Object.fromEntries(Object.entries(secret?.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString()]));
  };
  const services = ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks'];

  it("when rendered, then each service's Secret holds only its own secret, the one the gateway's holds for it", () => {
    const signing = JSON.parse(secretOf('gateway').CALLER_ASSERTION_SIGNING_KEYS ?? '{}') as Record<
      string,
      { kid: string; secret: string }
    >;
    expect(Object.keys(signing).sort()).toEqual([...services].sort());
    for (const service of services) {
      const own = JSON.parse(secretOf(service).CALLER_ASSERTION_SECRETS ?? '{}') as Record<string, string>;
      expect(own, service).toEqual({ [signing[service]?.kid ?? '']: signing[service]?.secret });
    }
    expect(new Set(services.map((service) => signing[service]?.secret)).size).toBe(services.length);
    expect(secretOf('gateway')).not.toHaveProperty('CALLER_ASSERTION_SECRETS');
    // Nothing about the keys in the ConfigMap every pod reads.
    const config = objects.find((object) => object.kind === 'ConfigMap')?.data ?? {};
    expect(Object.keys(config).filter((key) => key.startsWith('CALLER_ASSERTION'))).toEqual([]);
  });
});
