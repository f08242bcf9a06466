import { describe, expect, it } from 'vitest';
import { canonicalJson, requestHash } from '../../src/domain/request-hash.js';

describe('requestHash', () => {
  it('when two bodies differ only in key order, then they hash equally', () => {
    expect(requestHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(requestHash({ b: { d: 'x', c: [1, 2] }, a: 1 }));
  });

  it('when a value differs, then the hash differs', () => {
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
  });

  it('when a body holds dates and undefined fields, then dates are ISO strings and undefined is left out', () => {
    expect(canonicalJson({ t: new Date('2030-01-01T00:00:00Z'), u: undefined, n: null })).toBe('{"n":null,"t":"2030-01-01T00:00:00.000Z"}');
  });
});
