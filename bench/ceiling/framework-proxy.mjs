// The least the gateway's own framework can do: Fastify and @fastify/http-proxy (the stack's required proxy) in front
// of bare-service.mjs, with none of the gateway's features (no auth, caller assertion, rate limit, CORS, logs or
// metrics). Between bare-proxy.mjs and the gateway it splits the gateway's cost into what the framework takes and what
// the features add. Run by bench/run.mjs; never part of the stack.
import proxy from '@fastify/http-proxy';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
await app.register(proxy, { upstream: process.env.UPSTREAM_URL });
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.log('ready');
