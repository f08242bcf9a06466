import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { idempotencyHeadersSchema } from '@app/contracts';
import { invalidInput } from '../../errors.js';
import { isCreatingRoute } from '../route-conventions.js';
import { callerScope, requestTarget } from './caller-scope.js';
import { claimKey } from './claim-key.js';
import { assertSameRequest, isStorable } from './first-response.js';
import { HeldKey } from './held-key.js';
import type { IdempotencyStore, Reservation } from './idempotency.store.js';
import { requestHash } from './request-hash.js';
import { isStreamedBody, StreamedBodyHash } from './streamed-body-hash.js';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';

/** A request that holds its key's reservation while its handler runs. */
interface InFlight {
  store: IdempotencyStore;
  held: HeldKey;
  requestHash: string | null;
  streamed: StreamedBodyHash | undefined;
}

const inFlight = new WeakMap<FastifyRequest, InFlight>();
/** Per app: the store, attached by startService once the pool exists (apps are built before that). */
const stores = new WeakMap<object, { store?: IdempotencyStore }>();

/** The reservation this request holds, for a route that stores its response in its own statement (bookings). */
export function idempotencyReservation(request: FastifyRequest): Reservation | undefined {
  return inFlight.get(request)?.held.reservation;
}

/**
 * Idempotency-Key on every route that creates something (a POST answering 201, as route-conventions.ts decides
 * for the API document too), in one place: the key is claimed in preHandler (after auth and validation, so the
 * caller and the body are known) and settled in onSend, when the response exists but has not left yet.
 */
export function registerIdempotency(app: FastifyInstance): void {
  const slot: { store?: IdempotencyStore } = {};
  stores.set(app, slot);
  const storeOf = (): IdempotencyStore => {
    if (!slot.store) throw new Error('Idempotency-Key received but no idempotency store is attached (useIdempotencyStore)');
    return slot.store;
  };
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isCreatingRoute(route.method, route.schema as Parameters<typeof isCreatingRoute>[1])) return;
    route.preHandler = [...asList(route.preHandler), (request, reply) => claim(storeOf, request, reply)];
    route.onSend = [...asList(route.onSend), (request, reply, payload) => settle(request, reply, payload)];
  });
}

/** Gives an app built by buildService the table its keys live in (the service's own schema). */
export function useIdempotencyStore(app: object, store: IdempotencyStore): void {
  const slot = stores.get(app);
  if (slot) slot.store = store;
}

/** Runs the handler as the key's first request, or answers with the key's first response (or a refusal). */
async function claim(storeOf: () => IdempotencyStore, request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
  const key = keyOf(request);
  if (key === undefined) return undefined;
  const store = storeOf();
  const scope = callerScope(request);
  const streamed = isStreamedBody(request) ? new StreamedBodyHash(request.raw) : undefined;
  const keyed = { scope, key, target: requestTarget(request), requestHash: streamed ? null : requestHash(request.body) };
  const claimed = await claimKey(store, keyed);
  if ('reservation' in claimed) {
    const held = new HeldKey(claimed.reservation, store, request.log);
    inFlight.set(request, { store, held, requestHash: keyed.requestHash, streamed });
    return undefined;
  }
  // A streamed body is compared once read; the route never sees it, so nothing (no file) is stored twice.
  assertSameRequest(claimed.first, keyed.target, streamed ? await streamed.drain() : keyed.requestHash);
  const { statusCode, body } = claimed.first.response;
  return reply.code(statusCode).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(body);
}

/** Stores the response as the key's first (see isStorable), or lets the key go so that a retry runs afresh. */
async function settle(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const flight = inFlight.get(request);
  if (!flight) return payload;
  inFlight.delete(request);
  flight.held.stop();
  try {
    const hash = flight.streamed ? await flight.streamed.ifComplete() : flight.requestHash;
    if (hash !== null && typeof payload === 'string' && isStorable(reply.statusCode, request)) {
      await flight.store.complete(flight.held.reservation, hash, { statusCode: reply.statusCode, body: payload });
    } else {
      await flight.store.release(flight.held.reservation);
    }
  } catch (error) {
    // The response still goes out; the reservation lapses on its own (LEASE_MS) and a retry then runs afresh.
    request.log.warn({ err: error }, 'idempotency key not settled');
  }
  return payload;
}

function keyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  // The route schema validates the header too (route-conventions.ts); this holds for any route of the kit.
  const parsed = idempotencyHeadersSchema.safeParse({ [IDEMPOTENCY_KEY_HEADER]: value });
  if (parsed.success && typeof value === 'string') return value;
  const message = `${IDEMPOTENCY_KEY_HEADER} ${parsed.error?.issues[0]?.message ?? 'must be a single header'}`;
  throw invalidInput(IDEMPOTENCY_KEY_HEADER, message);
}

function asList<H>(hooks: H | H[] | undefined): H[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}
