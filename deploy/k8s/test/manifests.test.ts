import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findRealRenderer, findRenderer } from '../lib/render.mjs';
import { kustomizations, validateKustomization } from '../validate.mjs';

const HERE = join(import.meta.dirname, '..');
const fixture = (name: string) => join(import.meta.dirname, 'fixtures', name);
const renderer = findRenderer();
const real = findRealRenderer();
const subset = findRenderer('subset');
const dirs = kustomizations().map((dir) => relative(HERE, dir));

type K8sObject = { kind: string; metadata: { name: string; namespace?: string } };
const byKey = (objects: K8sObject[]) => new Map(objects.map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]));

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

describe('subset renderer', () => {
  // The subset renderer is checked against a committed rendering by real kustomize (kubectl kustomize), so the
  // check runs where no kustomize is installed; where one is, the committed rendering is checked against it too.
  // `UPDATE_RENDERED=1` with a real kustomize rewrites the committed files after a manifest change.
  it.each(dirs)('when %s is rendered, then the output equals the real kustomize output', (dir) => {
    const file = join(import.meta.dirname, 'rendered', `${dir.replaceAll('/', '_')}.json`);
    if (real && process.env.UPDATE_RENDERED) writeFileSync(file, `${JSON.stringify(real.render(join(HERE, dir)), null, 2)}\n`);
    const committed = JSON.parse(readFileSync(file, 'utf8')) as K8sObject[];
    if (real) expect(JSON.parse(JSON.stringify(real.render(join(HERE, dir))))).toEqual(committed);
    const expected = byKey(committed);
    const actual = byKey(JSON.parse(JSON.stringify(subset.render(join(HERE, dir)))));

    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, object] of actual) expect(object, key).toEqual(expected.get(key));
  });

  it('when a kustomization uses a field outside the subset, then rendering fails naming it', () => {
    expect(() => subset.render(fixture('unsupported-field'))).toThrow(/field "namePrefix" is not supported/);
  });
});
