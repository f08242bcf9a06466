import type { CreateHoldBody, Hold, ListOf, PublicSchedule } from './key-types.js';
import { holdsOf } from './namespaces.js';
import type { RetryOptions } from './retry.js';
import { createTransport } from './transport.js';
import type { ApiResult, PathsFor, RequestInitFor, ResponseData } from './types.js';

export interface PublicClientOptions {
  /** The gateway's address, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The organization's `pk_…` key: made for browsers, it may call only the operations below, from its allowed origins. */
  publishableKey: string;
  retries?: Partial<RetryOptions> | false;
  fetch?: (request: Request) => Promise<Response>;
  headers?: Record<string, string>;
}

/** The query parameters of a GET path. */
type Query<P extends PathsFor<'get'>> = NonNullable<RequestInitFor<P, 'get'> extends { params?: { query?: infer Q } } ? Q : never>;

/** `POST /api/v1/bookings` as a publishable key sends it: with the hold that keeps its slot, and the seats it takes. */
export type PublicBookingBody = NonNullable<RequestInitFor<'/api/v1/bookings', 'post'>['body']> & { hold_id?: string; seats?: number };
type Booking = ResponseData<'/api/v1/bookings/{id}', 'get'>['data'];
/** A booking's 201: the only answer that carries its `client_secret`, which lets its attendee read, move or cancel it. */
export type CreatedBooking = ResponseData<'/api/v1/bookings', 'post'>['data'] & { client_secret: string };
export type RegistrationBody = NonNullable<RequestInitFor<'/api/v1/events/{id}/registrations', 'post'>['body']>;
export type CreatedRegistration = ResponseData<'/api/v1/events/{id}/registrations', 'post'>['data'] & { client_secret: string };

/**
 * The API as a browser sees it with a publishable key: only API.md's public operations ("Keys"), nothing that
 * needs a secret key. A booking's or registration's later reads and changes take the `client_secret` of its 201.
 */
export interface PublicClient {
  /** `GET /api/bookings/slots`: free slots of a schedule (`timezone` = the visitor's, for the labels and days). */
  slots(query: Query<'/api/bookings/slots'>): Promise<ApiResult<ResponseData<'/api/bookings/slots', 'get'>>>;
  /** `GET /api/v1/schedules/{id}` of a schedule with `public_booking: true` (others 404). */
  schedule(id: string): Promise<ApiResult<{ data: PublicSchedule }>>;
  holds: {
    create(body: CreateHoldBody): Promise<ApiResult<{ data: Hold }>>;
    get(id: string): Promise<ApiResult<{ data: Hold }>>;
    release(id: string): Promise<ApiResult<{ data: Hold }>>;
  };
  bookings: {
    /** Book, with `hold_id` to take a hold's place; keep the answer's `client_secret`. */
    create(body: PublicBookingBody, options?: { idempotencyKey?: string }): Promise<ApiResult<{ data: CreatedBooking }>>;
    get(id: string, clientSecret: string): Promise<ApiResult<{ data: Booking }>>;
    reschedule(
      id: string,
      clientSecret: string,
      interval: { start_time: string; end_time: string },
    ): Promise<ApiResult<ResponseData<'/api/v1/bookings/{id}', 'patch'>>>;
    cancel(id: string, clientSecret: string): Promise<ApiResult<ResponseData<'/api/v1/bookings/{id}', 'delete'>>>;
  };
  events: {
    /** Published events only. */
    list(query?: Query<'/api/v1/events'>): Promise<ApiResult<ResponseData<'/api/v1/events', 'get'>>>;
    get(id: string): Promise<ApiResult<ResponseData<'/api/v1/events/{id}', 'get'>>>;
    register(
      eventId: string,
      body: RegistrationBody,
      options?: { idempotencyKey?: string },
    ): Promise<ApiResult<{ data: CreatedRegistration }>>;
    cancelRegistration(eventId: string, registrationId: string, clientSecret: string): Promise<ApiResult<unknown>>;
  };
  products: {
    /** Published products only. */
    list(query?: Query<'/api/v1/products'>): Promise<ApiResult<ResponseData<'/api/v1/products', 'get'>>>;
    get(id: string): Promise<ApiResult<ResponseData<'/api/v1/products/{id}', 'get'>>>;
    images(id: string): Promise<ApiResult<ResponseData<'/api/v1/products/{id}/images', 'get'>>>;
  };
  eventTypes: {
    /** Active event types only. */
    list(query?: Query<'/api/v1/event-types'>): Promise<ApiResult<ResponseData<'/api/v1/event-types', 'get'>>>;
    get(id: string): Promise<ApiResult<ResponseData<'/api/v1/event-types/{id}', 'get'>>>;
  };
  categories: {
    list(query?: { limit?: number; offset?: number }): Promise<ApiResult<ListOf<Record<string, unknown>>>>;
  };
}

const idempotency = (options?: { idempotencyKey?: string }) =>
  options?.idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': options.idempotencyKey } };

/** A client holding a publishable key (`pk_…`); safe to ship to a browser. */
export function createPublicClient(options: PublicClientOptions): PublicClient {
  // No generated Idempotency-Key: a publishable key's preflight allows Authorization and Content-Type (API.md, Keys),
  // so a browser would refuse to send another header. A caller that passes `idempotencyKey` takes that on itself.
  const { call } = createTransport({ ...options, key: options.publishableKey, idempotencyKeys: false });
  const get = (path: string, params: Record<string, unknown> = {}) => call('get', path, { params }) as never;
  const secret = (id: string, clientSecret: string) => ({ params: { path: { id }, query: { client_secret: clientSecret } } });
  return {
    slots: (query) => get('/api/bookings/slots', { query }),
    schedule: (id) => get('/api/v1/schedules/{id}', { path: { id } }),
    holds: holdsOf(call),
    bookings: {
      create: async (body, opts) => call('post', '/api/v1/bookings', { body, ...idempotency(opts) }) as never,
      get: async (id, clientSecret) => call('get', '/api/v1/bookings/{id}', secret(id, clientSecret)) as never,
      reschedule: async (id, clientSecret, interval) =>
        call('patch', '/api/v1/bookings/{id}', { ...secret(id, clientSecret), body: interval }) as never,
      cancel: async (id, clientSecret) => call('delete', '/api/v1/bookings/{id}', secret(id, clientSecret)) as never,
    },
    events: {
      list: (query) => get('/api/v1/events', { query }),
      get: (id) => get('/api/v1/events/{id}', { path: { id } }),
      register: async (eventId, body, opts) =>
        call('post', '/api/v1/events/{id}/registrations', { params: { path: { id: eventId } }, body, ...idempotency(opts) }) as never,
      cancelRegistration: async (eventId, registrationId, clientSecret) =>
        call('delete', '/api/v1/events/{id}/registrations/{registrationId}', {
          params: { path: { id: eventId, registrationId }, query: { client_secret: clientSecret } },
        }),
    },
    products: {
      list: (query) => get('/api/v1/products', { query }),
      get: (id) => get('/api/v1/products/{id}', { path: { id } }),
      images: (id) => get('/api/v1/products/{id}/images', { path: { id } }),
    },
    eventTypes: {
      list: (query) => get('/api/v1/event-types', { query }),
      get: (id) => get('/api/v1/event-types/{id}', { path: { id } }),
    },
    categories: { list: (query) => get('/api/v1/categories', { query }) },
  };
}
