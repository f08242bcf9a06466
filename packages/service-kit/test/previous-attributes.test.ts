import { describe, expect, it } from 'vitest';
import { previousAttributes } from '../src/index.js';

describe('previousAttributes', () => {
  it.each([
    [
      'a status move',
      { id: 'b1', status: 'PENDING', updated_at: 'then' },
      { id: 'b1', status: 'CONFIRMED', updated_at: 'now' },
      { status: 'PENDING' },
    ],
    [
      'a reschedule',
      { start_time: 'a', end_time: 'b', title: null },
      { start_time: 'c', end_time: 'd', title: null },
      { start_time: 'a', end_time: 'b' },
    ],
    ['an object whose keys only moved', { metadata: { a: 1, b: 2 } }, { metadata: { b: 2, a: 1 } }, {}],
    ['a nested value', { attendee: { name: 'Ada' } }, { attendee: { name: 'Ann' } }, { attendee: { name: 'Ada' } }],
    ['a field cleared', { title: 'Call' }, { title: null }, { title: 'Call' }],
    ['a field the record did not have', { id: 'p1' }, { id: 'p1', stock: 3 }, { stock: null }],
    ['only updated_at', { updated_at: 'then' }, { updated_at: 'now' }, {}],
  ])('when %s, then it holds the changed fields with their values before', (_case, before, after, expected) => {
    expect(previousAttributes(before, after)).toEqual(expected);
  });
});
