// The browser build (`dist/browser.js`, the `browser` export condition): the SDK and openapi-fetch in one ES module.
// platform: 'browser' makes any Node built-in an error here rather than in a visitor's browser.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('./dist/index.js', import.meta.url).pathname],
  outfile: new URL('./dist/browser.js', import.meta.url).pathname,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  sourcemap: true,
  legalComments: 'eof',
  logLevel: 'warning',
});
