/**
 * The text of the CHANGELOG.md section for `version`: the lines under a level-2 heading naming it
 * (`## 2.0.0`, `## [2.0.0] - 2026-11-25`, `## v2.0.0`) up to the next level-1 or level-2 heading. Sub-headings
 * alone are no text: the gate wants a sentence that says why.
 */
export function changelogEntry(markdown: string, version: string): string | undefined {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => headingVersion(line) === version);
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^#{1,2}\s/.test(line));
  const body = lines.slice(start + 1, end === -1 ? undefined : end);
  const saysSomething = body.some((line) => line.trim() !== '' && !/^#{3,}\s/.test(line));
  return saysSomething ? body.join('\n').trim() : undefined;
}

function headingVersion(line: string): string | undefined {
  return /^##\s+\[?v?(\d+\.\d+\.\d+[^\]\s]*)\]?/.exec(line)?.[1];
}
