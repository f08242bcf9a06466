import { Client, GraphError, HTTPMessageHandler, type Context, type Middleware } from '@microsoft/microsoft-graph-client';
import { REFRESH_MARGIN_MS, type TokenBox } from './calendar-reader.js';
import { classifyMicrosoftError } from './graph-errors.js';
import type { MicrosoftTokenClient } from './microsoft-token.client.js';
import { ProviderError } from './provider-errors.js';
import { withRetries, type RetrySettings } from './provider-retry.js';

/**
 * A nextLink as a path under the configured Graph root. Graph's links name its own host; we follow them
 * against our base URL (never sending the token to a host from a response).
 */
export function relativeToRoot(nextLink: string, graphUrl: string): string {
  const root = graphUrl.replace(/\/+$/, '');
  if (nextLink.startsWith(`${root}/`)) return nextLink.slice(root.length);
  let url: URL;
  try {
    url = new URL(nextLink);
  } catch {
    throw new ProviderError('Microsoft Graph answered an unreadable @odata.nextLink');
  }
  // https://graph.microsoft.com/v1.0/me/… → /me/… (drop the version segment).
  return `/${url.pathname.split('/').slice(2).join('/')}${url.search}`;
}

/** Attaches the current access token to every request, whatever the host (the default auth middleware only does so for Graph's own hosts). */
class BearerTokenMiddleware implements Middleware {
  private next: Middleware | undefined;

  constructor(private readonly token: () => string) {}

  async execute(context: Context): Promise<void> {
    const headers = new Headers(context.options?.headers as ConstructorParameters<typeof Headers>[0]);
    headers.set('Authorization', `Bearer ${this.token()}`);
    context.options = { ...context.options, headers };
    if (!this.next) throw new Error('BearerTokenMiddleware needs a next middleware');
    await this.next.execute(context);
  }

  setNext(next: Middleware): void {
    this.next = next;
  }
}

/**
 * The real Graph client with our own auth middleware: the client's default one attaches tokens only to the known
 * Graph hosts, and ours must work against any configured base URL (a local server in tests).
 */
export function graphClient(graphUrl: string, tokens: TokenBox): Client {
  return Client.initWithMiddleware({
    baseUrl: graphUrl,
    defaultVersion: '',
    middleware: [new BearerTokenMiddleware(() => tokens.current.accessToken), new HTTPMessageHandler()],
  });
}

/**
 * The access token of one sync (or one write): refreshed shortly before expiry, and once after a 401. Refreshing happens
 * here, outside the Graph client, because the client would wrap a refusal (invalid_grant) in a GraphError.
 */
export class TokenSession {
  private refreshedAfter401 = false;

  constructor(
    private readonly tokens: TokenBox,
    private readonly client: MicrosoftTokenClient,
    private readonly retry: RetrySettings,
    private readonly signal: AbortSignal,
  ) {}

  async withAuthRetry<T>(request: () => Promise<T>): Promise<T> {
    if (this.tokens.current.expiresAt.getTime() - Date.now() < REFRESH_MARGIN_MS) await this.refresh();
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof GraphError) || error.statusCode !== 401 || this.refreshedAfter401) throw error;
      this.refreshedAfter401 = true;
      await this.refresh();
      return request();
    }
  }

  private async refresh(): Promise<void> {
    const fresh = await withRetries(
      () => this.client.refresh(this.tokens.current.refreshToken, this.tokens.access, this.signal),
      classifyMicrosoftError,
      this.retry,
      this.signal,
    );
    this.tokens.replace(fresh);
  }
}
