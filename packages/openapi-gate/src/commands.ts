import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { latestRelease, readDocument, writeDocument } from './document-file.ts';
import { evaluateGate } from './gate.ts';
import { objectOf } from './json.ts';
import { formatVerdict } from './report.ts';
import { compareVersions, parseVersion } from './version.ts';

/** Where a repository keeps its snapshot, its releases and its changelog. */
function repositoryFiles(root: string) {
  return {
    snapshot: join(root, 'openapi', 'openapi.json'),
    releases: join(root, 'openapi', 'releases'),
    changelog: join(root, 'CHANGELOG.md'),
  };
}

/** `check`: the committed snapshot against the last release, under the gate's rule. */
export async function checkRepository(root: string): Promise<{ ok: boolean; text: string }> {
  const files = repositoryFiles(root);
  const name = (file: string) => relative(root, file);
  const release = await latestRelease(files.releases);
  if (!release) {
    return { ok: false, text: `OpenAPI gate: no release in ${name(files.releases)}/ to compare with: run npm run openapi:release` };
  }
  const verdict = evaluateGate({
    release: { name: name(release.file), document: await readDocument(release.file) },
    snapshot: { name: name(files.snapshot), document: await readDocument(files.snapshot) },
    changelog: { name: name(files.changelog), text: await readFile(files.changelog, 'utf8').catch(() => '') },
  });
  return { ok: verdict.ok, text: formatVerdict(verdict, { release: name(release.file), snapshot: name(files.snapshot) }) };
}

/** `release`: the snapshot becomes the baseline `openapi/releases/<info.version>.json` (replacing one of that version). */
export async function releaseSnapshot(root: string): Promise<string> {
  const files = repositoryFiles(root);
  const document = await readDocument(files.snapshot);
  const version = parseVersion(objectOf(objectOf(document).info).version);
  if (!version) throw new Error(`${relative(root, files.snapshot)}: info.version is not a version like 1.2.3`);
  const latest = await latestRelease(files.releases);
  if (latest && compareVersions(latest.version, version) > 0) {
    throw new Error(`info.version ${version.text} is lower than the last release, ${latest.version.text}`);
  }
  const file = join(files.releases, `${version.text}.json`);
  await writeDocument(file, document);
  return `Wrote ${relative(root, file)} from ${relative(root, files.snapshot)}: it is the baseline the gate compares with now.`;
}
