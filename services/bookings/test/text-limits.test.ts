import { describe, expect, it } from 'vitest';
import { bookingBody, futureDay, interval, newScheduleId } from './support/fixtures.js';
import { bookingsSuite, call, newOrganization } from './support/harness.js';

/** Metadata of about `bytes` bytes as JSON: one key whose value fills the rest. */
function metadataOf(bytes: number): Record<string, string> {
  return { note: 'x'.repeat(bytes - '{"note":""}'.length) };
}

describe('POST /api/v1/bookings (text and size limits)', () => {
  const suite = bookingsSuite();
  let slot = 0;
  const body = (extra: Record<string, unknown>) => bookingBody(newScheduleId(), interval(futureDay(6), 8 * 60 + 30 * (slot++ % 20)), extra);
  const createWith = (organizationId: string, attendee: Record<string, unknown>) =>
    call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body({ attendee }));

  it.each([
    ['a lone surrogate', 'Ada \ud800', 'attendee.name must not contain lone surrogates (invalid Unicode)'],
    ['a bidi control', 'Ada \u202egpj.exe', 'attendee.name must not contain bidirectional control characters'],
  ])('when the attendee name holds %s, then 400 naming attendee.name, nothing stored', async (_case, name, message) => {
    const organizationId = newOrganization();
    const reply = await createWith(organizationId, { name, email: 'ada@example.com' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
    expect((await call(suite.bookings, organizationId, 'GET', '/api/v1/bookings')).body.meta?.total).toBe(0);
  });

  it('when the attendee notes hold bidi controls, then 201 and they read back as sent', async () => {
    const organizationId = newOrganization();
    const notes = 'שלום \u2067abc\u2069';
    const noted = await createWith(organizationId, { name: 'Ada', email: 'ada@example.com', notes });
    expect(noted.status).toBe(201);
    const read = await call<{ attendee: { notes: string } }>(
      suite.bookings,
      organizationId,
      'GET',
      `/api/v1/bookings/${String(noted.body.data.id)}`,
    );
    expect(read.body.data.attendee.notes).toBe(notes);
  });

  it('when metadata weighs 17 KB as JSON, then 400 naming metadata; at 15 KB, then 201 and it reads back as sent', async () => {
    const organizationId = newOrganization();
    const heavy = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body({ metadata: metadataOf(17 * 1024) }));
    expect(heavy.status).toBe(400);
    expect(heavy.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: expect.stringMatching(/^metadata must be at most 16384 bytes as JSON/),
    });
    const metadata = metadataOf(15 * 1024);
    const light = await call(suite.bookings, organizationId, 'POST', '/api/v1/bookings', body({ metadata }));
    expect(light.status).toBe(201);
    const read = await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings/${String(light.body.data.id)}`);
    expect(read.body.data.metadata).toEqual(metadata);
  });

  it('when metadata counts multi-byte characters, then its UTF-8 bytes are what is weighed, not its characters', async () => {
    // 6000 × "€" is 6000 characters but 18000 bytes.
    const reply = await call(suite.bookings, newOrganization(), 'POST', '/api/v1/bookings', body({ metadata: { note: '€'.repeat(6000) } }));
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/^metadata must be at most 16384 bytes as JSON/);
  });
});

describe('PATCH /api/v1/bookings/{id} (text and size limits)', () => {
  const suite = bookingsSuite();

  async function booking(organizationId: string): Promise<string> {
    const created = await call(
      suite.bookings,
      organizationId,
      'POST',
      '/api/v1/bookings',
      bookingBody(newScheduleId(), interval(futureDay(8), 10 * 60)),
    );
    expect(created.status).toBe(201);
    return String(created.body.data.id);
  }

  it.each([
    ['a lone surrogate in a value', { k: '\ud800' }, 'metadata.k must not contain lone surrogates (invalid Unicode)'],
    ['a lone surrogate in a nested value', { a: [{ b: 'x\udfff' }] }, 'metadata.a.0.b must not contain lone surrogates (invalid Unicode)'],
    ['a lone surrogate in a key', { 'k\ud800': 1 }, 'metadata.k\ufffd must not have lone surrogates (invalid Unicode) in its name'],
  ])('when metadata holds %s, then 400 naming metadata and the booking is unchanged (it was a 500)', async (_case, metadata, message) => {
    const organizationId = newOrganization();
    const id = await booking(organizationId);
    const reply = await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { metadata });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'VALIDATION_ERROR', error: message });
    expect((await call(suite.bookings, organizationId, 'GET', `/api/v1/bookings/${id}`)).body.data.metadata).toBeNull();
  });

  it('when metadata weighs 17 KB as JSON, then 400 naming metadata; 15 KB is taken', async () => {
    const organizationId = newOrganization();
    const id = await booking(organizationId);
    const heavy = await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { metadata: metadataOf(17 * 1024) });
    expect(heavy.status).toBe(400);
    expect(heavy.body.error).toMatch(/^metadata must be at most 16384 bytes as JSON/);
    const metadata = metadataOf(15 * 1024);
    const light = await call(suite.bookings, organizationId, 'PATCH', `/api/v1/bookings/${id}`, { metadata });
    expect(light.status).toBe(200);
    expect(light.body.data.metadata).toEqual(metadata);
  });
});
