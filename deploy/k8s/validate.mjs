// `node deploy/k8s/validate.mjs [folder…]`: renders each kustomization (default: base and every overlay) and checks
// every rendered object against the Kubernetes API schemas. Exits 1 naming each problem, so CI fails loudly.
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findRenderer } from './lib/render.mjs';
import { validateObject } from './lib/schema.mjs';

const HERE = import.meta.dirname;

/** The folders of every kustomization of this repository: the base and each overlay. */
export function kustomizations() {
  const overlays = readdirSync(join(HERE, 'overlays'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return [join(HERE, 'base'), ...overlays.map((entry) => join(HERE, 'overlays', entry.name))];
}

/**
 * Renders one kustomization and validates what it renders.
 * @param {string} dir
 * @param {import('./lib/render.mjs').Renderer} [renderer]
 * @returns {{ objects: import('./lib/render.mjs').K8sObject[], problems: string[] }}
 */
export function validateKustomization(dir, renderer = findRenderer()) {
  const objects = renderer.render(dir);
  if (objects.length === 0) return { objects, problems: ['rendered no objects'] };
  const problems = objects.flatMap((object) =>
    validateObject(object).map((problem) => `${object.kind ?? '?'} ${object.metadata?.name ?? '?'}: ${problem}`),
  );
  return { objects, problems };
}

function main(dirs) {
  const renderer = findRenderer();
  let failed = false;
  for (const dir of dirs) {
    const name = relative(process.cwd(), dir) || '.';
    try {
      const { objects, problems } = validateKustomization(dir, renderer);
      if (problems.length === 0) console.log(`ok   ${name}: ${objects.length} objects valid (rendered by ${renderer.name})`);
      else console.error(`FAIL ${name}:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
      failed ||= problems.length > 0;
    } catch (error) {
      console.error(`FAIL ${name}: ${error instanceof Error ? error.message : error}`);
      failed = true;
    }
  }
  process.exitCode = failed ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  main(args.length > 0 ? args.map((dir) => resolve(dir)) : kustomizations());
}
