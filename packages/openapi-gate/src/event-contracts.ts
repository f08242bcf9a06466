import type { BreakingChange, Walk } from './breaking-change.ts';
import { compareSchemas } from './compare-schemas.ts';
import { dereference, isObject, objectOf, type JsonObject } from './json.ts';

/** The event gate's verdict: the breaking changes found, and why they (or anything else) fail it. */
export interface EventGateVerdict {
  ok: boolean;
  breaking: BreakingChange[];
  problems: string[];
}

/** One event (a channel of the AsyncAPI document): its message payload per `schema_version`. */
interface EventVersions {
  subject: string;
  current: number;
  payloads: Map<number, unknown>;
}

/**
 * The AsyncAPI gate: the generated document of the domain events against the committed one (asyncapi/asyncapi.json).
 * An event's payload may change only compatibly under the same `schema_version`: a removed or renamed field, a type
 * change, a new required field, a field that becomes required or optional, a narrower enum or bound are refused,
 * since consumers read events of the same version with one schema, whichever side was deployed first. Such a change
 * ships as the next version (`defineEvent(subject, data, { version, previous })`), whose document keeps the version
 * before as it was (consumers accept the current and the previous version). An event may not disappear.
 */
export function evaluateEventGate(committed: unknown, generated: unknown): EventGateVerdict {
  const before = eventsOf(committed);
  const after = eventsOf(generated);
  const breaking: BreakingChange[] = [];
  const problems: string[] = [];
  for (const old of before.values()) {
    const now = after.get(old.subject);
    if (!now) {
      problems.push(`${old.subject} was removed: its consumers (and subscribers) still read it`);
      continue;
    }
    if (now.current < old.current) {
      problems.push(`${old.subject}: schema_version went back from ${old.current} to ${now.current}`);
    } else if (now.current > old.current + 1) {
      problems.push(
        `${old.subject}: schema_version jumped from ${old.current} to ${now.current}; consumers accept only ${now.current} and ` +
          `${now.current - 1}, so version ${old.current} events still in the streams would be refused`,
      );
    } else if (now.current === old.current + 1 && !now.payloads.has(old.current)) {
      problems.push(
        `${old.subject}: schema_version ${now.current} must keep version ${old.current} readable ` +
          `(defineEvent(subject, data, { version: ${now.current}, previous: { data, upgrade } }))`,
      );
    } else {
      // Same version: its payload may change only compatibly. Next version: the previous one stays as it was.
      const changes = comparePayloads(old.subject, old.current, old.payloads.get(old.current), now.payloads.get(old.current), {
        before: committed,
        after: generated,
      });
      breaking.push(...changes);
      if (changes.length === 0) continue;
      problems.push(
        now.current === old.current
          ? `${old.subject}: ${changes.length} breaking change${changes.length === 1 ? '' : 's'} under schema_version ${old.current}: ` +
              `publish the new shape as schema_version ${old.current + 1}, with version ${old.current} as its previous version and an upgrade`
          : `${old.subject}: the previous version, ${old.current}, must stay as it was published (${changes.length} change${changes.length === 1 ? '' : 's'})`,
      );
    }
  }
  return { ok: problems.length === 0, breaking, problems };
}

/** The verdict in words, each breaking change with its field and JSON pointer. */
export function formatEventVerdict(verdict: EventGateVerdict, snapshot: string): string {
  const lines = [`AsyncAPI gate: the domain events' contracts against ${snapshot}`];
  if (verdict.breaking.length > 0) {
    lines.push(`Breaking changes (${verdict.breaking.length}):`);
    for (const change of verdict.breaking) lines.push(`  - ${change.location}: ${change.message}`, `      at ${change.pointer}`);
  }
  lines.push(...(verdict.ok ? ['OK: no breaking changes.'] : ['FAILED:', ...verdict.problems.map((problem) => `  - ${problem}`)]));
  return lines.join('\n');
}

/**
 * Both directions: an event is written by one side and read by the other, and either may be deployed first (and
 * events of the old shape wait in streams and outboxes). So the new schema must accept all the old one did (the
 * request side: no new required field, no narrower type) and must not produce what the old one did not (the response
 * side: no removed field, no wider type).
 */
function comparePayloads(
  subject: string,
  version: number,
  before: unknown,
  after: unknown,
  documents: { before: unknown; after: unknown },
) {
  const found = new Map<string, BreakingChange>();
  for (const side of ['request', 'response'] as const) {
    const walk: Walk = {
      side,
      ...documents,
      location: `${subject} (schema_version ${version})`,
      root: 'the payload',
      segments: [],
      field: '',
      refs: new Set(),
      // One change per place: a type changed is reported by both sides, once is enough.
      report: (change) => {
        if (!found.has(change.pointer)) found.set(change.pointer, change);
      },
    };
    compareSchemas(before, after, walk);
  }
  return [...found.values()];
}

/** The events of a document by subject, with the payload of each `schema_version` its channel carries. */
function eventsOf(document: unknown): Map<string, EventVersions> {
  const events = new Map<string, EventVersions>();
  for (const [key, raw] of Object.entries(objectOf(objectOf(document).channels))) {
    const channel = objectOf(raw);
    const subject = typeof channel.address === 'string' ? channel.address : key;
    const payloads = new Map<number, unknown>();
    for (const reference of Object.values(objectOf(channel.messages))) {
      const message = dereference(document, reference).value;
      const payload = dereference(document, message.payload).value;
      const version = versionOf(payload);
      if (version !== undefined) payloads.set(version, payload);
    }
    if (payloads.size > 0) events.set(subject, { subject, current: Math.max(...payloads.keys()), payloads });
  }
  return events;
}

function versionOf(payload: JsonObject): number | undefined {
  const property = objectOf(payload.properties).schema_version;
  const value = isObject(property) ? property.const : undefined;
  return typeof value === 'number' ? value : undefined;
}
