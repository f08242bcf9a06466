import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { documentText, readDocument, writeDocument } from './document-file.ts';
import { evaluateEventGate, formatEventVerdict } from './event-contracts.ts';

/** Where a repository keeps the committed AsyncAPI document of its domain events. */
export function asyncApiSnapshotFile(root: string): string {
  return join(root, 'asyncapi', 'asyncapi.json');
}

/**
 * `check`: the document the contracts give (`generated`) against the committed snapshot. It fails on a breaking change
 * under an unchanged `schema_version` and when the snapshot is not exactly the generated document.
 */
export async function checkEventContracts(root: string, generated: unknown): Promise<{ ok: boolean; text: string }> {
  const file = asyncApiSnapshotFile(root);
  const name = relative(root, file);
  const committedText = await readFile(file, 'utf8').catch(() => undefined);
  if (committedText === undefined) return { ok: false, text: `AsyncAPI gate: no ${name}: run npm run asyncapi:snapshot and commit it` };
  const verdict = evaluateEventGate(await readDocument(file), generated);
  if (verdict.ok && committedText !== (await documentText(file, generated))) {
    verdict.ok = false;
    verdict.problems.push(`${name} is not the document the contracts give: run npm run asyncapi:snapshot and commit it`);
  }
  return { ok: verdict.ok, text: formatEventVerdict(verdict, name) };
}

/** `snapshot`: writes the generated document, unless it breaks the committed one (then nothing is written). */
export async function writeEventSnapshot(root: string, generated: unknown): Promise<{ ok: boolean; text: string }> {
  const file = asyncApiSnapshotFile(root);
  const name = relative(root, file);
  const committed = await readDocument(file).catch(() => undefined);
  if (committed !== undefined) {
    const verdict = evaluateEventGate(committed, generated);
    if (!verdict.ok) return { ok: false, text: `${formatEventVerdict(verdict, name)}\n${name} was not written.` };
  }
  await writeDocument(file, generated);
  return { ok: true, text: `Wrote ${name}. Commit it; npm test compares the contracts with it.` };
}
