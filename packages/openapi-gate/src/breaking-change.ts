import { toPointer } from './json.ts';

/** What breaks an existing client. Request side: the API accepts less; response side: it returns less, or other values. */
export type BreakingKind =
  | 'path-removed'
  | 'operation-removed'
  | 'response-removed'
  | 'media-type-removed'
  | 'response-field-removed'
  | 'response-field-optional'
  | 'request-body-required'
  | 'request-field-required'
  | 'request-field-removed'
  | 'parameter-required'
  | 'type-narrowed'
  | 'type-widened'
  | 'enum-narrowed'
  | 'enum-widened'
  | 'constraint-tightened';

/** One breaking change between two documents, said in plain words with where it is. */
export interface BreakingChange {
  kind: BreakingKind;
  /** The operation and part, e.g. `POST /api/v1/bookings, request body (application/json)`. */
  location: string;
  message: string;
  /** JSON pointer as if every `$ref` were inlined: into the new document, or the old one for what was removed. */
  pointer: string;
  /** The component the change is in, when it was reached through a `$ref`. */
  component?: string;
}

/** Where a schema comparison stands: which side, which documents, the path so far, and where to report. */
export interface Walk {
  side: 'request' | 'response';
  before: unknown;
  after: unknown;
  location: string;
  /** What the schema at the start of the walk is called: `the body`, `the value`, `the response`. */
  root: string;
  segments: string[];
  /** `attendee.phone`, `data[].status`; empty at the root. */
  field: string;
  component?: string;
  /** `$ref` pairs on the way here: a recursive schema is compared once per path. */
  refs: ReadonlySet<string>;
  report: (change: BreakingChange) => void;
}

/** The thing a message is about: the field, or the walk's root. */
export function subject(walk: Walk): string {
  return walk.field ? `field \`${walk.field}\`` : walk.root;
}

/** Reports `message` at the walk's place, `extra` pointer segments further in. */
export function report(walk: Walk, kind: BreakingKind, message: string, ...extra: string[]): void {
  walk.report({
    kind,
    location: walk.location,
    message,
    pointer: toPointer([...walk.segments, ...extra]),
    ...(walk.component === undefined ? {} : { component: walk.component }),
  });
}
