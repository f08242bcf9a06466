import { setTimeout as sleep } from 'node:timers/promises';
import { retryDelayMs } from '../domain/retry-policy.js';
import { ProviderError, ProviderUnavailableError, ReauthRequiredError, RetryLaterError, type Classified } from './provider-errors.js';

export interface RetrySettings {
  /** Tries per request, the first included. */
  attempts: number;
  baseMs: number;
  /** A Retry-After up to this long is waited out; a longer one ends the sync (RetryLaterError). */
  maxWaitMs: number;
  random?: () => number;
}

/**
 * Runs one provider request with the sync's retry rules, turning every failure into one of the three typed
 * errors the sync understands: ReauthRequiredError, RetryLaterError or ProviderError.
 */
export async function withRetries<T>(
  operation: () => Promise<T>,
  classify: (error: unknown) => Classified,
  settings: RetrySettings,
  signal: AbortSignal,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    let verdict: Classified;
    try {
      return await operation();
    } catch (error) {
      if (error instanceof ReauthRequiredError || error instanceof RetryLaterError || error instanceof ProviderError) throw error;
      verdict = classify(error);
    }
    if (verdict.kind === 'reauth') throw new ReauthRequiredError(verdict.message);
    if (verdict.kind === 'fail') throw new ProviderError(verdict.message, verdict.status);
    const asked = verdict.retryAfterMs;
    if (asked !== undefined && asked > settings.maxWaitMs)
      throw new RetryLaterError(`${verdict.message}; retrying after ${Math.ceil(asked / 1000)} s`, asked);
    if (attempt >= settings.attempts) {
      if (asked !== undefined) throw new RetryLaterError(`${verdict.message}; retrying after ${Math.ceil(asked / 1000)} s`, asked);
      throw new ProviderUnavailableError(
        settings.attempts === 1 ? verdict.message : `${verdict.message} (gave up after ${attempt} attempts)`,
      );
    }
    if (signal.aborted) throw new ProviderError('sync cancelled');
    await sleep(asked ?? retryDelayMs(attempt, settings.baseMs, settings.random ?? Math.random), undefined, { signal }).catch(() => {
      throw new ProviderError('sync cancelled');
    });
  }
}

/**
 * Runs a whole write-back step again after a failure a retry may fix (ProviderUnavailableError, or a Retry-After a
 * write waits out), up to `settings.attempts` tries: each try looks for the event before making one, so trying the
 * step again never makes a second event. Anything else, or the last failure, is thrown.
 */
export async function retryStep<T>(step: () => Promise<T>, settings: RetrySettings, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      const wait =
        error instanceof ProviderUnavailableError
          ? retryDelayMs(attempt, settings.baseMs, settings.random ?? Math.random)
          : error instanceof RetryLaterError && error.delayMs <= settings.maxWaitMs
            ? error.delayMs
            : undefined;
      if (wait === undefined || attempt >= settings.attempts || signal.aborted) throw error;
      await sleep(wait, undefined, { signal }).catch(() => {
        throw error;
      });
    }
  }
}
