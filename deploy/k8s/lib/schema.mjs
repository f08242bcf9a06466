// Validation of rendered objects against the Kubernetes API schemas, from two maintained npm packages:
// - kubernetes-models: the OpenAPI schemas compiled to validators (types, required fields, enums, formats);
// - @kubernetes/client-node: the generated model metadata, for unknown fields, which the OpenAPI schemas allow
//   but an API server rejects (kubectl's default field validation is Strict) or, worse, silently drops.
import * as clientNode from '@kubernetes/client-node';
import * as models from 'kubernetes-models';

/** @typedef {Record<string, unknown>} K8sObject */

/** The kubernetes-models class of an apiVersion/kind, e.g. apps/v1 Deployment → models.apps.v1.Deployment. */
function modelOf(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const groupKey = group === '' ? null : group.replace(/\.(\w)/g, (_, c) => c.toUpperCase());
  const byVersion = groupKey === null ? models : models[groupKey];
  return byVersion?.[version]?.[kind];
}

/** The client-node class name of an apiVersion/kind, e.g. apps/v1 Deployment → V1Deployment. */
function clientClassOf(apiVersion, kind) {
  const version = apiVersion.split('/').pop() ?? '';
  return clientNode[`${version[0]?.toUpperCase()}${version.slice(1)}${kind}`];
}

/** Paths of the fields of `value` that its client-node model `type` does not declare. */
function unknownFields(value, type, path, found) {
  if (value === null || typeof value !== 'object') return found;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (Array.isArray(value)) value.forEach((item, i) => unknownFields(item, array[1], `${path}/${i}`, found));
    return found;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    for (const [key, item] of Object.entries(value)) unknownFields(item, map[1], `${path}/${key}`, found);
    return found;
  }
  const model = clientNode[type];
  // Scalars, IntOrString and free-form objects have no attribute map; a wrong type is the schema check's to report.
  if (typeof model?.getAttributeTypeMap !== 'function' || Array.isArray(value)) return found;
  const attributes = new Map(model.getAttributeTypeMap().map((attribute) => [attribute.baseName, attribute.type]));
  for (const [key, item] of Object.entries(value)) {
    const itemType = attributes.get(key);
    if (itemType === undefined) found.push(`${path}/${key}: unknown field`);
    else unknownFields(item, itemType, `${path}/${key}`, found);
  }
  return found;
}

/**
 * Every problem of one object, as readable lines (empty when valid).
 * @param {K8sObject} object
 * @returns {string[]}
 */
export function validateObject(object) {
  const { apiVersion, kind } = object;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return ['apiVersion and kind must be strings'];
  const Model = modelOf(apiVersion, kind);
  const ClientClass = clientClassOf(apiVersion, kind);
  // An object of a kind no schema knows is an error, not a pass: a typo in apiVersion must not slip through.
  if (!Model || typeof ClientClass?.getAttributeTypeMap !== 'function') return [`no Kubernetes schema for ${apiVersion} ${kind}`];
  const problems = [];
  try {
    new Model(object).validate();
  } catch (error) {
    // ajv names the root `data`; the paths here start at the object's root, like the unknown-field ones.
    const message = String(error instanceof Error ? error.message : error);
    problems.push(...message.split(/, (?=data)/).map((line) => line.replace(/^data(?=[/ ])/, '').replace(/^ /, '/ ')));
  }
  problems.push(...unknownFields(object, ClientClass.name, '', []));
  return problems;
}
