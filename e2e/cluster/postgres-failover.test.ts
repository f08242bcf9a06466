import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bookingRecordSchema, dataEnvelope, errorBodySchema } from '@app/contracts';
import { startE2eStack, type E2eStack } from '../support/e2e-stack.js';
import { organizationWithSchedule, quarterHour } from '../support/organization.js';
import { startPgBouncer, type RunningPgBouncer } from '../support/pgbouncer.js';
import { PostgresPair } from './postgres-pair.js';

const DATABASE = 'scheduling_shop';
/** Longer than any timeout of the path (the gateway's upstream timeout is the longest): past it a request hangs. */
const HANG_MS = 35_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
  at: number;
  ms: number;
  status: number;
}

describe('Postgres failover: the primary SIGKILLed under bookings, its synchronous standby promoted, PgBouncer repointed', () => {
  let pair: PostgresPair;
  let pgbouncer: RunningPgBouncer;
  let stack: E2eStack;

  beforeAll(async () => {
    pair = await PostgresPair.start(DATABASE);
    pgbouncer = await startPgBouncer(pair.url(pair.primaryPort, DATABASE));
    stack = await startE2eStack(
      {
        DATABASE_URL: pair.url(pair.primaryPort, DATABASE),
        NATS_PREFIX: `${inject('natsPrefix')}_failover`,
        CALENDAR_SYNC_POLL_MS: '3600000',
        // PgBouncer 1.18 (Debian 12) cannot follow named prepared statements across server connections.
        DATABASE_NAMED_STATEMENTS: 'false',
      },
      {},
      { databaseHost: pgbouncer.host },
    );
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await pgbouncer?.stop();
    await pair?.stop();
  }, 120_000);

  it('when the standby takes over, then every 201 booking exists, nothing hung, the pools and the outbox recover by themselves, and the 503s last seconds', async () => {
    const { key, scheduleId } = await organizationWithSchedule(stack);
    const pids = stack.children.map(({ child }) => child.pid);
    const created: { id: string; at: number }[] = [];
    const outcomes: Outcome[] = [];
    const problems: string[] = [];
    let slot = 0;
    let running = true;
    const booker = async () => {
      while (running) {
        const interval = quarterHour(slot++);
        const started = Date.now();
        const answer = await Promise.race([
          stack.call('POST', '/api/v1/bookings', {
            key,
            body: { schedule_id: scheduleId, ...interval, attendee: { name: 'Pia', email: 'pia@example.com' } },
          }),
          sleep(HANG_MS).then(() => null),
        ]);
        if (!answer) {
          problems.push(`a booking hung past ${HANG_MS} ms`);
          continue;
        }
        outcomes.push({ at: started, ms: Date.now() - started, status: answer.status });
        if (answer.status === 201) created.push({ id: dataEnvelope(bookingRecordSchema).parse(answer.body).data.id, at: Date.now() });
        else if (answer.status === 503) {
          expect(errorBodySchema.parse(answer.body).code).toBe('UPSTREAM_UNAVAILABLE');
          await sleep(100);
        } else problems.push(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
    };
    const load = Promise.all([booker(), booker(), booker()]);

    await sleep(5000);
    const killedAt = Date.now();
    pair.killPrimary();
    await pair.promoteStandby();
    pgbouncer.repoint(pair.standbyPort);
    const repointedAt = Date.now();
    // The pools must find the new primary by themselves: 201s again, from the same processes.
    await expect
      .poll(() => created.filter((booking) => booking.at > repointedAt).length, { timeout: 60_000, interval: 250 })
      .toBeGreaterThan(10);
    running = false;
    await load;

    expect(problems).toEqual([]);
    const standby = (sql: string, params: unknown[]) => pair.query(pair.standbyPort, sql, params, DATABASE);
    // Synchronous replication: every booking a client was told about is on the standby, those of the last moment too.
    const ids = created.map((booking) => booking.id);
    const stored = await standby('SELECT id::text FROM bookings.bookings WHERE id = ANY($1::uuid[])', [ids]);
    expect(stored.rows.length).toBe(ids.length);
    // The outbox relay and the consumers resumed: every booking, before and after, reached scheduling's projection.
    await expect
      .poll(
        async () =>
          (await standby('SELECT count(*)::int AS n FROM scheduling.booking_intervals WHERE booking_id = ANY($1::uuid[])', [ids])).rows[0]
            .n,
        {
          timeout: 60_000,
          interval: 500,
        },
      )
      .toBe(ids.length);
    await expect
      .poll(async () => (await standby('SELECT count(*)::int AS n FROM bookings.outbox WHERE published_at IS NULL', [])).rows[0].n, {
        timeout: 30_000,
      })
      .toBe(0);
    expect(stack.children.map(({ child }) => (child.exitCode === null && child.signalCode === null ? child.pid : 'exited'))).toEqual(pids);

    const refused = outcomes.filter((outcome) => outcome.status === 503);
    const refusedFor =
      refused.length === 0 ? 0 : (Math.max(...refused.map((o) => o.at + o.ms)) - Math.min(...refused.map((o) => o.at))) / 1000;
    console.log(
      `Postgres failover: ${created.length} bookings (${created.filter((b) => b.at > repointedAt).length} after), ` +
        `${refused.length} answered 503 over ${refusedFor.toFixed(1)} s, promote + repoint took ${((repointedAt - killedAt) / 1000).toFixed(1)} s, ` +
        `slowest answer ${Math.max(...outcomes.map((o) => o.ms))} ms`,
    );
  }, 240_000);
});
