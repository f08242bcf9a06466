/**
 * Where two JSON values differ, one line each (`changed /info/version: "1.0.0" → "1.1.0"`, `added …`, `removed …`,
 * from `expected` to `actual`), with JSON pointers; at most `limit` lines, then how many more.
 */
export function jsonDifferences(expected: unknown, actual: unknown, limit = 25): string[] {
  const lines: string[] = [];
  walk(expected, actual, '', lines);
  return lines.length > limit ? [...lines.slice(0, limit), `… and ${lines.length - limit} more`] : lines;
}

function walk(expected: unknown, actual: unknown, pointer: string, lines: string[]): void {
  if (isContainer(expected) && isContainer(actual) && Array.isArray(expected) === Array.isArray(actual)) {
    const left = expected as Record<string, unknown>;
    const right = actual as Record<string, unknown>;
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (!(key in right)) lines.push(`removed ${at}: ${show(left[key])}`);
      else if (!(key in left)) lines.push(`added ${at}: ${show(right[key])}`);
      else walk(left[key], right[key], at, lines);
    }
    return;
  }
  if (JSON.stringify(expected) !== JSON.stringify(actual)) lines.push(`changed ${pointer || '/'}: ${show(expected)} → ${show(actual)}`);
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}
