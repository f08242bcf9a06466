import type { BreakingChange } from './breaking-change.ts';
import { changelogEntry } from './changelog.ts';
import { diffDocuments } from './diff-documents.ts';
import { objectOf } from './json.ts';
import { compareVersions, parseVersion } from './version.ts';

/** A document and the name it is shown by (its path in the repository). */
interface NamedDocument {
  name: string;
  document: unknown;
}

export interface GateInput {
  /** The last released document: the baseline clients were written against. */
  release: NamedDocument;
  /** The committed snapshot of what the API serves now. */
  snapshot: NamedDocument;
  changelog: { name: string; text: string };
}

export interface GateVerdict {
  ok: boolean;
  from?: string;
  to?: string;
  breaking: BreakingChange[];
  /** Why the gate fails, one sentence each; empty when it passes. */
  problems: string[];
}

/**
 * The rule: breaking changes since the release pass only with a higher major `info.version` and a CHANGELOG
 * section for it that says why; any change of `info.version` needs that section too.
 */
export function evaluateGate({ release, snapshot, changelog }: GateInput): GateVerdict {
  const from = parseVersion(objectOf(objectOf(release.document).info).version);
  const to = parseVersion(objectOf(objectOf(snapshot.document).info).version);
  const problems: string[] = [];
  if (!from) problems.push(`${release.name}: info.version is not a version like 1.2.3`);
  if (!to) problems.push(`${snapshot.name}: info.version is not a version like 1.2.3`);
  if (!from || !to) return { ok: false, breaking: [], problems };
  const breaking = diffDocuments(release.document, snapshot.document);
  const order = compareVersions(to, from);
  if (order < 0) problems.push(`info.version ${to.text} is lower than the last release, ${from.text}`);
  if (order !== 0 && changelogEntry(changelog.text, to.text) === undefined) {
    problems.push(
      `info.version changed from ${from.text} to ${to.text}, but ${changelog.name} has no "## ${to.text}" section that says what changed and why`,
    );
  }
  if (breaking.length > 0 && to.major <= from.major) {
    const next = `${from.major + 1}.0.0`;
    problems.push(
      `${breaking.length} breaking change${breaking.length === 1 ? '' : 's'} since release ${from.text} need${breaking.length === 1 ? 's' : ''} a new major version: ` +
        `make the change backward compatible, or raise info.version to ${next}, run npm run openapi:snapshot and add a "## ${next}" section to ${changelog.name} that says why`,
    );
  }
  return { ok: problems.length === 0, from: from.text, to: to.text, breaking, problems };
}
