// fast-check is a devDependency of the workspace root, where the test runs start (as @scheduling-shop/testkit is: see infrastructure.ts).
import fc from 'fast-check';
import { expect } from 'vitest';
import type { z } from 'zod';
import type { InjectedReply } from './service-harness.js';

/**
 * Characters that have broken storage or display before, drawn often: lone surrogate halves, NUL, the bidi controls,
 * a BOM and spaces (which names trim), next to any code point at all (lone surrogates included).
 */
const TRICKY = [
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u0000',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
  '\ufeff',
  ' ',
  '\u00a0',
  'é',
  '😀',
];
const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));
const unit = fc.oneof({ arbitrary: fc.constantFrom(...TRICKY), weight: 1 }, { arbitrary: anyCodePoint, weight: 2 });

/** Any string of up to `maxLength` code points, lone surrogates, NUL and bidi controls likely among them. */
function trickyText(maxLength = 12): fc.Arbitrary<string> {
  return fc.string({ unit, minLength: 1, maxLength });
}

type Path = (string | number)[];

/** `a.b.0`, `a.b`, `a`: how an error may name the field at `path`. */
function namesOf(path: Path): string[] {
  return path.map((_, index) => path.slice(0, index + 1).join('.'));
}

function valueAt(root: unknown, path: Path): unknown {
  let current = root;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

function withValueAt(root: unknown, path: Path, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (Array.isArray(root)) return root.map((item: unknown, index) => (index === head ? withValueAt(item, rest, value) : item));
  const copy = { ...(root as Record<string | number, unknown>) };
  copy[head] = withValueAt(copy[head], rest, value);
  return copy;
}

/** One string field of a creating route, for expectTextStoredAsValidated. */
export interface TextFieldCase {
  /** The body schema the route validates with: what it makes of a value is what must be stored. */
  schema: z.ZodType;
  /** A valid body (each call may give a fresh one: new schedule, new slot). */
  body(): Record<string, unknown>;
  /** Where the string goes in the body, and where the record shows it. */
  path: Path;
  /** Sends the body to the creating route. */
  create(body: unknown): Promise<InjectedReply>;
  /** Reads the created record back (GET), from the creating route's answer. */
  read(created: InjectedReply): Promise<InjectedReply>;
}

/**
 * Sends arbitrary strings into one field of a creating route: every answer is 2xx or 400 (never 500); the schema's
 * refusals are 400s naming the field; what it takes is a 2xx, and reads back exactly as the schema validated it.
 */
export async function expectTextStoredAsValidated(field: TextFieldCase, options: { numRuns?: number } = {}): Promise<void> {
  const name = field.path.join('.');
  await fc.assert(
    fc.asyncProperty(trickyText(), async (value) => {
      const body = withValueAt(field.body(), field.path, value);
      const parsed = field.schema.safeParse(body);
      const created = await field.create(body);
      const context = `${name} = ${JSON.stringify(value)}: ${created.status} ${JSON.stringify(created.body)}`;
      expect(created.status === 400 || (created.status >= 200 && created.status < 300), context).toBe(true);
      if (!parsed.success) expect(created.status, context).toBe(400);
      if (created.status === 400) {
        // Named by the field or a field holding it (a list's rule about its items names the list), by the schema or
        // by a rule of the use case (a URL that must be absolute). The database's refusal (the kit's last line of
        // defence) names no field: it fails here, as a value the schema should have refused.
        expect(namesOf(field.path), context).toContain((created.body.details as { path?: string }[] | undefined)?.[0]?.path);
        return;
      }
      const read = await field.read(created);
      expect(read.status, context).toBe(200);
      const expected = valueAt(parsed.data, field.path);
      expect(valueAt(read.body.data, field.path), context).toEqual(expected);
    }),
    { numRuns: options.numRuns ?? 40 },
  );
}
