// A renderer for exactly the part of kustomize that these manifests use, for machines without a kustomize binary:
// resources (files and folders), namespace, labels (includeTemplates), images, replicas, configMapGenerator and
// secretGenerator (literals, behavior create/merge/replace, options.labels) and strategic-merge patches of maps.
// Any other field fails loudly rather than render something kustomize would render differently.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { applyImages, applyLabels, applyNamespace, applyReplicas, finishGenerated } from './kustomize-transforms.mjs';

const SUPPORTED = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'labels',
  'images',
  'replicas',
  'patches',
  'configMapGenerator',
  'secretGenerator',
]);
const GENERATOR_FIELDS = new Set(['name', 'behavior', 'literals', 'options', 'type']);
const GENERATOR_OPTIONS = new Set(['labels']);

/** Marks objects made by a generator: their names get the content hash at the end (finishGenerated). */
const GENERATED = Symbol('generated');

function unsupported(dir, what) {
  throw new Error(`${dir}: ${what} is not supported by the subset renderer (install kubectl or kustomize to render it)`);
}

/** Base64 as kustomize writes it: past 70 characters, folded into lines of 70, each ended by a newline (hashed so). */
function base64Folded(value) {
  const encoded = Buffer.from(value).toString('base64');
  return encoded.length <= 70 ? encoded : `${encoded.match(/.{1,70}/g)?.join('\n')}\n`;
}

function readYamlDocuments(file) {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((document) => document.toJS())
    .filter((object) => object !== null && object !== undefined);
}

function loadResources(dir, entries = []) {
  return entries.flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? renderLevel(path) : readYamlDocuments(path);
  });
}

function findObject(objects, kind, name) {
  return objects.find((object) => object.kind === kind && object.metadata?.name === name);
}

function generate(dir, objects, kind, generator) {
  for (const field of Object.keys(generator)) if (!GENERATOR_FIELDS.has(field)) unsupported(dir, `${kind} generator field "${field}"`);
  for (const option of Object.keys(generator.options ?? {}))
    if (!GENERATOR_OPTIONS.has(option)) unsupported(dir, `generator option "${option}"`);
  const data = Object.fromEntries(
    (generator.literals ?? []).map((literal) => {
      const at = literal.indexOf('=');
      if (at < 1) throw new Error(`${dir}: literal "${literal}" is not KEY=VALUE`);
      const value = literal.slice(at + 1);
      return [literal.slice(0, at), kind === 'Secret' ? base64Folded(value) : value];
    }),
  );
  const labels = generator.options?.labels ?? {};
  const behavior = generator.behavior ?? 'create';
  if (behavior === 'create') {
    if (findObject(objects, kind, generator.name))
      throw new Error(`${dir}: ${kind} ${generator.name} already exists (use behavior merge or replace)`);
    const metadata = { name: generator.name, ...(Object.keys(labels).length ? { labels } : {}) };
    const object = { apiVersion: 'v1', kind, metadata, ...(kind === 'Secret' ? { type: generator.type ?? 'Opaque' } : {}), data };
    objects.push(Object.assign(object, { [GENERATED]: true }));
    return;
  }
  const existing = findObject(objects, kind, generator.name);
  if (!existing) throw new Error(`${dir}: ${kind} ${generator.name} to ${behavior} does not exist`);
  if (behavior !== 'merge' && behavior !== 'replace') unsupported(dir, `generator behavior "${behavior}"`);
  existing.data = behavior === 'merge' ? { ...existing.data, ...data } : data;
  if (Object.keys(labels).length) existing.metadata.labels = { ...existing.metadata.labels, ...labels };
}

/** Strategic merge restricted to maps: lists would need each field's merge key, which this renderer does not know. */
function mergeMaps(target, patch, where) {
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$') || Array.isArray(value)) throw new Error(`${where}: patch field "${key}": only maps of scalars can be patched`);
    if (value !== null && typeof value === 'object') target[key] = mergeMaps(target[key] ?? {}, value, where);
    else if (value === null) delete target[key];
    else target[key] = value;
  }
  return target;
}

function applyPatches(dir, objects, patches = []) {
  for (const entry of patches) {
    if (entry.target || !entry.path) unsupported(dir, 'a patch without `path`, or with `target`');
    for (const patch of readYamlDocuments(join(dir, entry.path))) {
      const object = findObject(objects, patch.kind, patch.metadata?.name);
      if (!object) throw new Error(`${dir}: patch ${entry.path} matches no ${patch.kind} ${patch.metadata?.name}`);
      const { apiVersion: _apiVersion, kind: _kind, metadata, ...rest } = patch;
      const { name: _name, ...metadataRest } = metadata;
      mergeMaps(object, { ...rest, ...(Object.keys(metadataRest).length ? { metadata: metadataRest } : {}) }, `${dir}/${entry.path}`);
    }
  }
}

/** One kustomization and its resources, before hashing: what a parent kustomization builds on. */
function renderLevel(dir) {
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8'));
  for (const field of Object.keys(kustomization)) if (!SUPPORTED.has(field)) unsupported(dir, `field "${field}"`);
  const objects = loadResources(dir, kustomization.resources);
  for (const generator of kustomization.configMapGenerator ?? []) generate(dir, objects, 'ConfigMap', generator);
  for (const generator of kustomization.secretGenerator ?? []) generate(dir, objects, 'Secret', generator);
  applyPatches(dir, objects, kustomization.patches);
  if (kustomization.namespace) applyNamespace(objects, kustomization.namespace);
  for (const entry of kustomization.labels ?? []) applyLabels(dir, objects, entry);
  applyReplicas(dir, objects, kustomization.replicas ?? []);
  applyImages(objects, kustomization.images ?? []);
  return objects;
}

/**
 * Renders the kustomization in `dir` like `kustomize build` does, for the supported subset.
 * @param {string} dir
 * @returns {Record<string, unknown>[]}
 */
export function renderSubset(dir) {
  return finishGenerated(renderLevel(dir), GENERATED);
}
