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
