import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { dataEnvelope, errorResponses, ifMatchHeadersSchema, ifNoneMatchHeadersSchema } from '@app/contracts';
import { answerRecord, buildService, ifMatchOf, migrate, requireMatch, type ServiceApp } from '../src/index.js';
import { entityTag, parseTagList } from '../src/http/entity-tags.js';
import { silentLog } from './support/kit-env.js';

type Operation = { parameters?: { in: string; name: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> };

describe('entity tags', () => {
  it('when two records, or two versions of one, are tagged, then each tag is its own, strong and quoted', () => {
    const tags = [entityTag('a', 1), entityTag('a', 2), entityTag('b', 1), entityTag('a', [1, 2]), entityTag('a', [1, true])];
    expect(new Set(tags).size).toBe(tags.length);
    expect(entityTag('a', [1, 1])).toBe(entityTag('a', [1, true])); // a flag counts as 0 or 1
    for (const tag of tags) expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(entityTag('a', 1)).toBe(entityTag('a', 1));
  });

  it('when a header lists tags (weak ones, commas inside quotes, junk), then each tag is read and the junk skipped', () => {
    expect(parseTagList('"a", W/"b",junk , "c,d",, "e"')).toEqual([
      { opaque: '"a"', weak: false },
      { opaque: '"b"', weak: true },
      { opaque: '"c,d"', weak: false },
      { opaque: '"e"', weak: false },
    ]);
    expect(parseTagList('*')).toBe('*');
    expect(parseTagList(' "a" , * ')).toBe('*');
    expect(parseTagList('  ')).toBeUndefined();
    expect(parseTagList(undefined)).toBeUndefined();
    expect(parseTagList('"unterminated')).toEqual([]);
  });
});

describe('conditional requests', () => {
  let service: ServiceApp;
  const state = { version: 1, title: 'first' };
  const id = 'f1d2c3b4-0000-4000-8000-000000000001';

  beforeAll(async () => {
    service = await buildService({ name: 'conditional-test', log: silentLog, verifyCallerAssertion: false });
    const thing = dataEnvelope(z.object({ id: z.string(), title: z.string() }));
    service.get(
      '/api/v1/things/:id',
      { schema: { operationId: 'getThing', headers: ifNoneMatchHeadersSchema, response: { 200: thing, ...errorResponses('NOT_FOUND') } } },
      async (request, reply) => answerRecord(request, reply, { record: { id, title: state.title }, version: state.version }),
    );
    service.patch(
      '/api/v1/things/:id',
      {
        schema: {
          operationId: 'updateThing',
          headers: ifMatchHeadersSchema,
          body: z.object({ title: z.string() }),
          response: { 200: thing, ...errorResponses('NOT_FOUND') },
        },
      },
      async (request, reply) => {
        requireMatch(ifMatchOf(request), { id, version: state.version });
        Object.assign(state, { version: state.version + 1, title: request.body.title });
        return answerRecord(request, reply, { record: { id, title: state.title }, version: state.version });
      },
    );
    service.delete(
      '/api/v1/things/:id',
      {
        schema: {
          operationId: 'deleteThing',
          headers: ifMatchHeadersSchema,
          response: { 200: dataEnvelope(z.object({ id: z.string(), deleted: z.literal(true) })) },
        },
      },
      async (request) => {
        requireMatch(ifMatchOf(request), { id, version: state.version });
        return { data: { id, deleted: true as const } };
      },
    );
    await service.ready();
  });
  afterAll(() => service.close());

  it('when the document is written, then GET has If-None-Match, a 304 and the ETag; PATCH If-Match, a 412 and the ETag; DELETE no ETag', () => {
    const paths = (service.swagger() as unknown as { paths: Record<string, Record<string, Operation>> }).paths;
    const { get, patch, delete: remove } = paths['/api/v1/things/{id}']!;
    const headersOf = (operation: Operation) => operation.parameters!.filter((p) => p.in === 'header').map((p) => p.name);
    expect(headersOf(get!)).toEqual(['if-none-match']);
    expect(Object.keys(get!.responses)).toEqual(['200', '304', '404']); // no 400: the header takes any text
    expect(Object.keys(get!.responses['200']!.headers!)).toEqual(['etag']);
    expect(Object.keys(get!.responses['304']!.headers!)).toEqual(['etag']);
    expect(headersOf(patch!)).toEqual(['if-match']);
    expect(Object.keys(patch!.responses)).toEqual(['200', '400', '404', '412', '413', '415']);
    expect(Object.keys(patch!.responses['200']!.headers!)).toEqual(['etag']);
    expect(Object.keys(remove!.responses)).toEqual(['200', '412']);
    expect(remove!.responses['200']!.headers).toBeUndefined();
  });

  it('when a GET, a HEAD and a PATCH are answered, then If-None-Match gives 304 and a stale If-Match 412, nothing changed', async () => {
    const url = `/api/v1/things/${id}`;
    const read = await service.inject({ url });
    const etag = String(read.headers.etag);
    expect((await service.inject({ url, headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const head = await service.inject({ method: 'HEAD', url, headers: { 'if-none-match': `W/${etag}` } });
    expect([head.statusCode, head.body]).toEqual([304, '']);

    const patched = await service.inject({ method: 'PATCH', url, headers: { 'if-match': etag }, payload: { title: 'second' } });
    expect(patched.statusCode).toBe(200);
    expect(patched.headers.etag).not.toBe(etag);
    const stale = await service.inject({ method: 'PATCH', url, headers: { 'if-match': etag }, payload: { title: 'third' } });
    expect([stale.statusCode, stale.json()]).toEqual([
      412,
      { error: "If-Match does not match the record's current ETag", code: 'PRECONDITION_FAILED' },
    ]);
    expect(state.title).toBe('second');
    expect((await service.inject({ url, headers: { 'if-none-match': etag } })).statusCode).toBe(200);
    expect((await service.inject({ method: 'DELETE', url, headers: { 'if-match': `W/${String(patched.headers.etag)}` } })).statusCode).toBe(
      412,
    );
    expect((await service.inject({ method: 'DELETE', url, headers: { 'if-match': String(patched.headers.etag) } })).statusCode).toBe(200);
  });
});

describe('bump_record_version()', () => {
  it('when a row is updated without raising its version, then the trigger raises it by one; a version set by the write is kept', async () => {
    const schema = `ver_${randomBytes(4).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    writeFileSync(
      join(dir, '0001_init.sql'),
      `CREATE TABLE widgets (id int PRIMARY KEY, name text NOT NULL, lease text, version integer NOT NULL DEFAULT 1);
       CREATE TRIGGER widgets_version BEFORE UPDATE ON widgets
         FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION bump_record_version();`,
    );
    const databaseUrl = inject('databaseUrl');
    await migrate({ databaseUrl, schema, dir });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const version = async (sql: string) => {
        await client.query(sql);
        return (await client.query<{ version: number }>(`SELECT version FROM "${schema}".widgets`)).rows[0]?.version;
      };
      expect(await version(`INSERT INTO "${schema}".widgets (id, name) VALUES (1, 'a')`)).toBe(1);
      expect(await version(`UPDATE "${schema}".widgets SET name = 'b'`)).toBe(2);
      expect(await version(`UPDATE "${schema}".widgets SET name = 'c', version = version + 3`)).toBe(5);
      expect(await version(`UPDATE "${schema}".widgets SET name = 'd', version = 1`)).toBe(6);
      expect(await version(`UPDATE "${schema}".widgets SET lease = 'x'`)).toBe(6); // a column no answer shows
    } finally {
      await client.end();
    }
  });
});
