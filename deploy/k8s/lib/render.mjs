// Renders a kustomization to objects with the real kustomize v5: `kubectl kustomize` (kubectl ≥ 1.27 embeds it), or a
// standalone `kustomize` binary. K8S_RENDERER=kubectl|kustomize forces one. Where neither is there, rendering fails
// with the command that installs kubectl.
import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

/** @typedef {Record<string, any>} K8sObject a rendered object (its shape is what the schema check is for) */
/** @typedef {{ name: string, render: (dir: string) => K8sObject[] }} Renderer */

const INSTALL_HINT =
  'No kustomize v5 on this machine: install kubectl ≥ 1.27 (it embeds kustomize v5) — ' +
  "Debian/Ubuntu: see https://kubernetes.io/docs/tasks/tools/install-kubectl-linux/ (Debian's own kubernetes-client " +
  'package embeds an older kustomize that lacks the `labels` and `replicas` fields used here); macOS: `brew install kubectl`; ' +
  'Windows: `winget install Kubernetes.kubectl` — or a standalone kustomize v5 (`brew install kustomize`).';

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

/** @type {Record<string, () => Renderer | null>} */
const candidates = {
  // Older kubectl embeds kustomize v2/v3, which lacks the `labels` and `replicas` fields these manifests use.
  kubectl: () =>
    /Kustomize Version: v5/.test(run('kubectl', ['version', '--client']).stdout)
      ? binaryRenderer('kubectl', 'kubectl', ['kustomize'])
      : null,
  kustomize: () => (/v5\./.test(run('kustomize', ['version']).stdout) ? binaryRenderer('kustomize', 'kustomize', ['build']) : null),
};

/**
 * `kubectl kustomize`, else a standalone kustomize v5; throws, naming how to install kubectl, when neither is there.
 * @param {string | undefined} [forced]
 * @returns {Renderer}
 */
export function findRenderer(forced = process.env.K8S_RENDERER) {
  const renderer = forced ? candidates[forced]?.() : (candidates.kubectl() ?? candidates.kustomize());
  if (!renderer) throw new Error(forced ? `K8S_RENDERER=${forced} is not available on this machine. ${INSTALL_HINT}` : INSTALL_HINT);
  return renderer;
}
