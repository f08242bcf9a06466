// The least work a booking's creation must cause, done bare (issue: "a fair booking ceiling"): the availability
// statement, the booking insert with its outbox row, the relay's publish to JetStream and the projection's write
// on the other side. No framework, no validation, no request-reply, no inbox: only what the real path cannot skip.
// It writes to tables of its own (copies of the real ones, same indexes and constraints, in schema bench_ceiling),
// so the real stack's relay never publishes its rows and the real projection never sees them.
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { createPool } from '@app/service-kit';
import { insertBookingStatement } from '../../services/bookings/dist/db/booking-create.repository.js';
import { loadScheduleWithBusyTime } from '../../services/scheduling/dist/db/busy-time.repository.js';

const SCHEMA = 'bench_ceiling';
const RUN = Date.now().toString(36);
// Per run, so a stream left by a killed run never overlaps this one's (those expire after MAX_AGE_NS).
const SUBJECT = `${SCHEMA}_${RUN}.bookings.booking.created`;
const MAX_AGE_NS = 3600 * 1e9;
const DAY_MS = 86_400_000;
const BATCH = 100;

/** Copies of the booking, outbox and projection tables (LIKE … INCLUDING ALL keeps the exclusion constraint). */
async function createTables(pool) {
  await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  await pool.query(`CREATE SCHEMA ${SCHEMA}`);
  await pool.query(`CREATE TABLE ${SCHEMA}.bookings (LIKE bookings.bookings INCLUDING ALL)`);
  await pool.query(`CREATE TABLE ${SCHEMA}.outbox (LIKE bookings.outbox INCLUDING ALL)`);
  await pool.query(`CREATE TABLE ${SCHEMA}.booking_intervals (LIKE scheduling.booking_intervals INCLUDING ALL)`);
}

/** `{ create(booking, event), stop() }`: create answers once the booking is written; publish and projection follow. */
export async function bareBookingPath({ databaseUrl, natsUrl, log }) {
  const admin = createPool(databaseUrl, { max: 1, log });
  await createTables(admin);
  await admin.end();
  const pool = createPool(databaseUrl, { max: 10, log, schema: SCHEMA });
  const scheduling = createPool(databaseUrl, { max: 10, log, schema: 'scheduling' });
  const nc = await connect({ servers: natsUrl });
  const stream = `BENCH_CEILING_${RUN}`;
  const manager = await jetstreamManager(nc);
  await manager.streams.add({ name: stream, subjects: [SUBJECT], max_age: MAX_AGE_NS });
  const js = jetstream(nc);
  const relay = new BatchingRelay(pool, js);
  const projection = await project(js, manager, stream, scheduling);

  return {
    /** The availability statement (the scheduling service's, calendar busy time only) and the insert; then wakes the relay. */
    async create(booking, event, organizationId) {
      const start = booking.startTime.getTime();
      const schedule = await loadScheduleWithBusyTime(scheduling, {
        scheduleId: booking.scheduleId,
        organizationId,
        window: { start: start - DAY_MS, end: booking.endTime.getTime() + DAY_MS },
        bookingsAt: null,
      });
      if (!schedule) throw new Error('no such schedule');
      await insertBookingStatement(pool, booking, { ...event, subject: SUBJECT });
      relay.wake();
    },
    async stop() {
      await relay.stop();
      await projection.stop();
      await manager.streams.delete(stream);
      await nc.close();
      await Promise.all([pool.end(), scheduling.end()]);
    },
  };
}

/** Publishes pending outbox rows in batches: claim and mark in one statement, publish, commit. */
class BatchingRelay {
  #running = null;
  #again = false;
  constructor(pool, js) {
    this.pool = pool;
    this.js = js;
  }

  wake() {
    if (this.#running) this.#again = true;
    else this.#running = this.#drain().finally(() => (this.#running = null));
  }

  async #drain() {
    do {
      this.#again = false;
      while ((await this.#batch()) === BATCH);
    } while (this.#again);
  }

  async #batch() {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(
        `UPDATE outbox SET published_at = now() WHERE id IN (
           SELECT id FROM outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING id::text AS id, subject, payload::text AS payload`,
        [BATCH],
      );
      await Promise.all(rows.map((row) => this.js.publish(row.subject, row.payload, { msgID: row.id })));
      await client.query('COMMIT');
      return rows.length;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async stop() {
    await this.#running;
  }
}

/** A pull consumer applying each booking to the projection: one statement, ownership check included. */
async function project(js, manager, stream, scheduling) {
  await manager.consumers.add(stream, { durable_name: 'projection', ack_policy: 'explicit' });
  const consumer = await js.consumers.get(stream, 'projection');
  const messages = await consumer.consume({ max_messages: 64 });
  const done = (async () => {
    for await (const message of messages) {
      const event = message.json();
      const b = event.data;
      await scheduling.query(
        `INSERT INTO ${SCHEMA}.booking_intervals (booking_id, schedule_id, status, start_time, end_time, version, updated_at)
         SELECT $1::uuid, $2::uuid, $3, $4::timestamptz, $5::timestamptz, $6, now()
          WHERE EXISTS (SELECT 1 FROM schedules WHERE id = $2::uuid AND organization_id = $7::uuid)
         ON CONFLICT (booking_id) DO UPDATE
            SET status = EXCLUDED.status, start_time = EXCLUDED.start_time, end_time = EXCLUDED.end_time,
                version = EXCLUDED.version, updated_at = now()
          WHERE booking_intervals.version < EXCLUDED.version`,
        [b.booking_id, b.schedule_id, b.status, b.start_time, b.end_time, b.version, event.organization_id],
      );
      message.ack();
    }
  })();
  return {
    async stop() {
      await messages.close();
      await done;
    },
  };
}
