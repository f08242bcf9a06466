// The widget's Subresource Integrity hash (sha384 of dist/booking.js), which docs/booking-widget.md prints for
// embedders. `npm run integrity -w @app/booking-widget` (after a build) writes it into the docs; a test checks they agree.
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';

export const BUNDLE = new URL('./dist/booking.js', import.meta.url);
export const DOCS = new URL('../../docs/booking-widget.md', import.meta.url);
/** The docs line that carries the hash: `integrity="sha384-…"`. */
export const DOCS_HASH = /integrity="(sha384-[A-Za-z0-9+/=]+)"/g;

export function integrityOf(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

export async function bundleIntegrity() {
  return integrityOf(await readFile(BUNDLE));
}

if (process.argv.includes('--write')) {
  const hash = await bundleIntegrity();
  const docs = await readFile(DOCS, 'utf8');
  await writeFile(DOCS, docs.replace(DOCS_HASH, `integrity="${hash}"`));
  console.log(hash);
}
