import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { API_KEY_OPERATIONS, keyRefusal, KEY_REFUSALS } from '../src/index.js';

/*
 * The table of operations → scopes is checked against the committed OpenAPI document (npm test holds it equal to what
 * the gateway serves), both ways: an operation added to a service without a rule fails here, and so does a rule
 * left behind by a removed or renamed one.
 */
interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId?: string }>>;
}
const document = JSON.parse(readFileSync(new URL('../../../openapi/openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;
const METHODS = ['get', 'post', 'patch', 'delete', 'put'];
const documented = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => METHODS.includes(method) && path.startsWith('/api/'))
    .map(([method, operation]) => ({ operationId: operation.operationId ?? '', method: method.toUpperCase(), path })),
);

describe('the table of operations and the scopes they need', () => {
  it('has a rule for every /api operation of the OpenAPI document, with its method and path', () => {
    const rules = Object.fromEntries(
      Object.entries(API_KEY_OPERATIONS).map(([id, rule]) => [id, { method: rule.method, path: rule.path }]),
    );
    expect(rules).toEqual(Object.fromEntries(documented.map(({ operationId, method, path }) => [operationId, { method, path }])));
  });

  it('lets secret keys call everything and restricted keys what their scopes name (write includes read)', () => {
    expect(keyRefusal({ keyType: 'secret' }, 'deleteSchedule')).toBeNull();
    expect(keyRefusal({}, 'listBookings')).toBeNull();
    expect(keyRefusal({ keyType: 'restricted', scopes: ['bookings:read'] }, 'listBookings')).toBeNull();
    expect(keyRefusal({ keyType: 'restricted', scopes: ['bookings:write'] }, 'listBookings')).toBeNull();
    expect(keyRefusal({ keyType: 'restricted', scopes: ['bookings:read'] }, 'createBooking')).toBe(
      'This key lacks the bookings:write scope',
    );
    expect(keyRefusal({ keyType: 'restricted', scopes: ['bookings:write'] }, 'createRegistration')).toBe(
      'This key lacks the registrations:write scope',
    );
    expect(keyRefusal({ keyType: 'restricted', scopes: ['products:read'] }, 'unknownOperation')).toBe(KEY_REFUSALS.unclassified);
  });

  it('lets publishable keys call exactly the public operations of API.md', () => {
    const publicOperations = documented.filter(({ operationId }) => keyRefusal({ keyType: 'publishable' }, operationId) === null);
    expect(publicOperations.map(({ method, path }) => `${method} ${path}`).sort()).toEqual(
      [
        'GET /api/bookings/slots',
        'GET /api/v1/schedules/{id}',
        'GET /api/v1/event-types',
        'GET /api/v1/event-types/{id}',
        'POST /api/v1/bookings',
        'GET /api/v1/bookings/{id}',
        'PATCH /api/v1/bookings/{id}',
        'DELETE /api/v1/bookings/{id}',
        'POST /api/v1/holds',
        'GET /api/v1/holds/{id}',
        'DELETE /api/v1/holds/{id}',
        'GET /api/v1/events',
        'GET /api/v1/events/{id}',
        'POST /api/v1/events/{id}/registrations',
        'DELETE /api/v1/events/{id}/registrations/{registrationId}',
        'GET /api/v1/products',
        'GET /api/v1/products/{id}/variants',
        'GET /api/v1/products/{id}/variants/{variantId}',
        'GET /api/v1/products/{id}',
        'GET /api/v1/products/{id}/images',
        'GET /api/v1/categories',
      ].sort(),
    );
    expect(keyRefusal({ keyType: 'publishable' }, 'listBookings')).toBe('Publishable keys cannot call this operation');
  });

  it('lets only secret keys manage keys, and tells the other two kinds so', () => {
    for (const operationId of ['createApiKey', 'listApiKeys', 'getApiKey', 'revokeApiKey']) {
      expect(keyRefusal({ keyType: 'secret' }, operationId)).toBeNull();
      expect(keyRefusal({ keyType: 'publishable' }, operationId)).toBe('This key cannot manage API keys');
      expect(keyRefusal({ keyType: 'restricted', scopes: ['webhooks:write'] }, operationId)).toBe('This key cannot manage API keys');
    }
  });
});
