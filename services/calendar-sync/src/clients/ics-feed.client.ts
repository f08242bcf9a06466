import {
  AppError,
  checkTargetUrl,
  guardedLookup,
  refusedLiteral,
  TargetRefusedError,
  type Resolve,
  type TargetPolicy,
} from '@app/service-kit';
import { Agent, request, type Dispatcher } from 'undici';
import { ProviderError, retryAfterFrom } from './provider-errors.js';

export interface FeedFetchSettings {
  policy: TargetPolicy;
  resolve: Resolve;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Replaces the guarded agent (tests route a public test name to their local server with it). */
  dispatcher?: Dispatcher | undefined;
}

/** What the feed's server answered: a new body with its validators, or 304 (the last read still holds). */
export type FeedResponse = { kind: 'unchanged' } | { kind: 'changed'; text: string; etag: string | null; lastModified: string | null };

/** A non-2xx answer, classified for retries by the reader (5xx, 408 and 429 are retried). */
export class FeedHttpError extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`The ICS feed answered HTTP ${status}`);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GETs a customer's ICS URL with the webhooks' address rules: every connection resolves through the guarded lookup (a
 * name that resolves to a private address is refused at connect, DNS rebinding included), an IP literal is checked
 * before each request, and redirects are followed by hand, at most `maxRedirects`, each target checked like the URL
 * itself. The body is streamed and reading stops past `maxBytes`. Errors never show the URL (it carries a secret).
 */
export class FeedFetcher {
  private readonly dispatcher: Dispatcher;
  /** The agent this fetcher made (and closes); a given dispatcher is its owner's to close. */
  private readonly own: Agent | undefined = undefined;

  constructor(private readonly settings: FeedFetchSettings) {
    if (settings.dispatcher) {
      this.dispatcher = settings.dispatcher;
      return;
    }
    this.own = new Agent({
      connect: { lookup: guardedLookup(settings.resolve, settings.policy), timeout: settings.timeoutMs },
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
    this.dispatcher = this.own;
  }

  async fetch(
    url: string,
    validators: { etag: string | null; lastModified: string | null } | null,
    signal: AbortSignal,
  ): Promise<FeedResponse> {
    let target = new URL(url);
    const timeout = AbortSignal.any([signal, AbortSignal.timeout(this.settings.timeoutMs)]);
    for (let hops = 0; ; hops += 1) {
      const refused = refusedLiteral(target, this.settings.policy);
      if (refused) throw new ProviderError(`The ICS feed's address is refused: ${refused.message}`);
      const response = await request(target, {
        method: 'GET',
        headers: requestHeaders(validators),
        dispatcher: this.dispatcher,
        signal: timeout,
      });
      const status = response.statusCode;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && typeof location === 'string') {
        await response.body.dump().catch(() => undefined);
        if (hops >= this.settings.maxRedirects)
          throw new ProviderError(`The ICS feed redirected more than ${this.settings.maxRedirects} times`);
        target = await this.checkedRedirect(new URL(location, target));
        continue;
      }
      if (status === 304 && validators) {
        await response.body.dump().catch(() => undefined);
        return { kind: 'unchanged' };
      }
      if (status < 200 || status >= 300) {
        await response.body.dump().catch(() => undefined);
        throw new FeedHttpError(status, retryAfterFrom(response.headers));
      }
      const text = await this.readLimited(response);
      return { kind: 'changed', text, etag: header(response, 'etag'), lastModified: header(response, 'last-modified') };
    }
  }

  /** A redirect's target passes the same checks as the URL given at create (scheme, credentials, public address). */
  private async checkedRedirect(next: URL): Promise<URL> {
    try {
      return new URL(await checkTargetUrl(next.href, this.settings.policy, this.settings.resolve));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const reason = error.message.replace(/^url /, 'the target ');
      throw new ProviderError(`The ICS feed redirected to ${next.host}, which is refused: ${reason}`);
    }
  }

  private async readLimited(response: Dispatcher.ResponseData): Promise<string> {
    const limit = this.settings.maxBytes;
    const tooLarge = () => new ProviderError(`The ICS feed is larger than ${limit} bytes (CALENDAR_ICS_MAX_BYTES)`);
    if (Number(response.headers['content-length'] ?? 0) > limit) {
      response.body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        response.body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  }

  async close(): Promise<void> {
    await this.own?.close();
  }
}

function requestHeaders(validators: { etag: string | null; lastModified: string | null } | null): Record<string, string> {
  const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'calendar-sync (ICS busy times)' };
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified) headers['if-modified-since'] = validators.lastModified;
  return headers;
}

function header(response: Dispatcher.ResponseData, name: string): string | null {
  const value = response.headers[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A connection refused by the guarded lookup (DNS answered a private address at connect). */
export function isRefusedTarget(error: unknown): error is Error {
  return error instanceof TargetRefusedError || (error instanceof Error && error.cause instanceof TargetRefusedError);
}
