import type { Interval } from '../domain/busy-windows.js';
import type { CalendarFeed, FeedValidators } from '../domain/connection-feed.js';
import { icsBusyWindows, IcsParseError } from '../domain/ics-feed.js';
import { FeedHttpError, isRefusedTarget, type FeedFetcher } from './ics-feed.client.js';
import { classifyHttpFailure, describeError, ProviderError, type Classified } from './provider-errors.js';
import { withRetries, type RetrySettings } from './provider-retry.js';

export interface ReadFeedInput {
  feed: CalendarFeed;
  range: Interval;
  /** The schedule's zone: all-day events block its local days, floating times are read in it. */
  timeZone: string;
  signal: AbortSignal;
}

/** The feed's busy windows with the validators to send next time, or `unchanged` (304: the stored windows hold). */
export type FeedRead = { kind: 'unchanged' } | { kind: 'read'; windows: Interval[]; validators: FeedValidators };

/** The reader of ICS connections: one feed is one calendar (`calendar_ids` shows `["ics"]`). */
export interface IcsFeedReader {
  readFeed(input: ReadFeedInput): Promise<FeedRead>;
}

export interface IcsReaderSettings {
  fetcher: FeedFetcher;
  retry: RetrySettings;
  maxOccurrencesPerEvent: number;
}

/**
 * A full read expands the feed this much past the sync's range and stores it, so that a 304 within a week still
 * covers the range of a later sync (which has moved on); past that the feed is fetched in full, without validators.
 */
const COVER_MARGIN_MS = 7 * 86_400_000;

/** Reads a feed with the sync's retry rules (5xx, 408, 429 and network errors); the address guard's refusals fail at once. */
export function icsCalendarReader(settings: IcsReaderSettings): IcsFeedReader {
  return {
    async readFeed({ feed, range, timeZone, signal }: ReadFeedInput): Promise<FeedRead> {
      const { validators } = feed;
      const covered = validators.coveredUntil !== null && validators.coveredUntil >= range.end;
      const conditional = covered && (validators.etag !== null || validators.lastModified !== null) ? validators : null;
      const response = await withRetries(
        () => settings.fetcher.fetch(feed.url, conditional, signal),
        classifyFeedError,
        settings.retry,
        signal,
      );
      if (response.kind === 'unchanged') return { kind: 'unchanged' };
      const coveredUntil = new Date(range.end.getTime() + COVER_MARGIN_MS);
      try {
        const windows = icsBusyWindows(response.text, {
          range: { start: range.start, end: coveredUntil },
          timeZone,
          maxOccurrencesPerEvent: settings.maxOccurrencesPerEvent,
        });
        return { kind: 'read', windows, validators: { etag: response.etag, lastModified: response.lastModified, coveredUntil } };
      } catch (error) {
        if (error instanceof IcsParseError) throw new ProviderError(error.message);
        throw error;
      }
    },
  };
}

function classifyFeedError(error: unknown): Classified {
  if (error instanceof FeedHttpError) {
    return classifyHttpFailure({ status: error.status, retryAfterMs: error.retryAfterMs, message: error.message });
  }
  if (isRefusedTarget(error)) return { kind: 'fail', message: `The ICS feed's address is refused: ${error.message}` };
  return classifyHttpFailure({
    status: undefined,
    retryAfterMs: undefined,
    message: `The ICS feed could not be fetched: ${describeError(error)}`,
  });
}
