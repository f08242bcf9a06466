import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { asyncApiSnapshotFile, checkEventContracts, evaluateEventGate, writeEventSnapshot } from '../src/index.ts';

type Schema = Record<string, unknown>;
interface EventFixture {
  subject: string;
  /** Each schema_version the channel carries, with its `data` schema: the current one first. */
  versions: [number, Schema][];
}

/** An AsyncAPI document shaped as @app/contracts writes it: a channel per subject, a message per version, envelope payloads. */
function eventDocument(...events: EventFixture[]) {
  const channels: Schema = {};
  const messages: Schema = {};
  for (const { subject, versions } of events) {
    const names = versions.map(([version]) => `${subject}.v${version}`);
    channels[subject] = {
      address: subject,
      messages: Object.fromEntries(names.map((name) => [name, { $ref: `#/components/messages/${name}` }])),
    };
    versions.forEach(([version, data], index) => {
      messages[names[index] as string] = {
        name: subject,
        payload: {
          type: 'object',
          properties: {
            id: { type: 'string', format: 'uuid' },
            type: { type: 'string', const: subject },
            schema_version: { type: 'integer', const: version },
            data,
          },
          required: ['id', 'type', 'schema_version', 'data'],
        },
      };
    });
  }
  return { asyncapi: '3.0.0', info: { title: 'fixture', version: '1.0.0' }, channels, components: { messages } };
}

const object = (properties: Schema, required: string[]): Schema => ({ type: 'object', properties, required });
const uuid = { type: 'string', format: 'uuid' };
const status = { type: 'string', enum: ['PENDING', 'CONFIRMED'] };
const integer = { type: 'integer' };

/** The committed baseline: `booking.created` v1 with booking_id, status and an optional note. */
const V1 = object({ booking_id: uuid, status, note: { type: 'string' } }, ['booking_id', 'status']);
const committed = eventDocument({ subject: 'bookings.booking.created', versions: [[1, V1]] });
const created = (...versions: [number, Schema][]) => eventDocument({ subject: 'bookings.booking.created', versions });

describe('evaluateEventGate (the AsyncAPI breaking-change gate)', () => {
  it('when nothing changes, or an optional field is added under the same schema_version, then it passes', () => {
    expect(evaluateEventGate(committed, committed)).toEqual({ ok: true, breaking: [], problems: [] });
    const withOptional = object({ booking_id: uuid, status, note: { type: 'string' }, title: { type: 'string' } }, [
      'booking_id',
      'status',
    ]);

    expect(evaluateEventGate(committed, created([1, withOptional]))).toEqual({ ok: true, breaking: [], problems: [] });
  });

  const breakingKinds: [string, Schema, string[]][] = [
    ['a removed field', object({ booking_id: uuid, note: { type: 'string' } }, ['booking_id']), ['field `data.status` was removed']],
    [
      'a renamed field',
      object({ id: uuid, status, note: { type: 'string' } }, ['id', 'status']),
      ['field `data.booking_id` was removed', 'new required field `data.id`'],
    ],
    [
      'a type change',
      object({ booking_id: uuid, status, note: integer }, ['booking_id', 'status']),
      ['field `data.note` no longer accepts string (type string → integer)'],
    ],
    [
      'a new required field',
      object({ booking_id: uuid, status, note: { type: 'string' }, title: { type: 'string' } }, ['booking_id', 'status', 'title']),
      ['new required field `data.title`'],
    ],
    [
      'a field becoming required',
      object({ booking_id: uuid, status, note: { type: 'string' } }, ['booking_id', 'status', 'note']),
      ['field `data.note` is now required'],
    ],
  ];

  for (const [kind, data, messages] of breakingKinds) {
    it(`when ${kind} keeps schema_version 1, then it fails naming the event and the field`, () => {
      const verdict = evaluateEventGate(committed, created([1, data]));

      expect(verdict.ok).toBe(false);
      expect(verdict.breaking.map((change) => change.message).sort()).toEqual([...messages].sort());
      expect(verdict.breaking.every((change) => change.location === 'bookings.booking.created (schema_version 1)')).toBe(true);
      expect(verdict.problems).toEqual([expect.stringContaining('bookings.booking.created: ')]);
      expect(verdict.problems[0]).toContain('publish the new shape as schema_version 2');
    });

    it(`when ${kind} comes as schema_version 2 that keeps version 1 readable, then it passes`, () => {
      expect(evaluateEventGate(committed, created([2, data], [1, V1]))).toEqual({ ok: true, breaking: [], problems: [] });
    });
  }

  it('when schema_version 2 drops version 1, or changes it, then it fails', () => {
    const v2 = object({ id: uuid }, ['id']);

    expect(evaluateEventGate(committed, created([2, v2])).problems).toEqual([
      expect.stringContaining('bookings.booking.created: schema_version 2 must keep version 1 readable'),
    ]);
    const changedV1 = object({ booking_id: uuid }, ['booking_id']);
    const verdict = evaluateEventGate(committed, created([2, v2], [1, changedV1]));
    expect(verdict.problems).toEqual([expect.stringContaining('the previous version, 1, must stay as it was published')]);
    expect(verdict.breaking.map((change) => change.message)).toEqual(['field `data.status` was removed', 'field `data.note` was removed']);
  });

  it('when schema_version jumps past the next one or goes back, then it fails', () => {
    const v3 = object({ id: uuid }, ['id']);
    expect(evaluateEventGate(committed, created([3, v3], [2, V1])).problems).toEqual([
      expect.stringContaining('schema_version jumped from 1 to 3'),
    ]);
    expect(evaluateEventGate(created([2, v3], [1, V1]), committed).problems).toEqual([
      expect.stringContaining('schema_version went back from 2 to 1'),
    ]);
  });

  it('when an event disappears, then it fails; a new event passes', () => {
    const other = { subject: 'bookings.booking.updated', versions: [[1, V1]] as [number, Schema][] };

    expect(evaluateEventGate(committed, eventDocument()).problems).toEqual([
      'bookings.booking.created was removed: its consumers (and subscribers) still read it',
    ]);
    expect(evaluateEventGate(committed, eventDocument({ subject: 'bookings.booking.created', versions: [[1, V1]] }, other)).ok).toBe(true);
  });
});

describe('asyncapi:check and asyncapi:snapshot', () => {
  const roots: string[] = [];
  const repository = () => {
    const root = mkdtempSync(join(tmpdir(), 'asyncapi-gate-'));
    roots.push(root);
    return root;
  };
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  it('when there is no snapshot, then check fails asking for one; snapshot writes it and check passes', async () => {
    const root = repository();
    expect(await checkEventContracts(root, committed)).toEqual({
      ok: false,
      text: expect.stringContaining('run npm run asyncapi:snapshot'),
    });

    expect((await writeEventSnapshot(root, committed)).ok).toBe(true);

    expect(await checkEventContracts(root, committed)).toEqual({ ok: true, text: expect.stringContaining('OK: no breaking changes.') });
  });

  it('when the contracts change compatibly, then check fails until the snapshot is written again', async () => {
    const root = repository();
    await writeEventSnapshot(root, committed);
    const compatible = created([
      1,
      object({ booking_id: uuid, status, note: { type: 'string' }, title: { type: 'string' } }, ['booking_id', 'status']),
    ]);

    expect(await checkEventContracts(root, compatible)).toEqual({
      ok: false,
      text: expect.stringContaining('asyncapi/asyncapi.json is not the document the contracts give'),
    });
    await writeEventSnapshot(root, compatible);
    expect((await checkEventContracts(root, compatible)).ok).toBe(true);
  });

  it('when the contracts break an event under the same schema_version, then check fails and snapshot refuses to write', async () => {
    const root = repository();
    await writeEventSnapshot(root, committed);
    const before = readFileSync(asyncApiSnapshotFile(root), 'utf8');
    const breaking = created([1, object({ booking_id: uuid }, ['booking_id'])]);

    const check = await checkEventContracts(root, breaking);
    const snapshot = await writeEventSnapshot(root, breaking);

    expect(check.ok).toBe(false);
    expect(check.text).toContain('bookings.booking.created (schema_version 1): field `data.status` was removed');
    expect(snapshot).toEqual({ ok: false, text: expect.stringContaining('asyncapi/asyncapi.json was not written') });
    expect(readFileSync(asyncApiSnapshotFile(root), 'utf8')).toBe(before);
  });
});
