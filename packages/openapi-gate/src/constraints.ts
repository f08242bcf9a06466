import { report, subject, type Walk } from './breaking-change.ts';
import { isObject, type JsonObject } from './json.ts';

/** Keywords whose lower value accepts less: lowering or adding one is a narrowing. */
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
/** Keywords whose higher value accepts less: raising or adding one is a narrowing. */
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
/** Keywords whose subset relation cannot be judged: adding or changing one is taken as a narrowing. */
const EXACT = ['pattern', 'format', 'multipleOf'];

/**
 * Request side only: what a client could send before and is refused now. Response-side bounds are not
 * checked: a client reads values inside the old bounds either way, and looser ones are rarely relied on.
 */
export function compareConstraints(before: JsonObject, after: JsonObject, walk: Walk): void {
  for (const keyword of UPPER_BOUNDS) {
    const old = numberOf(before[keyword]);
    const now = numberOf(after[keyword]);
    if (now !== undefined && (old === undefined || now < old)) tightened(walk, keyword, old, now);
  }
  for (const keyword of LOWER_BOUNDS) {
    const old = numberOf(before[keyword]);
    const now = numberOf(after[keyword]);
    if (now !== undefined && (old === undefined || now > old)) tightened(walk, keyword, old, now);
  }
  for (const keyword of EXACT) {
    if (after[keyword] !== undefined && after[keyword] !== before[keyword]) tightened(walk, keyword, before[keyword], after[keyword]);
  }
  if (after.uniqueItems === true && before.uniqueItems !== true) tightened(walk, 'uniqueItems', before.uniqueItems, true);
  const allowedOthers = before.additionalProperties === true || isObject(before.additionalProperties);
  if (allowedOthers && after.additionalProperties === false) {
    report(walk, 'constraint-tightened', `${subject(walk)} no longer accepts fields other than the listed ones`, 'additionalProperties');
  }
}

function tightened(walk: Walk, keyword: string, old: unknown, now: unknown): void {
  const change =
    old === undefined ? `${keyword} ${JSON.stringify(now)} added` : `${keyword} ${JSON.stringify(old)} → ${JSON.stringify(now)}`;
  report(walk, 'constraint-tightened', `${subject(walk)} accepts less: ${change}`, keyword);
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined;
}
