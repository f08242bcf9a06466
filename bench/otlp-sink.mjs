// A stand-in collector for measuring what tracing costs (docs/operations.md, Tracing): accepts OTLP/HTTP trace exports on
// 127.0.0.1:<port> (default 4318, protobuf or JSON), answers 200 and only counts requests and bytes, printed every
// 10 s and at Ctrl-C. Run it, then the bench with OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:<port>.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 4318);
let exports = 0;
let bytes = 0;
const server = createServer((request, response) => {
  request.on('data', (chunk) => (bytes += chunk.length));
  request.on('end', () => {
    exports += 1;
    const json = request.headers['content-type'] === 'application/json';
    response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : '');
  });
});
const report = () => console.log(`otlp-sink: ${exports} exports, ${(bytes / 1e6).toFixed(1)} MB`);
const timer = setInterval(report, 10_000);
process.once('SIGINT', () => {
  clearInterval(timer);
  report();
  server.close(() => process.exit(0));
});
server.listen(port, '127.0.0.1', () => console.log(`otlp-sink: listening on http://127.0.0.1:${port}`));
