// Benchmarks of the bookings service, run through the gateway by `npm run bench`.
// Creation goes the whole way: gateway → bookings → NATS (schedule, availability) → Postgres insert + outbox.

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SLOT_MINUTES = 5; // the smallest slot_duration a schedule accepts
const CONTENDED_SLOTS = 20;
const MINUTE_MS = 60_000;

/** A schedule of its own for each run, open around the clock, so runs never collide with earlier ones. */
export async function openSchedule(ctx, name) {
  const reply = await ctx.api('POST', '/api/v1/schedules', {
    name,
    timezone: 'UTC',
    slot_duration: SLOT_MINUTES,
    availability: DAYS.map((day) => ({ day, start: '00:00', end: '24:00' })),
  });
  if (reply.status !== 201) throw new Error(`could not create the bench schedule: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body.data.id;
}

/** Midnight UTC two days ahead: clear of any minimum notice. */
export function firstSlot() {
  const now = new Date();
  return Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 2);
}

/** A POST /api/v1/bookings whose body is built per request by `pick(n)` (n = 0, 1, 2, … across all connections). */
export function creation(scheduleId, base, pick) {
  let n = 0;
  return {
    method: 'POST',
    path: '/api/v1/bookings',
    headers: { 'content-type': 'application/json' },
    setupRequest(request) {
      const index = n;
      n += 1;
      const start = base + pick(index) * SLOT_MINUTES * MINUTE_MS;
      const body = {
        schedule_id: scheduleId,
        start_time: new Date(start).toISOString(),
        end_time: new Date(start + SLOT_MINUTES * MINUTE_MS).toISOString(),
        attendee: { name: `Bench ${index}`, email: `bench+${index}@example.com` },
      };
      return { ...request, body: JSON.stringify(body) };
    },
  };
}

/** Live bookings of the schedule per start time. */
async function bookingsPerSlot(ctx, scheduleId) {
  return ctx.sql(
    `SELECT start_time, count(*)::int AS count FROM bookings.bookings
      WHERE schedule_id = $1::uuid AND status IN ('PENDING', 'CONFIRMED') GROUP BY start_time`,
    [scheduleId],
  );
}

export default [
  {
    name: 'bookings: create on distinct free slots (50 connections)',
    goal: '>= 1500 creates/s, p99 < 100 ms',
    ceiling: true,
    // At a steady half of its maximum rate (a write: twice the reads' 25 ms).
    steadyP99GoalMs: 50,
    async seed(ctx) {
      return { scheduleId: await openSchedule(ctx, 'Bench: distinct slots'), base: firstSlot() };
    },
    requests(state) {
      // Each request books the next 5-minute slot: no two requests ever compete.
      return [creation(state.scheduleId, state.base, (index) => index)];
    },
    async verify(state, ctx) {
      const rows = await bookingsPerSlot(ctx, state.scheduleId);
      const doubled = rows.filter((row) => row.count !== 1);
      if (doubled.length > 0) throw new Error(`${doubled.length} slots hold more than one booking`);
      return `${rows.length} bookings created, one per slot`;
    },
  },
  {
    name: `bookings: create contended, all requests on ${CONTENDED_SLOTS} slots (50 connections)`,
    goal: `exactly one booking per slot; the rest 409 SLOT_TAKEN`,
    // Its 409s are the point: a latency goal at a steady rate would be about conflicts, not load.
    steady: false,
    async seed(ctx) {
      return { scheduleId: await openSchedule(ctx, 'Bench: contended slots'), base: firstSlot() };
    },
    requests(state) {
      return [creation(state.scheduleId, state.base, (index) => index % CONTENDED_SLOTS)];
    },
    async verify(state, ctx) {
      const rows = await bookingsPerSlot(ctx, state.scheduleId);
      const [{ total }] = await ctx.sql('SELECT count(*)::int AS total FROM bookings.bookings WHERE schedule_id = $1::uuid', [
        state.scheduleId,
      ]);
      const doubled = rows.filter((row) => row.count !== 1);
      if (doubled.length > 0) throw new Error(`${doubled.length} of ${CONTENDED_SLOTS} slots hold more than one booking`);
      if (rows.length !== CONTENDED_SLOTS || total !== CONTENDED_SLOTS) {
        throw new Error(`expected ${CONTENDED_SLOTS} bookings (one per slot), found ${total} on ${rows.length} slots`);
      }
      return `${CONTENDED_SLOTS} slots, exactly one booking each`;
    },
  },
];
