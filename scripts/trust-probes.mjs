// `node scripts/trust-probes.mjs`: the probes of the trust-boundaries review (issue 16), run again against a running
// `npm start` stack (gateway on GATEWAY_URL, services on the next five ports) and the local Postgres. Prints one line
// per probe with what came back. NATS_PROBE_URL (a nats-server with the generated users, e.g. compose's published
// with ops/compose/publish-infra.yml) adds the NATS probes; `npm start` keeps its local NATS unauthenticated.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import pg from 'pg';

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const port = Number(new URL(gateway).port);
const service = (offset) => `http://127.0.0.1:${port + offset}`;
const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/scheduling_shop';
const org = randomUUID();
// A working key (for the trickled body to reach the body timeout, not the 401): `npm start` saves one in .dev-api-key.
const apiKey = process.env.PROBE_API_KEY ?? readFileSync(new URL('../.dev-api-key', import.meta.url), 'utf8').trim();
const results = [];
const probe = async (name, run) => {
  try {
    results.push(`${name}: ${await run()}`);
  } catch (error) {
    results.push(`${name}: threw ${error.message}`);
  }
};
const statusOf = async (url, init) => {
  const response = await fetch(url, init);
  const body = await response.text();
  return `${response.status} ${body.slice(0, 90)}`;
};

await probe('1a POST bookings on its own port with x-organization-id, no key', () =>
  statusOf(`${service(1)}/api/v1/bookings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-organization-id': org },
    body: JSON.stringify({
      schedule_id: randomUUID(),
      start_time: '2030-01-07T09:00:00Z',
      end_time: '2030-01-07T09:30:00Z',
      attendee: { name: 'A', email: 'a@example.com' },
    }),
  }),
);
await probe('1b GET scheduling schedules on its own port with x-organization-id', () =>
  statusOf(`${service(2)}/api/v1/schedules`, { headers: { 'x-organization-id': org } }),
);

// Caller assertions the gateway did not mint for that service (issue 51): each must be 401 like no assertion at all.
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = Math.floor(Date.now() / 1000);
const claims = { iss: 'gateway', aud: 'catalog', organization_id: org, key_type: 'secret', iat: now, exp: now + 60 };
const guessed = (() => {
  const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: 'dev' })}.${b64(claims)}`;
  return `${input}.${createHmac('sha256', randomBytes(32)).update(input).digest('base64url')}`;
})();
const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
await probe('1c GET catalog products on its own port with an HS256 assertion under a guessed secret', () =>
  statusOf(`${service(3)}/api/v1/products`, { headers: { 'x-caller-assertion': guessed } }),
);
await probe('1d GET catalog products on its own port with an unsigned (alg none) assertion', () =>
  statusOf(`${service(3)}/api/v1/products`, { headers: { 'x-caller-assertion': unsigned } }),
);

await probe('3a bookings role reads identity.api_keys', () => asRole('bookings', 'SELECT count(*) FROM identity.api_keys'));
await probe('3b bookings role timeouts', () =>
  asRole(
    'bookings',
    "SELECT current_setting('statement_timeout') || ' / ' || current_setting('lock_timeout') || ' / ' || current_setting('idle_in_transaction_session_timeout')",
  ),
);
await probe('3c owner of schema bookings', async () => {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  const { rows } = await client.query("SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = 'bookings'");
  await client.end();
  return rows[0]?.owner;
});

await probe('8 /%61pi/bookings/slots with a bogus key', () =>
  statusOf(`${gateway}/%61pi/bookings/slots?schedule_id=${randomUUID()}&start=2030-01-01&end=2030-01-02`, {
    headers: { authorization: 'Bearer sk_bogus_path' },
  }),
);

await probe('5 a body trickled one byte every 2 s, with a valid key', () => trickle(new URL(gateway), apiKey));

await probe('4 33 requests with bogus keys from one IP: statuses', async () => {
  const statuses = [];
  for (let i = 0; i < 33; i += 1) {
    statuses.push((await fetch(`${gateway}/api/v1/schedules`, { headers: { authorization: `Bearer sk_bogus_${i}` } })).status);
  }
  return `${statuses.filter((s) => s === 401).length}x401 then ${statuses.slice(-3).join(',')}`;
});

if (process.env.NATS_PROBE_URL) {
  const { connect } = await import('@nats-io/transport-node');
  await probe('2 an anonymous NATS client connects', async () => {
    const nc = await connect({ servers: process.env.NATS_PROBE_URL, reconnect: false, timeout: 3000 });
    await nc.close();
    return 'connected';
  });
}

console.log(results.join('\n'));

async function asRole(name, sql) {
  const { serviceDatabaseEnv } = await import('@scheduling-shop/testkit');
  const own = serviceDatabaseEnv(adminUrl, name).DATABASE_URL;
  const client = new pg.Client({ connectionString: own });
  await client.connect();
  try {
    const { rows } = await client.query(sql);
    return JSON.stringify(rows);
  } catch (error) {
    return `refused ${error.code}: ${error.message}`;
  } finally {
    await client.end();
  }
}

/** Sends headers announcing a 100-byte body, then a byte every 2 s; reports what the server did and when. */
function trickle(url, key) {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(Number(url.port), url.hostname);
    // No stack listening (or a reset): say so instead of crashing the run.
    socket.on('error', (error) => resolve(`could not send it: ${error.code ?? error.message}`));
    socket.on('connect', () => {
      socket.write(
        `POST /api/v1/schedules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
      );
      const timer = setInterval(() => socket.write('{'), 2000);
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('close', () => {
        clearInterval(timer);
        resolve(
          `closed after ${((Date.now() - started) / 1000).toFixed(1)} s, answer: ${answer.split('\r\n')[0] || '(none)'} ${answer.slice(answer.indexOf('{'), answer.indexOf('{') + 60)}`,
        );
      });
    });
  });
}
