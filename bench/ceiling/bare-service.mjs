// The least a service could do for the bench's scenarios: node:http, no framework, no validation, no
// auth — only the services' own data access (their built statements and slot generator) on their own schemas,
// and for a booking the whole of its necessary work (bare-booking-path.mjs). What it serves behind bare-proxy.mjs bounds what any implementation of
// gateway → service → Postgres can serve on this machine. Run by bench/run.mjs; never part of the stack.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { bookingCreatedEvent, createBookingBodySchema, slotsQuerySchema } from '@app/contracts';
import { createPool, issueClientSecret, listPage, outboxRow } from '@app/service-kit';
import { bookingState, newBooking } from '../../services/bookings/dist/domain/booking.js';
import { bookingRecord } from '../../services/bookings/dist/domain/booking.record.js';
import { listProducts, PRODUCT_LIST } from '../../services/catalog/dist/db/product-list.repository.js';
import { eventList, listEvents } from '../../services/events/dist/db/event-list.repository.js';
import { findSlots } from '../../services/scheduling/dist/use-cases/slots.use-case.js';
import { bareBookingPath } from './bare-booking-path.mjs';

const { DATABASE_URL, NATS_URL, ORGANIZATION_ID, PORT } = process.env;
const pool = (schema) => createPool(DATABASE_URL, { max: 10, log: console, schema });
const pools = { catalog: pool('catalog'), events: pool('events'), scheduling: pool('scheduling') };
const bookingPath = await bareBookingPath({ databaseUrl: DATABASE_URL, natsUrl: NATS_URL, log: console });
const pageOf = (query) => ({ limit: Number(query.get('limit') ?? 50), offset: Number(query.get('offset') ?? 0) });
const cents = (dollars) => (dollars === null ? undefined : Math.round(Number(dollars) * 100));

const routes = {
  'GET /api/v1/events': async (query) => {
    const page = listPage(eventList(false), { organizationId: ORGANIZATION_ID, filters: {} }, pageOf(query));
    const filters = { organizationId: ORGANIZATION_ID, includeCounts: query.get('include_counts') === 'true', now: new Date() };
    const { rows, meta } = await listEvents(pools.events, filters, page);
    return [200, { data: rows, meta }];
  },
  'GET /api/v1/products': async (query) => {
    const filters = {
      search: query.get('search') ?? undefined,
      minPriceCents: cents(query.get('min_price')),
      maxPriceCents: cents(query.get('max_price')),
      inStock: query.has('in_stock') ? query.get('in_stock') === 'true' : undefined,
    };
    const page = listPage(PRODUCT_LIST, { organizationId: ORGANIZATION_ID, filters }, pageOf(query));
    const { rows, meta } = await listProducts(pools.catalog, ORGANIZATION_ID, filters, page);
    return [200, { data: rows, meta }];
  },
  'GET /api/bookings/slots': async (query) => {
    const slotsQuery = slotsQuerySchema.parse(Object.fromEntries(query));
    const caller = { organizationId: ORGANIZATION_ID };
    return [200, await findSlots({ pool: pools.scheduling, now: () => new Date() }, caller, slotsQuery)];
  },
  'POST /api/v1/bookings': async (_query, body) => {
    const booking = newBooking(
      createBookingBodySchema.parse(body),
      // As the service makes it: one seat per slot, and a client secret (its hash stored, the secret in the 201).
      {
        id: randomUUID(),
        organizationId: ORGANIZATION_ID,
        scheduleTimezone: 'UTC',
        seatsPerSlot: 1,
        clientSecretHash: issueClientSecret().hash,
      },
      new Date(),
    );
    const record = bookingRecord(booking);
    const data = { ...bookingState(booking), record };
    const event = outboxRow(bookingCreatedEvent, data, { organizationId: ORGANIZATION_ID, correlationId: booking.id });
    // Ceilings run on free slots only: an overlap would be a 500 here, and the bench reports non-2xx.
    await bookingPath.create(booking, event, ORGANIZATION_ID);
    return [201, { data: record }];
  },
};

async function readJson(request) {
  let text = '';
  for await (const chunk of request) text += chunk;
  return text ? JSON.parse(text) : undefined;
}

http
  .createServer(async (request, response) => {
    const url = new URL(request.url, 'http://bare');
    const route = routes[`${request.method} ${url.pathname}`];
    let status = 200;
    let body = { ok: true };
    try {
      if (route) [status, body] = await route(url.searchParams, await readJson(request));
    } catch (error) {
      [status, body] = [500, { error: String(error) }];
      if (process.env.BARE_DEBUG) console.error(error);
    }
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  })
  .listen(Number(PORT), '127.0.0.1', () => console.log('ready'));

// Stopped by the bench with SIGTERM: the JetStream stream it made goes with it.
process.once('SIGTERM', () => void bookingPath.stop().finally(() => process.exit(0)));
