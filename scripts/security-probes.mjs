// `node scripts/security-probes.mjs`: the probes of the security review of 2026-12 (issue 52), run again against a
// running `npm start` stack (GATEWAY_URL, default http://127.0.0.1:3000; ADMIN_TOKEN, default npm start's). Start it
// with WEBHOOKS_ALLOW_PRIVATE_TARGETS=false so the address guard is on, as in production:
//   WEBHOOKS_ALLOW_PRIVATE_TARGETS=false npm start   # then, in another shell:
//   node scripts/security-probes.mjs
// Run it twice: once so (the address guard's probes run; the webhook-arrival probe needs a receiver on this machine,
// which the guard refuses, and says n/a), once against a plain `npm start` (the other way round). Prints one row per
// probe with what came back. The lock-out probes run last: they spend the probing address's failure budget. Exits 1
// when any probe that ran did not get the expected answer.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import net from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

const { FormData, Blob } = globalThis;

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const adminToken = process.env.ADMIN_TOKEN ?? 'dev-admin-token';
const rows = [];

async function call(method, path, { key, body, raw, headers = {} } = {}) {
  const response = await fetch(`${gateway}${path}`, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined || raw ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: raw ?? (body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)),
  });
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json, text };
}

/** A probe this run cannot make (the guard's setting decides), with why. */
const notHere = (group, name, why) => rows.push({ group, name, ok: null, got: `n/a: ${why}` });

/** One probe: `expected(reply)` says whether the answer is the one wanted; `shown` what the table prints of it. */
async function probe(group, name, run, expected, shown = (reply) => `${reply.status} ${reply.json?.code ?? ''}`) {
  try {
    const reply = await run();
    rows.push({ group, name, ok: expected(reply), got: shown(reply) });
  } catch (error) {
    rows.push({ group, name, ok: false, got: `threw ${error.message}` });
  }
}

const is = (status) => (reply) => reply.status === status;
const chunk = (type, data) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, 'latin1'), data])), 0);
  return Buffer.concat([head, data, crc]);
};
/** A PNG declaring width × height, with `idat` as its (compressed) image data. */
const png = (width, height, idat = deflateSync(Buffer.alloc(1))) => {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
};
/** A GIF whose logical screen is width × height, with one 1×1 frame. */
const gif = (width, height) => {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  const frame = Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00]);
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, frame, Buffer.from([0x3b])]);
};
const upload = (key, bytes, filename) => {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'image/png' }), filename);
  return fetch(`${gateway}/api/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form }).then(
    async (response) => ({ status: response.status, headers: response.headers, json: await response.json().catch(() => undefined) }),
  );
};
/** A multipart upload written by hand, so a filename with a NUL reaches the server as sent. */
const rawUpload = (key, filename) => {
  const boundary = `probe${randomUUID()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
    png(1, 1),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return call('POST', '/api/v1/media', { key, raw: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
};
/** The raw answer to a request line sent as bytes (fetch would encode what the probe means to send raw). */
const rawRequest = (requestLine) =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(gateway);
    const socket = net.connect(Number(port), hostname, () =>
      socket.write(Buffer.concat([Buffer.from(requestLine, 'latin1'), Buffer.from(`\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`)])),
    );
    let text = '';
    socket.on('data', (data) => (text += data.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });

// ---- set-up: an organization with a schedule, and a webhook receiver ----
const organization = await call('POST', '/admin/v1/organizations', {
  headers: { authorization: `Bearer ${adminToken}` },
  body: { name: 'Probes' },
});
if (organization.status !== 201) throw new Error(`cannot create an organization: ${organization.status} ${organization.text}`);
const key = organization.json.data.api_key;
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const schedule = await call('POST', '/api/v1/schedules', {
  key,
  body: { name: 'Probes', timezone: 'UTC', slot_duration: 15, availability: WEEK.map((day) => ({ day, start: '00:00', end: '24:00' })) },
});
const scheduleId = schedule.json.data.id;
let slot = 0;
const quarter = () => {
  const start = new Date(Date.UTC(2031, 0, 1) + slot++ * 900_000);
  return { start_time: start.toISOString(), end_time: new Date(start.getTime() + 900_000).toISOString() };
};
const booking = (extra = {}) => ({ schedule_id: scheduleId, ...quarter(), attendee: { name: 'Pat', email: 'pat@example.com' }, ...extra });

// 1. Head-of-line blocking: 100 bookings with metadata just under the body limit, then a normal one.
const arrived = new Set();
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (data) => (body += data));
  request.on('end', () => {
    arrived.add(JSON.parse(body).data?.id);
    response.writeHead(204).end();
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${receiver.address().port}/hook`;
const local = await call('POST', '/api/v1/webhook-endpoints', { key, body: { url: hookUrl, events: ['booking.created'] } });
const guardOn = local.status === 400;
// With the guard on, the secret probes use an endpoint on a public address that is disabled: nothing is ever sent.
const endpoint = guardOn
  ? await call('POST', '/api/v1/webhook-endpoints', {
      key,
      body: { url: 'https://1.1.1.1/hook', events: ['media.deleted'], enabled: false },
    })
  : local;
const oversized = { blob: 'x'.repeat(1_048_000) };
await probe(
  '1',
  '100 bookings with 1 MB metadata (review: 201, events stuck)',
  async () => {
    let last;
    for (let i = 0; i < 100; i += 1) {
      last = await call('POST', '/api/v1/bookings', { key, body: booking({ metadata: oversized }) });
      if (last.status !== 400) break;
    }
    return last;
  },
  is(400),
);
if (guardOn) notHere('1', 'then a normal booking: its webhook arrives', 'the address guard refuses a receiver on this machine');
else
  await probe(
    '1',
    'then a normal booking: its webhook arrives',
    async () => {
      const created = await call('POST', '/api/v1/bookings', { key, body: booking() });
      const deadline = Date.now() + 10_000;
      while (!arrived.has(created.json?.data?.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      return { ...created, arrived: arrived.has(created.json?.data?.id) };
    },
    (reply) => reply.status === 201 && reply.arrived,
    (reply) => `${reply.status}, webhook ${reply.arrived ? 'arrived' : 'missing'}`,
  );

// 2. metadata size.
await probe(
  '2',
  'metadata of 17 KB (review: 201)',
  () => call('POST', '/api/v1/bookings', { key, body: booking({ metadata: { a: 'x'.repeat(17_000) } }) }),
  is(400),
);
await probe(
  '2',
  'metadata of 15 KB',
  () => call('POST', '/api/v1/bookings', { key, body: booking({ metadata: { a: 'x'.repeat(15_000) } }) }),
  is(201),
);

// 3. Lone surrogates and invalid UTF-8 (review: 500, or stored as U+FFFD).
const created = await call('POST', '/api/v1/bookings', { key, body: booking() });
const bookingId = created.json?.data?.id;
await probe(
  '3',
  'PATCH booking metadata {"k":"\\ud800"}',
  () => call('PATCH', `/api/v1/bookings/${bookingId}`, { key, body: '{"metadata":{"k":"\\ud800"}}' }),
  is(400),
);
await probe(
  '3',
  'metadata key with a lone surrogate',
  () => call('PATCH', `/api/v1/bookings/${bookingId}`, { key, body: '{"metadata":{"\\udc00":"v"}}' }),
  is(400),
);
await probe(
  '3',
  'attendee.name with a lone surrogate',
  () => call('POST', '/api/v1/bookings', { key, body: JSON.stringify(booking()).replace('"Pat"', '"Pat\\ud800"') }),
  is(400),
);
await probe(
  '3',
  'calendar_ids with a lone surrogate',
  () =>
    call('POST', '/api/v1/calendar-connections', {
      key,
      body: `{"provider":"google","schedule_id":"${scheduleId}","calendar_ids":["\\ud800"],"credentials":{"access_token":"a","refresh_token":"r","expires_at":"2031-01-01T00:00:00Z"}}`,
    }),
  is(400),
);
await probe(
  '3',
  'product name with invalid UTF-8 bytes',
  () =>
    call('POST', '/api/v1/products', {
      key,
      raw: Buffer.concat([Buffer.from('{"name":"bad'), Buffer.from([0xff, 0xfe]), Buffer.from('","price":1}')]),
    }),
  is(400),
);
await probe(
  '3',
  'event title with a lone surrogate',
  () => call('POST', '/api/v1/events', { key, body: '{"title":"t\\ud800","start_date":"2031-01-01"}' }),
  is(400),
);
await probe(
  '3',
  'webhook description with a lone surrogate',
  () => call('POST', '/api/v1/webhook-endpoints', { key, body: `{"url":"${hookUrl}","description":"d\\udfff"}` }),
  is(400),
);

// 4. Secrets are not cacheable.
const noStore = (reply) => reply.headers.get('cache-control') === 'no-store';
const cacheShown = (reply) => `${reply.status} cache-control: ${reply.headers.get('cache-control')}`;
const idempotencyKey = randomUUID();
const orgId = organization.json.data.id;
const admin = { authorization: `Bearer ${adminToken}` };
await probe(
  '4',
  'admin key creation',
  () => call('POST', `/admin/v1/organizations/${orgId}/api-keys`, { headers: admin, body: {} }),
  noStore,
  cacheShown,
);
await probe(
  '4',
  'admin key creation, idempotent replay',
  async () => {
    const headers = { ...admin, 'idempotency-key': idempotencyKey };
    await call('POST', `/admin/v1/organizations/${orgId}/api-keys`, { headers, body: { name: 'replayed' } });
    return call('POST', `/admin/v1/organizations/${orgId}/api-keys`, { headers, body: { name: 'replayed' } });
  },
  (reply) => noStore(reply) && reply.headers.get('idempotent-replayed') === 'true',
  cacheShown,
);
const endpointId = endpoint.json?.data?.id;
await probe('4', 'webhook endpoint creation (carries its secret)', async () => endpoint, noStore, cacheShown);
await probe('4', 'GET webhook secret', () => call('GET', `/api/v1/webhook-endpoints/${endpointId}/secret`, { key }), noStore, cacheShown);
await probe(
  '4',
  'rotate webhook secret',
  () => call('POST', `/api/v1/webhook-endpoints/${endpointId}/secret/rotate`, { key }),
  noStore,
  cacheShown,
);
await probe('4', 'any authenticated GET', () => call('GET', '/api/v1/bookings?limit=1', { key }), noStore, cacheShown);

// 6. Pixel bombs and filenames.
await probe('6', 'PNG declaring 65535×65535 (69 bytes)', () => upload(key, png(65535, 65535), 'bomb.png'), is(413));
await probe(
  '6',
  'PNG zlib bomb 10000×6990',
  () => upload(key, png(10000, 6990, deflateSync(Buffer.alloc(10000 * 6990 + 6990))), 'zlib.png'),
  is(413),
);
await probe('6', 'GIF with a 65535×65535 screen', () => upload(key, gif(65535, 65535), 'bomb.gif'), is(413));
await probe('7', 'filename a.png\\0.html', () => rawUpload(key, 'a.png\0.html'), is(400));
await probe('7', 'filename with a bidi override', () => rawUpload(key, '\u202Egnp.exe'), is(400));

// 7. The webhook address guard, a bad path, media caching.
for (const address of [
  'http://[::127.0.0.1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[2002:7f00:1::]/',
  'http://[64:ff9b::a00:1]/',
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
])
  if (guardOn)
    await probe('7', `webhook url ${address}`, () => call('POST', '/api/v1/webhook-endpoints', { key, body: { url: address } }), is(400));
  else notHere('7', `webhook url ${address}`, 'private targets are allowed here (start with WEBHOOKS_ALLOW_PRIVATE_TARGETS=false)');
await probe(
  '7',
  'malformed path (a control character)',
  () => rawRequest('GET /api/v1/bookings/\x01 HTTP/1.1'),
  (text) => /^HTTP\/1\.1 400/.test(text) && !/invalid characters/.test(text),
  (text) => text.split('\r\n')[0] + ' ' + (text.split('\r\n\r\n')[1] ?? '').slice(0, 80),
);
await probe(
  '7',
  'malformed path (a dot segment: the review saw an internal undici message)',
  () => rawRequest('GET /api/v1/bookings/..%2f..%2fadmin HTTP/1.1'),
  (text) => /^HTTP\/1\.1 400/.test(text) && text.includes('"Malformed request path"'),
  (text) => text.split('\r\n')[0] + ' ' + (text.split('\r\n\r\n')[1] ?? '').slice(0, 80),
);
await probe(
  '7',
  'media caching',
  async () => {
    const media = await upload(key, png(2, 2), 'ok.png');
    return fetch(media.json?.data?.url ?? `${gateway}/none`);
  },
  (reply) => reply.status === 200 && /max-age=86400/.test(reply.headers.get('cache-control') ?? '') && Boolean(reply.headers.get('etag')),
  (reply) => `${reply.status} cache-control: ${reply.headers.get('cache-control')}, etag: ${reply.headers.get('etag')}`,
);

// 5. Lock-out, last: 60 bad keys from this address, then the key used above, a key never used, the admin token.
const unused = await call('POST', `/admin/v1/organizations/${orgId}/api-keys`, { headers: admin, body: {} });
await probe(
  '5',
  '60 bad keys, then the key in use (review: 429)',
  async () => {
    for (let i = 0; i < 60; i += 1) await call('GET', '/api/v1/bookings', { key: `sk_${randomUUID().replaceAll('-', '')}` });
    return call('GET', '/api/v1/bookings?limit=1', { key });
  },
  is(200),
);
await probe(
  '5',
  'then a key never used from here',
  () => call('GET', '/api/v1/bookings?limit=1', { key: unused.json?.data?.key ?? 'sk_none' }),
  is(429),
);
await probe('5', 'then the admin token', () => call('POST', '/admin/v1/organizations', { headers: admin, body: { name: 'x' } }), is(429));

receiver.close();
const width = Math.max(...rows.map((row) => row.name.length));
console.log(`| group | probe${' '.repeat(width - 5)} | ok | answer |`);
console.log(`|---|${'-'.repeat(width + 2)}|---|---|`);
for (const row of rows)
  console.log(`| ${row.group} | ${row.name.padEnd(width)} | ${row.ok === null ? '–' : row.ok ? 'yes' : 'NO'} | ${row.got} |`);
process.exit(rows.every((row) => row.ok !== false) ? 0 : 1);
