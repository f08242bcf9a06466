// The transformers of the kustomize subset (see kustomize-subset.mjs), each as kustomize v5 applies it.
import { createHash } from 'node:crypto';

const TEMPLATED = new Set(['Deployment', 'ReplicaSet', 'DaemonSet', 'StatefulSet', 'Job', 'ReplicationController']);
const SCALABLE = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'IngressClass',
  'PriorityClass',
]);

function podSpecOf(object) {
  if (object.kind === 'Pod') return object.spec;
  if (object.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template?.spec;
  return TEMPLATED.has(object.kind) ? object.spec?.template?.spec : undefined;
}

export function applyNamespace(objects, namespace) {
  for (const object of objects) if (!CLUSTER_SCOPED.has(object.kind)) object.metadata = { ...object.metadata, namespace };
}

export function applyLabels(dir, objects, { pairs = {}, includeSelectors = false, includeTemplates = false, ...rest }) {
  if (includeSelectors || Object.keys(rest).length > 0)
    throw new Error(`${dir}: labels with selectors or fieldSpecs are not supported by the subset renderer`);
  for (const object of objects) {
    object.metadata.labels = { ...object.metadata.labels, ...pairs };
    if (!includeTemplates) continue;
    if (object.kind === 'CronJob') throw new Error(`${dir}: template labels of a CronJob are not supported by the subset renderer`);
    const template = TEMPLATED.has(object.kind) ? object.spec?.template : undefined;
    if (template) template.metadata = { ...template.metadata, labels: { ...template.metadata?.labels, ...pairs } };
  }
}

export function applyReplicas(dir, objects, replicas) {
  for (const { name, count } of replicas) {
    const matches = objects.filter((object) => SCALABLE.has(object.kind) && object.metadata?.name === name);
    if (matches.length === 0) throw new Error(`${dir}: replicas entry "${name}" matches no workload`);
    for (const object of matches) object.spec.replicas = count;
  }
}

/** `registry/name:tag@digest` → name and the rest, as kustomize's image transformer splits it. */
function splitImage(image) {
  const at = image.indexOf('@');
  const withoutDigest = at === -1 ? image : image.slice(0, at);
  const colon = withoutDigest.lastIndexOf(':');
  const name = colon > withoutDigest.lastIndexOf('/') ? withoutDigest.slice(0, colon) : withoutDigest;
  return { name, tag: name === withoutDigest ? '' : withoutDigest.slice(colon + 1), digest: at === -1 ? '' : image.slice(at + 1) };
}

export function applyImages(objects, images) {
  const containers = objects.flatMap((object) => {
    const spec = podSpecOf(object);
    return spec ? [...(spec.initContainers ?? []), ...(spec.containers ?? [])] : [];
  });
  for (const container of containers) {
    const { name, tag, digest } = splitImage(container.image);
    const rule = images.find((image) => image.name === name);
    if (!rule) continue;
    const newName = rule.newName ?? name;
    if (rule.digest) container.image = `${newName}@${rule.digest}`;
    else if (rule.newTag) container.image = `${newName}:${rule.newTag}`;
    else container.image = `${newName}${tag ? `:${tag}` : ''}${digest ? `@${digest}` : ''}`;
  }
}

/** Go's json.Marshal of a map: sorted keys, and <, >, & escaped as it does by default. */
function goJson(value) {
  if (value === null || typeof value !== 'object')
    return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const entries = Object.keys(value)
    .sort()
    .map((key) => `${goJson(key)}:${goJson(value[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * kustomize's name suffix: the first 10 hex digits of a SHA-256, with the characters that spell words replaced.
 * kustomize v5 hashes an empty name (two generators with the same data get the same suffix): so does this.
 */
function nameHash(object) {
  const content = { kind: object.kind, name: '', data: object.data ?? {} };
  if (object.kind === 'Secret') content.type = object.type;
  const hex = createHash('sha256').update(goJson(content)).digest('hex').slice(0, 10);
  return hex.replace(/[013ae]/g, (c) => ({ 0: 'g', 1: 'h', 3: 'k', a: 'm', e: 't' })[c]);
}

function renameReferences(objects, kind, from, to) {
  const refKey = kind === 'Secret' ? 'secretRef' : 'configMapRef';
  const keyRefKey = kind === 'Secret' ? 'secretKeyRef' : 'configMapKeyRef';
  for (const spec of objects.map(podSpecOf).filter(Boolean)) {
    for (const container of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
      for (const source of container.envFrom ?? []) if (source[refKey]?.name === from) source[refKey].name = to;
      for (const variable of container.env ?? [])
        if (variable.valueFrom?.[keyRefKey]?.name === from) variable.valueFrom[keyRefKey].name = to;
    }
    for (const volume of spec.volumes ?? []) {
      if (kind === 'ConfigMap' && volume.configMap?.name === from) volume.configMap.name = to;
      if (kind === 'Secret' && volume.secret?.secretName === from) volume.secret.secretName = to;
      for (const source of volume.projected?.sources ?? [])
        if (source[kind === 'Secret' ? 'secret' : 'configMap']?.name === from) source[kind === 'Secret' ? 'secret' : 'configMap'].name = to;
    }
  }
}

/** Suffixes each generated object's name with its content hash and points every reference at the new name. */
export function finishGenerated(objects, marker) {
  for (const object of objects.filter((o) => o[marker])) {
    const from = object.metadata.name;
    const to = `${from}-${nameHash(object)}`;
    object.metadata.name = to;
    renameReferences(objects, object.kind, from, to);
  }
  return objects.map((object) => ({ ...object }));
}
