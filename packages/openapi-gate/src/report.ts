import type { BreakingChange } from './breaking-change.ts';
import type { GateVerdict } from './gate.ts';

/** The gate's verdict as the terminal shows it: each breaking change in words with its JSON pointer, then why it fails. */
export function formatVerdict(verdict: GateVerdict, names: { release: string; snapshot: string }): string {
  const lines = [
    `OpenAPI gate: ${names.snapshot} (${verdict.to ?? '?'}) against the last release ${names.release} (${verdict.from ?? '?'})`,
  ];
  if (verdict.breaking.length > 0) {
    lines.push(`Breaking changes (${verdict.breaking.length}):`);
    for (const change of verdict.breaking) lines.push(...formatChange(change));
  }
  if (verdict.ok) {
    lines.push(
      verdict.breaking.length > 0
        ? `OK: released as a new major version, ${verdict.to}, with a CHANGELOG entry.`
        : 'OK: no breaking changes.',
    );
  } else {
    lines.push('FAILED:', ...verdict.problems.map((problem) => `  - ${problem}`));
  }
  return lines.join('\n');
}

function formatChange(change: BreakingChange): string[] {
  const where = change.component === undefined ? change.pointer : `${change.pointer}  (in ${change.component})`;
  return [`  - ${change.location}: ${change.message}`, `      at ${where}`];
}
