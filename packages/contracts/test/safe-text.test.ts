import { describe, expect, it } from 'vitest';
import { METADATA_MAX_BYTES, metadataSchema, nameString, proseString, unsafeTextProblem } from '../src/index.js';

describe('unsafeTextProblem', () => {
  it.each([
    ['plain text', 'Ada Lovelace', undefined, undefined],
    ['a surrogate pair (😀)', 'hi 😀', undefined, undefined],
    ['right-to-left text', 'שלום مرحبا', undefined, undefined],
    [
      'a lone high surrogate',
      'a\ud800b',
      'must not contain lone surrogates (invalid Unicode)',
      'must not contain lone surrogates (invalid Unicode)',
    ],
    [
      'a lone low surrogate',
      '\udc00',
      'must not contain lone surrogates (invalid Unicode)',
      'must not contain lone surrogates (invalid Unicode)',
    ],
    [
      'two high surrogates',
      '\ud800\ud800\udc00',
      'must not contain lone surrogates (invalid Unicode)',
      'must not contain lone surrogates (invalid Unicode)',
    ],
    ['a NUL', 'a\u0000', 'must not contain NUL characters', 'must not contain NUL characters'],
    ['a bidi override', 'abc\u202e', 'must not contain bidirectional control characters', undefined],
    ['a bidi embedding', '\u202aabc', 'must not contain bidirectional control characters', undefined],
    ['a bidi isolate', '\u2066x\u2069', 'must not contain bidirectional control characters', undefined],
    ['a left-to-right mark (not a control of the ranges)', 'a\u200eb', undefined, undefined],
  ])('when a string holds %s, then as a name: %s; as text: %s', (_case, value, asName, asText) => {
    expect(unsafeTextProblem(value, 'name')).toBe(asName);
    expect(unsafeTextProblem(value, 'text')).toBe(asText);
  });

  it('when a name or prose schema is longer than its maximum, then it says so; at the maximum it passes', () => {
    expect(nameString(5).safeParse('abcde').success).toBe(true);
    expect(nameString(5).safeParse('abcdef').error?.issues[0]?.message).toBe('must be at most 5 characters');
    expect(proseString(5).safeParse('ab\u202ecd').success).toBe(true);
    expect(nameString(5).safeParse('ab\u202ecd').error?.issues[0]?.message).toBe('must not contain bidirectional control characters');
  });
});

describe('metadataSchema', () => {
  it('when metadata is exactly the maximum as UTF-8 JSON, then it passes; one byte more, then it is refused', () => {
    const filler = (bytes: number) => ({ note: 'x'.repeat(bytes - '{"note":""}'.length) });
    expect(metadataSchema.safeParse(filler(METADATA_MAX_BYTES)).success).toBe(true);
    expect(metadataSchema.safeParse(filler(METADATA_MAX_BYTES + 1)).error?.issues[0]?.message).toBe(
      `must be at most ${METADATA_MAX_BYTES} bytes as JSON (it is ${METADATA_MAX_BYTES + 1})`,
    );
  });

  it('when a key deep inside holds a lone surrogate, then the issue is at the object holding it and names the key', () => {
    const issue = metadataSchema.safeParse({ a: [{ 'k\ud800': 1 }] }).error?.issues[0];
    expect(issue?.path).toEqual(['a', 0]);
    expect(issue?.message).toBe('key "k\ufffd" must not contain lone surrogates (invalid Unicode)');
  });

  it('when a key is longer than 256 characters, then it is refused by name', () => {
    expect(metadataSchema.safeParse({ ['k'.repeat(257)]: 1 }).error?.issues[0]?.message).toBe('must be a key of at most 256 characters');
  });
});
