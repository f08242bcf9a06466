import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingRecordSchema,
  calendarConnectionSchema,
  createdOrganizationSchema,
  dataEnvelope,
  errorBodySchema,
  eventRecordSchema,
  mediaFileSchema,
  productSchema,
  registrationRecordSchema,
  scheduleRecordSchema,
  slotsResponseSchema,
} from '@app/contracts';
import { serviceNodeFlags } from '@app/dev-stack';
import { eventually, png, PortForwarder } from '@app/service-testing';
import { ComposeProject } from './compose-project.js';

const ROOT = join(import.meta.dirname, '..', '..');
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
/** The application services of docker-compose.yml, each with a /readyz of its own. */
const SERVICES = ['bookings', 'scheduling', 'catalog', 'events', 'calendar-sync', 'webhooks', 'gateway'];
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/**
 * docker-compose.yml as a deployment runs it: images built from the Dockerfile, secrets from files, only the
 * gateway published (on a free port), and a fake Google Calendar container reached through the provider URLs
 * passed in from the environment. Driven through the gateway as a user would, then one service restarted.
 */
describe('the whole system from docker-compose.yml', () => {
  const secretsDir = mkdtempSync(join(tmpdir(), 'compose-secrets-'));
  let compose: ComposeProject;
  let gateway: string;
  let front: PortForwarder | undefined;
  let key: string;
  let scheduleId: string;
  let bookingId: string;

  /**
   * One API call as a careful client makes it: a write carries an Idempotency-Key, and a 503 with Retry-After (the
   * stack's answer when a statement or a pooled connection did not come in time, as on a loaded 2-core runner) is
   * retried after the time it asks for, up to three times, each retry logged with the body that caused it.
   */
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() });
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(`${gateway}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const answer = { status: response.status, body: (await response.json()) as unknown };
      const retryAfter = Number(response.headers.get('retry-after'));
      if (answer.status !== 503 || !(retryAfter > 0) || attempt > 3) return answer;
      console.warn(`${method} ${path} answered 503 (attempt ${attempt}), retried after ${retryAfter} s: ${JSON.stringify(answer.body)}`);
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    }
  };
  /** A 30-minute booking on the test's schedule. */
  const book = (start: string, email: string) =>
    call('POST', '/api/v1/bookings', {
      schedule_id: scheduleId,
      start_time: start,
      end_time: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
      attendee: { name: email.split('@')[0], email },
    });
  const slotStarts = async (date: string) => {
    const response = await fetch(`${gateway}/api/bookings/slots?scheduleId=${scheduleId}&startDate=${date}&endDate=${date}`);
    expect(response.status).toBe(200);
    return slotsResponseSchema
      .parse(await response.json())
      .days.flatMap((d) => d.slots)
      .map((slot) => slot.start);
  };

  beforeAll(async () => {
    // The gateway's address is a port held here for the whole run (the PUBLIC_BASE_URL it is started with); compose
    // publishes the gateway on a loopback port the engine picks, and the held one forwards there once it is known.
    front = await PortForwarder.open();
    gateway = `http://127.0.0.1:${front.port}`;
    const secrets = spawnSync(process.execPath, [join(ROOT, 'scripts', 'compose-secrets.mjs')], {
      env: { ...process.env, SECRETS_DIR: secretsDir },
    });
    expect(secrets.status).toBe(0);
    // COMPOSE_TEST_FILES (comma-separated) adds compose files: `ops/compose/pgbouncer.yml` runs the same checks through PgBouncer.
    const extraFiles = (process.env.COMPOSE_TEST_FILES ?? '').split(',').filter(Boolean);
    compose = new ComposeProject(`ss_smoke_${Date.now().toString(36)}`, ['e2e/compose/fake-calendar.compose.yml', ...extraFiles], {
      ...process.env,
      SECRETS_DIR: secretsDir,
      SERVICE_NODE_FLAGS: '', // the image's default, whatever the shell running the tests has set
      GATEWAY_PORT: '127.0.0.1:',
      PUBLIC_BASE_URL: gateway,
      GOOGLE_API_URL: 'http://fake-calendar:4010',
      GOOGLE_TOKEN_URL: 'http://fake-calendar:4010/google/token',
      CALENDAR_SYNC_POLL_MS: '200',
      FAKE_BUSY_START: `${day(3)}T10:00:00Z`,
      FAKE_BUSY_END: `${day(3)}T11:00:00Z`,
    });
    compose.startHealthchecks();
    try {
      compose.run(['build']);
      compose.run(['up', '-d']);
      front.pointAt('127.0.0.1', publishedPort(compose.run(['port', 'gateway', '3000'])));
      await eventually(async () => ((await fetch(`${gateway}/readyz`).catch(() => null))?.ok ? true : undefined), 180_000);
      // The gateway's readiness says nothing of the services behind it: each must hold its own connections first.
      await eventually(async () => (compose.ready(SERVICES) ? true : undefined), 180_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${compose.diagnostics()}`, { cause: error });
    }
  }, 40 * 60_000);

  afterAll(async () => {
    await front?.close();
    compose?.stopHealthchecks();
    compose?.run(['down', '-v', '--remove-orphans'], 5 * 60_000);
    rmSync(secretsDir, { recursive: true, force: true });
  }, 6 * 60_000);

  it('when Postgres and NATS run beside the services, then only the gateway is published', () => {
    const published = (service: string, port: number) => compose.run(['port', service, String(port)]).trim();
    expect(published('gateway', 3000)).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    expect(published('postgres', 5432)).not.toMatch(/:[1-9]\d*$/);
    expect(published('nats', 4222)).not.toMatch(/:[1-9]\d*$/);
  });

  it('when the services run, then each is connected to Postgres as its own role, and bookings cannot read API keys', () => {
    const psql = (user: string, password: string, sql: string) =>
      compose.run([
        'exec',
        '-T',
        '-e',
        `PGPASSWORD=${password}`,
        'postgres',
        'psql',
        '-h',
        '127.0.0.1',
        '-U',
        user,
        '-d',
        'scheduling_shop',
        '-Atc',
        sql,
      ]);
    const superuser = readFileSync(join(secretsDir, 'postgres_password'), 'utf8').trim();
    const roles = psql('postgres', superuser, "SELECT DISTINCT usename FROM pg_stat_activity WHERE usename LIKE '%service' ORDER BY 1");
    expect(roles.trim().split('\n')).toEqual([
      'bookings_service',
      'calendar_sync_service',
      'catalog_service',
      'events_service',
      'gateway_service',
      'scheduling_service',
      'webhooks_service',
    ]);
    const bookings = new URL(readFileSync(join(secretsDir, 'bookings_database_url'), 'utf8').trim());
    expect(() => psql('bookings_service', decodeURIComponent(bookings.password), 'SELECT count(*) FROM identity.api_keys')).toThrow(
      /permission denied for schema identity/,
    );
  });

  it('when the services run in their containers, then each node process started with the V8 flags npm start gives its services', () => {
    for (const service of SERVICES) {
      // PID 1 is node itself: the image's CMD execs it from sh with SERVICE_NODE_FLAGS (unset here: the default). The
      // CMD spells the default out again (a shell cannot read @app/dev-stack): it must be the stack's, as its test says.
      const argv = compose.run(['exec', '-T', service, 'cat', '/proc/1/cmdline']).split('\0').filter(Boolean);
      expect(argv, service).toEqual(['node', ...serviceNodeFlags({}), `services/${service}/dist/server.js`]);
    }
  });

  it('when an organization is created with the admin token from its secret file, then its key works', async () => {
    const adminToken = readFileSync(join(secretsDir, 'admin_token'), 'utf8').trim();
    const response = await fetch(`${gateway}/admin/v1/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Compose Studio', timezone: 'UTC' }),
    });
    expect(response.status).toBe(201);
    key = dataEnvelope(createdOrganizationSchema).parse(await response.json()).data.api_key;
    expect((await call('GET', '/api/v1/ping/bookings')).status).toBe(200);
  });

  it('when a schedule is created and a slot booked, then the slot leaves the public slots', async () => {
    const schedule = await call('POST', '/api/v1/schedules', {
      name: 'Consultations',
      timezone: 'UTC',
      slot_duration: 30,
      availability: WEEK.map((d) => ({ day: d, start: '08:00', end: '18:00' })),
    });
    expect(schedule.status, JSON.stringify(schedule.body)).toBe(201);
    scheduleId = dataEnvelope(scheduleRecordSchema).parse(schedule.body).data.id;
    expect(await slotStarts(day(2))).toHaveLength(20);

    const booked = await book(`${day(2)}T09:00:00.000Z`, 'ada@example.com');
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    bookingId = dataEnvelope(bookingRecordSchema.pick({ id: true })).parse(booked.body).data.id;
    await eventually(async () => ((await slotStarts(day(2))).includes(`${day(2)}T09:00:00.000Z`) ? undefined : true), 20_000);
  });

  it('when a product gets an uploaded image, then the media volume serves its bytes', async () => {
    const bytes = png(4, 3);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'tiny.png');
    const uploaded = await fetch(`${gateway}/api/v1/media`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form });
    expect(uploaded.status).toBe(201);
    const media = dataEnvelope(mediaFileSchema).parse(await uploaded.json()).data;
    const product = await call('POST', '/api/v1/products', { name: 'Poster', price: 9.5 });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const productId = dataEnvelope(productSchema).parse(product.body).data.id;
    expect((await call('POST', `/api/v1/products/${productId}/images`, { media_file_id: media.id, is_featured: true })).status).toBe(201);
    expect(dataEnvelope(productSchema).parse((await call('GET', `/api/v1/products/${productId}`)).body).data.featured_image_id).toBe(
      media.id,
    );
    expect(media.url.startsWith(`${gateway}/media/`)).toBe(true);
    const served = await fetch(media.url);
    expect(Buffer.compare(Buffer.from(await served.arrayBuffer()), bytes)).toBe(0);
  });

  it('when an event has one place, then the second registration is refused', async () => {
    const created = await call('POST', '/api/v1/events', {
      title: 'Workshop',
      start_date: day(5),
      start_time: '18:00',
      end_time: '20:00',
      timezone: 'UTC',
      slots: 1,
      status: 'published',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const eventId = dataEnvelope(eventRecordSchema.pick({ id: true })).parse(created.body).data.id;
    const first = await call('POST', `/api/v1/events/${eventId}/registrations`, { name: 'Ann', email: 'ann@example.com' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    dataEnvelope(registrationRecordSchema).parse(first.body);
    const second = await call('POST', `/api/v1/events/${eventId}/registrations`, { name: 'Ben', email: 'ben@example.com' });
    expect(second.status).toBe(409);
    expect(errorBodySchema.parse(second.body).code).toBe('EVENT_FULL');
  });

  it('when a Google calendar is connected, then its busy time (from the fake provider container) blocks slots', async () => {
    const created = await call('POST', '/api/v1/calendar-connections', {
      provider: 'google',
      schedule_id: scheduleId,
      credentials: { access_token: 'at', refresh_token: 'rt', expires_at: new Date(Date.now() + 3600_000).toISOString() },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const connectionId = dataEnvelope(calendarConnectionSchema).parse(created.body).data.id;
    await eventually(async () => ((await slotStarts(day(3))).includes(`${day(3)}T10:00:00.000Z`) ? undefined : true), 30_000);
    const connection = dataEnvelope(calendarConnectionSchema).parse(
      (await call('GET', `/api/v1/calendar-connections/${connectionId}`)).body,
    );
    expect(connection.data.status).toBe('active');
  });

  it('when a service container restarts, then nothing is lost and events flow again', async () => {
    compose.run(['restart', 'bookings']);
    await eventually(async () => ((await call('GET', `/api/v1/bookings/${bookingId}`)).status === 200 ? true : undefined), 120_000);
    const kept = dataEnvelope(bookingRecordSchema).parse((await call('GET', `/api/v1/bookings/${bookingId}`)).body).data;
    expect(kept).toMatchObject({ id: bookingId, status: 'PENDING', attendee_email: 'ada@example.com' });

    const after = await book(`${day(2)}T10:00:00.000Z`, 'bo@example.com');
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    await eventually(async () => ((await slotStarts(day(2))).includes(`${day(2)}T10:00:00.000Z`) ? undefined : true), 20_000);
    const starts = await slotStarts(day(2));
    expect(starts).not.toContain(`${day(2)}T09:00:00.000Z`);
    expect(starts).toHaveLength(18);
  });
});

/** The host port of `compose port` output (`127.0.0.1:49153`, podman may add lines for other addresses). */
function publishedPort(output: string): number {
  const port = Number(/:(\d+)\s*$/m.exec(output.trim())?.[1]);
  if (!port) throw new Error(`the gateway is not published: ${output}`);
  return port;
}
