// Renders a kustomization to objects with the real kustomize when this machine has it (a `kustomize` binary, or
// `kubectl kustomize` with kustomize v5), and otherwise with the subset renderer of this folder, which a test keeps
// identical to the real one wherever both run. K8S_RENDERER=kustomize|kubectl|subset forces one.
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { renderSubset } from './kustomize-subset.mjs';

/** @typedef {Record<string, any>} K8sObject a rendered object (its shape is what the schema check is for) */
/** @typedef {{ name: string, render: (dir: string) => K8sObject[] }} Renderer */

function run(command, args) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) return { ok: false, stdout: '', stderr: String(result.error.message) };
  return { ok: result.status === 0, stdout: result.stdout, stderr: result.stderr };
}

/** Secret data unfolded as the API server decodes it: kustomize folds long base64 values into lines. */
function unfoldSecrets(objects) {
  for (const object of objects.filter((o) => o.kind === 'Secret' && o.data)) {
    for (const [key, value] of Object.entries(object.data)) if (typeof value === 'string') object.data[key] = value.replace(/\s+/g, '');
  }
  return objects;
}

/** Parses multi-document YAML into objects, failing on any syntax error. */
function parseObjects(text) {
  const objects = parseAllDocuments(text).map((document) => {
    if (document.errors.length > 0) throw new Error(`YAML: ${document.errors.map((e) => e.message).join('; ')}`);
    return document.toJS();
  });
  return unfoldSecrets(objects.filter((object) => object !== null && object !== undefined));
}

function binaryRenderer(name, command, prefixArgs) {
  return {
    name,
    render(dir) {
      const result = run(command, [...prefixArgs, dir]);
      if (!result.ok) throw new Error(`${name} failed on ${dir}:\n${result.stderr.trim()}`);
      return parseObjects(result.stdout);
    },
  };
}

/** @type {Renderer} */
const subset = { name: 'subset', render: (dir) => unfoldSecrets(renderSubset(dir)) };

/** @type {Record<string, () => Renderer | null>} */
const candidates = {
  kustomize: () => (run('kustomize', ['version']).ok ? binaryRenderer('kustomize', 'kustomize', ['build']) : null),
  // Older kubectl embeds kustomize v2/v3, which lacks the `labels` and `replicas` fields these manifests use.
  kubectl: () =>
    /Kustomize Version: v5/.test(run('kubectl', ['version', '--client']).stdout)
      ? binaryRenderer('kubectl', 'kubectl', ['kustomize'])
      : null,
  subset: () => subset,
};

/**
 * The real kustomize when one is installed, else the subset renderer; a forced choice that is missing is an error.
 * @param {string | undefined} [forced]
 * @returns {Renderer}
 */
export function findRenderer(forced = process.env.K8S_RENDERER) {
  if (forced) {
    const renderer = candidates[forced]?.();
    if (!renderer) throw new Error(`K8S_RENDERER=${forced} is not available on this machine`);
    return renderer;
  }
  return candidates.kustomize() ?? candidates.kubectl() ?? subset;
}

/**
 * The real kustomize, or undefined (then only the subset renderer runs).
 * @returns {Renderer | undefined}
 */
export function findRealRenderer() {
  return candidates.kustomize() ?? candidates.kubectl() ?? undefined;
}
