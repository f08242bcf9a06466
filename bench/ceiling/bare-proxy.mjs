// The least a gateway could do: node:http in, an undici pool out, the answer streamed back. No auth, no
// rate limit, no logs, no metrics. Run by bench/run.mjs in front of bare-service.mjs.
import http from 'node:http';
import { Pool } from 'undici';

const upstream = new Pool(process.env.UPSTREAM_URL, { connections: 64 });

http
  .createServer(async (request, response) => {
    try {
      const answer = await upstream.request({
        path: request.url,
        method: request.method,
        headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
        body: request.method === 'GET' ? null : request,
      });
      response.writeHead(answer.statusCode, answer.headers);
      for await (const chunk of answer.body) response.write(chunk);
      response.end();
    } catch {
      response.writeHead(503).end();
    }
  })
  .listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
