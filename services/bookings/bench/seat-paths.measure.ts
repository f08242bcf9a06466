import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { bookingCreatedEvent, createBookingBodySchema } from '@app/contracts';
import { issueClientSecret, outboxRow, withTransaction } from '@app/service-kit';
import { insertBookingStatement } from '../src/db/booking-create.repository.js';
import { lockSchedule } from '../src/db/schedule-lock.js';
import { occupancy } from '../src/db/seat-guard.js';
import { bookingState, newBooking } from '../src/domain/booking.js';
import { bookingBody, interval } from '../test/support/fixtures.js';
import { bookingsSuite, call, newOrganization } from '../test/support/harness.js';
import { answerWithRules } from '../test/support/seat-rules.js';

/**
 * Creation cost of the seat paths, printed (a measurement, not an assertion on timing):
 * - the database statement alone: today's statement (no claims CTE) vs the one-seat statement vs the summing path;
 * - through the service (app.inject: validation, the faked scheduling answer over NATS, the write): 1 seat vs 50 seats,
 *   sequential and contended (N concurrent requests for one slot).
 */
const suite = bookingsSuite();
const N = Number(process.env.SEAT_BENCH_N ?? 400);
const DAY = new Date(Date.UTC(2031, 0, 6));

function bookingAt(organizationId: string, scheduleId: string, slot: number, seatsPerSlot: number) {
  const body = createBookingBodySchema.parse(bookingBody(scheduleId, interval(DAY, slot * 30)));
  const booking = newBooking(
    body,
    { id: randomUUID(), organizationId, scheduleTimezone: 'UTC', seatsPerSlot, clientSecretHash: issueClientSecret().hash },
    new Date(),
  );
  return { booking, event: outboxRow(bookingCreatedEvent, bookingState(booking), { organizationId }) };
}

async function timed(label: string, count: number, run: (i: number) => Promise<unknown>): Promise<string> {
  const started = performance.now();
  for (let i = 0; i < count; i += 1) await run(i);
  const ms = performance.now() - started;
  return `${label}: ${(ms / count).toFixed(3)} ms each, ${Math.round((count * 1000) / ms)}/s (n=${count})`;
}

async function contended(
  label: string,
  rounds: number,
  width: number,
  run: (round: number) => Promise<{ status: number }>,
): Promise<string> {
  const started = performance.now();
  let created = 0;
  for (let round = 0; round < rounds; round += 1) {
    const replies = await Promise.all(Array.from({ length: width }, () => run(round)));
    created += replies.filter((reply) => reply.status === 201).length;
  }
  const ms = performance.now() - started;
  return `${label}: ${(ms / rounds).toFixed(1)} ms per round of ${width} concurrent, ${created} created in ${rounds} rounds`;
}

it('measures the seat paths', async () => {
  const pool = suite.bookings.infra.pool;
  const lines: string[] = [];
  for (let pass = 0; pass < 2; pass += 1) {
    // Warm-up pass first; the second pass is reported.
    const out: string[] = [];
    const org = randomUUID();
    const today = randomUUID();
    const oneSeat = randomUUID();
    const summed = randomUUID();
    // Interleaved, so both see the same machine: today's statement, then the one-seat path's, in turn.
    const spent = { today: 0, oneSeat: 0 };
    for (let i = 0; i < N; i += 1) {
      const plain = bookingAt(org, today, i, 1);
      let started = performance.now();
      await insertBookingStatement(pool, plain.booking, plain.event);
      spent.today += performance.now() - started;
      const guarded = bookingAt(org, oneSeat, i, 1);
      started = performance.now();
      await insertBookingStatement(pool, guarded.booking, guarded.event, undefined, { now: new Date() });
      spent.oneSeat += performance.now() - started;
    }
    out.push(`SQL  today (exclusion constraint, no claims CTE): ${(spent.today / N).toFixed(3)} ms each (n=${N}, interleaved)`);
    out.push(`SQL  one-seat path (exclusion constraint + claims row): ${(spent.oneSeat / N).toFixed(3)} ms each (n=${N}, interleaved)`);
    out.push(
      await timed('SQL  summing path, 50 seats (lock, seat sum, insert in a transaction)', N, (i) => {
        const { booking, event } = bookingAt(org, summed, Math.floor(i / 50), 50);
        return withTransaction(pool, async (tx) => {
          await lockSchedule(tx, summed);
          const taken = await occupancy(tx, {
            ...booking,
            day: { start: DAY, end: new Date(DAY.getTime() + 86_400_000) },
            now: new Date(),
          });
          expect(taken.usedSeats).toBeLessThan(50);
          await insertBookingStatement(tx, booking, event);
        });
      }),
    );

    const organizationId = newOrganization();
    await answerWithRules(suite, { seats_per_slot: 1 });
    const httpOne = randomUUID();
    out.push(
      await timed('HTTP POST /api/v1/bookings, 1 seat per slot', N, (i) =>
        call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(httpOne, interval(DAY, i * 30))),
      ),
    );
    out.push(
      await contended('HTTP contended, 1 seat per slot', 20, 30, (round) =>
        call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(randomUUIDFor(httpOne, round), interval(DAY, 9 * 60))),
      ),
    );
    await answerWithRules(suite, { seats_per_slot: 50 });
    const httpFifty = randomUUID();
    out.push(
      await timed('HTTP POST /api/v1/bookings, 50 seats per slot', N, (i) =>
        call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', bookingBody(httpFifty, interval(DAY, Math.floor(i / 50) * 30))),
      ),
    );
    out.push(
      await contended('HTTP contended, 50 seats per slot (60 ask for 50)', 10, 60, (round) =>
        call(
          suite.bookings,
          organizationId,
          'POST',
          '/api/v1/bookings',
          bookingBody(randomUUIDFor(httpFifty, round), interval(DAY, 9 * 60)),
        ),
      ),
    );
    if (pass === 1) lines.push(...out);
  }
  console.log(`\nseat paths (N=${N})\n${lines.join('\n')}\n`);
});

/** A schedule of its own per contended round (derived, so each round's requests share one). */
const roundSchedules = new Map<string, string>();
function randomUUIDFor(base: string, round: number): string {
  const key = `${base}:${round}`;
  if (!roundSchedules.has(key)) roundSchedules.set(key, randomUUID());
  return roundSchedules.get(key) ?? base;
}
