import type { Walk } from './breaking-change.ts';
import { compareSchemas } from './compare-schemas.ts';
import { arrayOf, dereference, objectOf, toPointer, type JsonObject } from './json.ts';

/** An operation as the parameters see it: its path template, its path item and its method. */
export interface OperationAt {
  path: string;
  item: JsonObject;
  method: string;
}

interface Parameter {
  label: string;
  required: boolean;
  schema: unknown;
  /** Where the parameter is in its document, and its schema. */
  at: string[];
  segments: string[];
}

/** A new required parameter, an optional one made required, or a parameter that accepts less. */
export function compareParameters(before: OperationAt, after: OperationAt, base: Omit<Walk, 'side' | 'root' | 'field'>): void {
  const old = parametersOf(base.before, before);
  for (const [key, parameter] of parametersOf(base.after, after)) {
    const previous = old.get(key);
    const location = `${base.location}, ${parameter.label}`;
    if (parameter.required && !previous?.required) {
      const message = previous ? 'the parameter is now required' : 'a new required parameter';
      base.report({ kind: 'parameter-required', location, message, pointer: toPointer(parameter.at) });
    }
    if (previous)
      compareSchemas(previous.schema, parameter.schema, {
        ...base,
        side: 'request',
        root: 'the value',
        field: '',
        location,
        segments: parameter.segments,
      });
  }
}

/**
 * Path-item and operation parameters (the operation's win), keyed by where they go: a path parameter by its
 * place in the template (renaming it breaks no client), a header case-insensitively.
 */
function parametersOf(document: unknown, { path, item, method }: OperationAt): Map<string, Parameter> {
  const placeholders = [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
  const parameters = new Map<string, Parameter>();
  const levels: [unknown, string[]][] = [
    [item.parameters, ['paths', path, 'parameters']],
    [objectOf(item[method]).parameters, ['paths', path, method, 'parameters']],
  ];
  for (const [list, at] of levels) {
    arrayOf(list).forEach((entry, index) => {
      const parameter = dereference(document, entry).value;
      const place = String(parameter.in);
      const name = String(parameter.name);
      const key = place === 'path' ? `path:${placeholders.indexOf(name)}` : `${place}:${place === 'header' ? name.toLowerCase() : name}`;
      const [mediaType, media] = Object.entries(objectOf(parameter.content))[0] ?? [];
      const schemaAt = mediaType === undefined ? ['schema'] : ['content', mediaType, 'schema'];
      parameters.set(key, {
        label: `${place} parameter \`${name}\``,
        required: parameter.required === true || place === 'path',
        schema: mediaType === undefined ? parameter.schema : objectOf(media).schema,
        at: [...at, String(index)],
        segments: [...at, String(index), ...schemaAt],
      });
    });
  }
  return parameters;
}
