import { type BreakingChange, type Walk } from './breaking-change.ts';
import { compareParameters } from './compare-parameters.ts';
import { compareSchemas } from './compare-schemas.ts';
import { dereference, objectOf, toPointer } from './json.ts';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Everything in `after` that breaks a client written against `before`, in the order of `before`'s paths. */
export function diffDocuments(before: unknown, after: unknown): BreakingChange[] {
  const changes: BreakingChange[] = [];
  const report = (change: BreakingChange) => changes.push(change);
  const newPaths = objectOf(objectOf(after).paths);
  // `/bookings/{id}` and `/bookings/{bookingId}` are one endpoint: a renamed path parameter breaks no client.
  const byTemplate = new Map(Object.keys(newPaths).map((path) => [template(path), path]));
  for (const [path, oldItem] of Object.entries(objectOf(objectOf(before).paths))) {
    const newPath = byTemplate.get(template(path));
    if (newPath === undefined) {
      report({ kind: 'path-removed', location: path, message: 'the path was removed', pointer: toPointer(['paths', path]) });
      continue;
    }
    const oldPathItem = dereference(before, oldItem).value;
    const newPathItem = dereference(after, newPaths[newPath]).value;
    for (const method of METHODS.filter((name) => name in oldPathItem)) {
      const location = `${method.toUpperCase()} ${newPath}`;
      if (!(method in newPathItem)) {
        report({ kind: 'operation-removed', location, message: 'the operation was removed', pointer: toPointer(['paths', path, method]) });
        continue;
      }
      const base = { before, after, location, segments: ['paths', newPath, method], refs: new Set<string>(), report };
      compareParameters({ path, item: oldPathItem, method }, { path: newPath, item: newPathItem, method }, base);
      compareRequestBody(oldPathItem[method], newPathItem[method], base);
      compareResponses(oldPathItem[method], newPathItem[method], base);
    }
  }
  return changes;
}

type Base = Omit<Walk, 'side' | 'root' | 'field'>;

function compareRequestBody(oldOperation: unknown, newOperation: unknown, base: Base): void {
  const old = dereference(base.before, objectOf(oldOperation).requestBody).value;
  const now = dereference(base.after, objectOf(newOperation).requestBody).value;
  const segments = [...base.segments, 'requestBody'];
  if (now.required === true && old.required !== true) {
    base.report({
      kind: 'request-body-required',
      location: base.location,
      message: 'the request body is now required',
      pointer: toPointer([...segments, 'required']),
    });
  }
  const walk: Walk = { ...base, side: 'request', root: 'the body', field: '', segments };
  compareContent(old, now, walk, `${base.location}, request body`);
}

/** Only success responses: a client is written against what it gets when it worked. */
function compareResponses(oldOperation: unknown, newOperation: unknown, base: Base): void {
  const oldResponses = objectOf(objectOf(oldOperation).responses);
  const newResponses = objectOf(objectOf(newOperation).responses);
  for (const status of Object.keys(oldResponses).filter((code) => code.startsWith('2'))) {
    const segments = [...base.segments, 'responses', status];
    if (!(status in newResponses)) {
      base.report({
        kind: 'response-removed',
        location: base.location,
        message: `response ${status} was removed`,
        pointer: toPointer(segments),
      });
      continue;
    }
    const old = dereference(base.before, oldResponses[status]).value;
    const now = dereference(base.after, newResponses[status]).value;
    const walk: Walk = { ...base, side: 'response', root: 'the response', field: '', segments };
    compareContent(old, now, walk, `${base.location}, response ${status}`);
  }
}

/** Each media type of the old body or response must still be there, with a compatible schema. */
function compareContent(before: Record<string, unknown>, after: Record<string, unknown>, walk: Walk, location: string): void {
  const newContent = objectOf(after.content);
  for (const [mediaType, media] of Object.entries(objectOf(before.content))) {
    const segments = [...walk.segments, 'content', mediaType];
    if (!(mediaType in newContent)) {
      const message = `${mediaType} is no longer ${walk.side === 'request' ? 'accepted' : 'returned'}`;
      walk.report({ kind: 'media-type-removed', location, message, pointer: toPointer(segments) });
      continue;
    }
    const inner = { ...walk, location: `${location} (${mediaType})`, segments: [...segments, 'schema'] };
    compareSchemas(objectOf(media).schema, objectOf(newContent[mediaType]).schema, inner);
  }
}

function template(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}');
}
