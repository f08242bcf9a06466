import { afterAll, beforeAll } from 'vitest';

/**
 * What the tests of a file (or of a describe block, when called inside it) share: `start` runs in its beforeAll,
 * `stop()` in its afterAll (not when the start failed); what is started later is stopped first. The value reads as
 * the started thing itself, so a test writes `running.app` and `stack.call(…)` as it would with its own `let`; read it
 * inside tests and hooks only, as a `let` set in a beforeAll: before the hook has run, reading it throws and says so
 * (a `let` would be undefined). What stops otherwise (`close()`, `remove()`) names how in `options.stop`.
 */
export function startedForTests<T extends { stop(): unknown }>(start: () => Promise<T>, options?: { timeout?: number }): T;
export function startedForTests<T extends object>(start: () => Promise<T>, options: { timeout?: number; stop: (started: T) => unknown }): T;
export function startedForTests<T extends object>(
  start: () => Promise<T>,
  options: { timeout?: number; stop?: (started: T) => unknown } = {},
): T {
  const stop = options.stop ?? ((started: T) => (started as T & { stop(): unknown }).stop());
  const shared = sharedByTests(start, options.timeout);
  afterAll(async () => {
    if (shared.value !== undefined) await stop(shared.value);
  });
  return shared.view;
}

/** Made once in a beforeAll for the tests of a file or describe block, with nothing to stop (a client, an organization's data). */
export function preparedForTests<T extends object>(prepare: () => Promise<T>, options: { timeout?: number } = {}): T {
  return sharedByTests(prepare, options.timeout).view;
}

function sharedByTests<T extends object>(make: () => Promise<T>, timeout: number | undefined): { value: T | undefined; view: T } {
  const shared: { value: T | undefined; view: T } = { value: undefined, view: undefined as never };
  beforeAll(async () => {
    shared.value = await make();
  }, timeout);
  const current = (): T => {
    if (shared.value === undefined) throw new Error('not started yet: read what the tests share inside tests and hooks');
    return shared.value;
  };
  shared.view = new Proxy({} as T, {
    get(_target, property) {
      const value: unknown = Reflect.get(current(), property);
      // Bound, so that a method reaches its own object (a class's private fields) and not this view.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(current()) : value;
    },
    has: (_target, property) => Reflect.has(current(), property),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor(_target, property) {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), property);
      // The view's own target is an empty object: a property it lacks must be reported as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return shared;
}
