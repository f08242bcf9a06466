import { describe, expect, it } from 'vitest';
import { preparedForTests, startedForTests } from '../src/started-for-tests.js';

/** A started thing with a private field: its methods must run on it, not on the view of it. */
class Thing {
  static made: Thing[] = [];
  stopped = false;
  readonly #name: string;

  constructor(name: string) {
    this.#name = name;
    Thing.made.push(this);
  }

  name(): string {
    return this.#name;
  }

  stop(): Promise<void> {
    this.stopped = true;
    return Promise.resolve();
  }
}

describe('startedForTests', () => {
  const thing = startedForTests(() => Promise.resolve(new Thing('shared')));
  const label = preparedForTests(() => Promise.resolve({ text: `of ${thing.name()}` }));

  it('when read inside a test, then it is the started thing: its fields, its methods, its keys', () => {
    expect(thing.stopped).toBe(false);
    expect(thing.name()).toBe('shared');
    expect('stop' in thing).toBe(true);
    expect({ ...thing }).toEqual({ stopped: false });
  });

  it('when a prepared value uses a started one, then it is made after it (hooks run in order)', () => {
    expect(label.text).toBe('of shared');
  });
});

const stops: string[] = [];

describe('startedForTests with several things', () => {
  startedForTests(async () => ({ name: 'first', stop: () => stops.push('first') }));
  startedForTests(async () => ({ name: 'second', close: () => stops.push('second') }), { stop: (second) => second.close() });

  it('when the block runs, then nothing is stopped yet', () => {
    expect(stops).toEqual([]);
  });
});

describe('startedForTests, after the blocks that started them', () => {
  it('when its block has ended, then the thing was stopped', () => {
    expect(Thing.made.map((made) => made.stopped)).toEqual([true]);
  });

  it('when several were started, then the last started was stopped first, each as its options say', () => {
    expect(stops).toEqual(['second', 'first']);
  });
});

describe('startedForTests, read too early', () => {
  const early = startedForTests(() => Promise.resolve(new Thing('early')));
  let error: unknown;
  try {
    early.name();
  } catch (thrown) {
    error = thrown;
  }

  it('when read before its beforeAll has run, then it throws saying so', () => {
    expect(String(error)).toMatch(/not started yet/);
  });
});
