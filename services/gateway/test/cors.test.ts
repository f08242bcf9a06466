import { describe, expect, it } from 'vitest';
import { createOrganization, gatewayBehindEchoes } from './support/harness.js';

const BOOKING_PAGE = 'https://book.example.com';
const BACK_OFFICE = 'https://office.example.com';
const SLOTS = '/api/bookings/slots?scheduleId=00000000-0000-4000-8000-000000000000&startDate=2030-01-01&endDate=2030-01-01';

describe('CORS with the default CORS_ORIGINS (*)', () => {
  const fixture = gatewayBehindEchoes();

  it('when a booking page on any origin sends the preflight for the public slots, then 204 allows it without a key', async () => {
    const response = await fixture.gateway.app.inject({
      method: 'OPTIONS',
      url: SLOTS,
      headers: { origin: BOOKING_PAGE, 'access-control-request-method': 'GET' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD');
  });

  it('when a page on another origin reads the public slots, then the answer carries the CORS headers', async () => {
    const response = await fixture.gateway.app.inject({ url: SLOTS, headers: { origin: BOOKING_PAGE } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(String(response.headers['access-control-expose-headers'])).toContain('x-request-id');
  });

  it('when a page on another origin calls /api/v1 (its origin not listed by name), then no CORS header is sent', async () => {
    const org = await createOrganization(fixture.gateway);
    // Not one of a publishable key's public operations (those answer any origin's preflight: key-kinds.test.ts).
    const preflight = await fixture.gateway.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/schedules',
      headers: { origin: BOOKING_PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const read = await fixture.gateway.app.inject({
      url: '/api/v1/bookings',
      headers: { origin: BOOKING_PAGE, authorization: `Bearer ${org.api_key}` },
    });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when a caller sends no Origin, then /api/v1 answers no CORS header but Vary: Origin, and the public slots (any spelling) still allow *', async () => {
    const org = await createOrganization(fixture.gateway);
    const read = await fixture.gateway.app.inject({ url: '/api/v1/bookings', headers: { authorization: `Bearer ${org.api_key}` } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    expect(String(read.headers.vary)).toContain('Origin');
    const preflight = await fixture.gateway.app.inject({ method: 'OPTIONS', url: '/api/v1/bookings' });
    // Not a browser's preflight: no CORS answer, and the key it lacks is asked for.
    expect(preflight.statusCode).toBe(401);
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
    for (const url of [SLOTS, SLOTS.replace('/api/', '/%61pi/')]) {
      const slots = await fixture.gateway.app.inject({ url });
      expect(slots.statusCode).toBe(200);
      expect(slots.headers['access-control-allow-origin']).toBe('*');
    }
  });
});

describe('CORS with origins listed by name', () => {
  const fixture = gatewayBehindEchoes({ CORS_ORIGINS: `${BOOKING_PAGE}, ${BACK_OFFICE}/` });

  it('when a listed origin sends the preflight for /api/v1, then 204 allows its method and headers', async () => {
    const response = await fixture.gateway.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/bookings',
      headers: {
        origin: BACK_OFFICE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(BACK_OFFICE);
    expect(response.headers['access-control-allow-methods']).toContain('POST');
    expect(String(response.headers['access-control-allow-headers'])).toContain('authorization');
    expect(String(response.headers.vary)).toContain('Origin');
  });

  it('when a listed origin reads and changes a record conditionally, then it may send If-Match and If-None-Match and read the ETag', async () => {
    const preflight = await fixture.gateway.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/bookings/b1',
      headers: { origin: BACK_OFFICE, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'if-match' },
    });
    expect(String(preflight.headers['access-control-allow-headers']).split(/,\s*/)).toEqual(
      expect.arrayContaining(['if-match', 'if-none-match']),
    );
    const org = await createOrganization(fixture.gateway);
    const read = await fixture.gateway.app.inject({
      url: '/api/v1/bookings/b1',
      headers: { origin: BACK_OFFICE, authorization: `Bearer ${org.api_key}` },
    });
    expect(String(read.headers['access-control-expose-headers']).split(/,\s*/)).toContain('etag');
  });

  it('when the public slots are read from a listed origin, then that origin is allowed; from another, none is', async () => {
    const listed = await fixture.gateway.app.inject({ url: SLOTS, headers: { origin: BOOKING_PAGE } });
    expect(listed.headers['access-control-allow-origin']).toBe(BOOKING_PAGE);
    const other = await fixture.gateway.app.inject({ url: SLOTS, headers: { origin: 'https://evil.example.com' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('when an unlisted origin calls /api/v1, then no CORS header is sent', async () => {
    const response = await fixture.gateway.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/media',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'GET' },
    });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
