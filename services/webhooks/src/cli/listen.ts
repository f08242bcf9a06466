// `npm run webhooks:listen -- --port 4000 --secret whsec_... [--fail]`: a local receiver that verifies and prints
// each delivery (see listener.ts). Point an endpoint at http://127.0.0.1:4000/ (plain http and private targets are
// allowed outside production) with the endpoint's secret from GET /api/v1/webhook-endpoints/{id}/secret.
import { parseArgs } from 'node:util';
import { startListener } from './listener.js';

const USAGE = 'usage: npm run webhooks:listen -- --secret whsec_... [--port 4000] [--host 127.0.0.1] [--fail]';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4000' },
    host: { type: 'string', default: '127.0.0.1' },
    secret: { type: 'string' },
    fail: { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
if (!values.secret?.startsWith('whsec_') || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(USAGE);
  process.exit(2);
}
const listener = await startListener({
  port,
  host: values.host,
  secret: values.secret,
  fail: values.fail,
  print: (line) => console.log(line),
});
console.log(`Listening for webhooks on ${listener.url}${values.fail ? ' (answering 500 to every delivery)' : ''}; Ctrl-C stops.`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void listener.close().then(() => process.exit(0)));
