import { setTimeout as sleep } from 'node:timers/promises';
import { FakeHttpServer, type FakeReply, type FakeRequest } from './fake-http.js';
import { calendarViewPage, type FakeOutlookEvent } from './fake-graph.js';
import { FakeGoogleEvents, type FakeGoogleCalendars } from './fake-google-events.js';
import { FakeGraphEvents } from './fake-graph-events.js';

export type { FakeOutlookEvent };

interface FakeBusy {
  start: string;
  end: string;
}

/** One Google / Microsoft account: its calendars and its tokens. */
export class FakeAccount {
  readonly google = new Map<string, FakeBusy[] | { error: string }>();
  readonly outlook = new Map<string, FakeOutlookEvent[]>();
  /** Events written through Google's events API, by calendar (they are busy time in freeBusy too). */
  readonly googleEvents: FakeGoogleCalendars = new Map();
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    readonly id: string,
    public accessToken: string,
    public refreshToken: string,
  ) {}

  credentials(expiresInMs = 3600_000) {
    return {
      access_token: this.accessToken,
      refresh_token: this.refreshToken,
      expires_at: new Date(Date.now() + expiresInMs).toISOString(),
    };
  }
}

export const CLIENT_ID = 'test-client-id';
const CLIENT_SECRET = 'test-client-secret';

/**
 * Google Calendar v3 (freeBusy + OAuth token endpoint) and Microsoft Graph v1.0 (calendarView + identity
 * platform token endpoint) as one local HTTP server, answering with their documented JSON shapes.
 */
export class FakeProviders {
  readonly http = new FakeHttpServer();
  private readonly accessTokens = new Map<string, FakeAccount>();
  private readonly refreshTokens = new Map<string, FakeAccount>();
  private readonly codes = new Map<string, FakeAccount>();
  private counter = 0;
  graphPageSize = 2;
  /** Where Graph's nextLinks point (real Graph names its own host); default: this server. */
  nextLinkBase: string | undefined;
  /** Delay of every calendar answer (to make overlapping syncs visible). */
  delayMs = 0;
  /** Google's events API (write-back): its failure injection (`stallAfterEffect`) lives there. */
  readonly googleEventsApi = new FakeGoogleEvents((request) => this.accountOf(request));
  /** calendarView answers as a Graph that ignores `$expand` (no extended properties). */
  graphIgnoresExpand = false;
  /** Graph's event writes (`/me/events`): created events land in the account's `outlook` calendars. */
  readonly graphEvents = new FakeGraphEvents(this.http, (request) => this.accountOf(request));

  async start(): Promise<void> {
    this.http.route('google.freebusy', 'POST', /^\/calendar\/v3\/freeBusy$/, (r) => this.freeBusy(r));
    this.http.route('google.token', 'POST', /^\/google\/token$/, (r) => this.token(r, 'google'));
    this.http.route('graph.calendarView', 'GET', /^\/graph\/v1\.0\/me\/(calendar|calendars\/[^/]+)\/calendarView$/, (r) =>
      this.calendarView(r),
    );
    this.http.route('microsoft.token', 'POST', /^\/microsoft\/token$/, (r) => this.token(r, 'microsoft'));
    this.googleEventsApi.register(this.http);
    this.graphEvents.register();
    await this.http.start();
  }

  stop(): Promise<void> {
    return this.http.stop();
  }

  env(): Record<string, string> {
    const url = this.http.url;
    return {
      GOOGLE_CLIENT_ID: CLIENT_ID,
      GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
      GOOGLE_API_URL: url,
      GOOGLE_TOKEN_URL: `${url}/google/token`,
      GOOGLE_AUTH_URL: `${url}/google/auth`,
      MICROSOFT_CLIENT_ID: CLIENT_ID,
      MICROSOFT_CLIENT_SECRET: CLIENT_SECRET,
      MICROSOFT_TOKEN_URL: `${url}/microsoft/token`,
      MICROSOFT_AUTH_URL: `${url}/microsoft/authorize`,
      GRAPH_API_URL: `${url}/graph/v1.0`,
    };
  }

  account(): FakeAccount {
    this.counter += 1;
    const id = `acct${this.counter}`;
    const account = new FakeAccount(id, `${id}-at-0`, `${id}-rt-0`);
    this.accessTokens.set(account.accessToken, account);
    this.refreshTokens.set(account.refreshToken, account);
    return account;
  }

  /** The access token stops working (the provider answers 401 until it is refreshed). */
  expireAccessToken(account: FakeAccount): void {
    this.accessTokens.delete(account.accessToken);
  }

  /** The user revoked access: refreshing answers invalid_grant. */
  revokeRefreshTokens(account: FakeAccount): void {
    for (const [token, owner] of this.refreshTokens) if (owner === account) this.refreshTokens.delete(token);
  }

  /** An authorization code the token endpoint exchanges for `account`'s tokens. */
  issueCode(account: FakeAccount): string {
    const code = `code-${account.id}-${this.codes.size}`;
    this.codes.set(code, account);
    return code;
  }

  private accountOf(request: FakeRequest): FakeAccount | undefined {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') ? this.accessTokens.get(header.slice(7)) : undefined;
  }

  private async busyWhile<T>(account: FakeAccount, work: () => T): Promise<T> {
    account.inFlight += 1;
    account.maxInFlight = Math.max(account.maxInFlight, account.inFlight);
    try {
      if (this.delayMs > 0) await sleep(this.delayMs);
      return work();
    } finally {
      account.inFlight -= 1;
    }
  }

  private async freeBusy(request: FakeRequest): Promise<FakeReply> {
    const account = this.accountOf(request);
    if (!account) {
      return {
        status: 401,
        body: {
          error: {
            code: 401,
            message: 'Request had invalid authentication credentials.',
            errors: [{ reason: 'authError' }],
            status: 'UNAUTHENTICATED',
          },
        },
      };
    }
    const body = JSON.parse(request.body) as { timeMin: string; timeMax: string; items: { id: string }[] };
    const from = Date.parse(body.timeMin);
    const to = Date.parse(body.timeMax);
    return this.busyWhile(account, () => {
      const calendars: Record<string, unknown> = {};
      for (const { id } of body.items) {
        const calendar = account.google.get(id);
        if (!calendar) calendars[id] = { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] };
        else if ('error' in calendar) calendars[id] = { errors: [{ domain: 'calendar', reason: calendar.error }], busy: [] };
        else {
          const written = (account.googleEvents.get(id) ?? []).filter((e) => e.status === 'confirmed');
          const busy = [...calendar, ...written.map((e) => ({ start: e.start, end: e.end }))];
          calendars[id] = { busy: busy.filter((b) => Date.parse(b.start) < to && Date.parse(b.end) > from) };
        }
      }
      return { status: 200, body: { kind: 'calendar#freeBusy', timeMin: body.timeMin, timeMax: body.timeMax, calendars } };
    });
  }

  private async calendarView(request: FakeRequest): Promise<FakeReply> {
    const account = this.accountOf(request);
    if (!account) {
      return {
        status: 401,
        body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } },
      };
    }
    const match = /\/me\/(?:calendar|calendars\/([^/]+))\/calendarView$/.exec(request.url.pathname);
    const calendarId = match?.[1] ? decodeURIComponent(match[1]) : 'primary';
    const events = account.outlook.get(calendarId);
    if (!events)
      return { status: 404, body: { error: { code: 'ErrorItemNotFound', message: 'The specified object was not found in the store.' } } };
    const base = this.nextLinkBase ?? `${this.http.url}/graph/v1.0`;
    const options = { nextLinkBase: base, pageSize: this.graphPageSize, ignoreExpand: this.graphIgnoresExpand };
    return this.busyWhile(account, () => ({ status: 200, body: calendarViewPage(events, calendarId, request.url, options) }));
  }

  private token(request: FakeRequest, provider: 'google' | 'microsoft'): FakeReply {
    const form = new URLSearchParams(request.body);
    if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET) {
      return { status: 401, body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } };
    }
    const grant = form.get('grant_type');
    const account =
      grant === 'refresh_token'
        ? this.refreshTokens.get(form.get('refresh_token') ?? '')
        : grant === 'authorization_code'
          ? this.codes.get(form.get('code') ?? '')
          : undefined;
    if (!account) {
      const description =
        provider === 'google'
          ? 'Token has been expired or revoked.'
          : 'AADSTS70008: The provided grant has expired due to it being revoked.';
      return { status: 400, body: { error: 'invalid_grant', error_description: description } };
    }
    if (grant === 'authorization_code') this.codes.delete(form.get('code') ?? '');
    this.counter += 1;
    account.accessToken = `${account.id}-at-${this.counter}`;
    this.accessTokens.set(account.accessToken, account);
    const body: Record<string, unknown> = {
      access_token: account.accessToken,
      expires_in: 3599,
      token_type: 'Bearer',
      scope: form.get('scope') ?? 'calendar',
    };
    // Google returns a refresh token only with a code; Microsoft rotates it on every refresh.
    if (provider === 'microsoft' || grant === 'authorization_code') {
      account.refreshToken = `${account.id}-rt-${this.counter}`;
      this.refreshTokens.set(account.refreshToken, account);
      body.refresh_token = account.refreshToken;
    }
    return { status: 200, body };
  }
}
