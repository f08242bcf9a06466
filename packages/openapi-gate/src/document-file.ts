import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import prettier from 'prettier';
import { compareVersions, parseVersion, type Version } from './version.ts';

/**
 * Writes an OpenAPI document as the repository keeps it: 2-space JSON run through prettier with the
 * repository's settings, so `prettier --check .` passes and the same document always gives the same bytes.
 */
export async function writeDocument(file: string, document: unknown): Promise<void> {
  const text = await documentText(file, document);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** The bytes `writeDocument` writes for `document` at `file`. */
export async function documentText(file: string, document: unknown): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(`${JSON.stringify(document, null, 2)}\n`, { ...options, filepath: file });
}

export async function readDocument(file: string): Promise<unknown> {
  const text = await readFile(file, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The highest `<version>.json` in the releases folder; undefined when there is none. */
export async function latestRelease(folder: string): Promise<{ version: Version; file: string } | undefined> {
  const names = await readdir(folder).catch(() => []);
  const releases = names.flatMap((name) => {
    const version = name.endsWith('.json') ? parseVersion(name.slice(0, -'.json'.length)) : undefined;
    return version ? [{ version, file: join(folder, name) }] : [];
  });
  return releases.sort((a, b) => compareVersions(b.version, a.version))[0];
}
