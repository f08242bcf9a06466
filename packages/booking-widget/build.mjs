// One minified ES module, dist/booking.js, with the SDK's browser build inside (the `browser` export condition):
// what the gateway serves at /widget/booking.js. platform 'browser' refuses any Node built-in.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: new URL('./dist/booking.js', import.meta.url).pathname,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  conditions: ['browser'],
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
