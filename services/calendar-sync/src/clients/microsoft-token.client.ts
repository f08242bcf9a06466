import { z } from 'zod';
import type { CalendarTokens } from './calendar-reader.js';
import { MICROSOFT_SCOPES, type TokenAccess } from './oauth-scopes.js';
import { describeError, retryAfterFrom } from './provider-errors.js';

export interface MicrosoftTokenSettings {
  tokenUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  timeoutMs: number;
}

/** A refused or failed call of the Microsoft identity platform token endpoint (`status` undefined: no answer). */
export class TokenEndpointError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly oauthError: string | undefined,
    readonly retryAfterMs: number | undefined,
  ) {
    super(message);
  }
}

const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1).optional(),
  expires_in: z.coerce.number().positive(),
});

/** The v2.0 token endpoint (authorization code and refresh token grants) of the Microsoft identity platform. */
export class MicrosoftTokenClient {
  constructor(private readonly settings: MicrosoftTokenSettings) {}

  /**
   * Microsoft rotates refresh tokens: the new one replaces ours when it comes back. The refresh names the scopes the
   * connection needs: a write-back connection's must keep Calendars.ReadWrite, or its next access token cannot write.
   */
  async refresh(refreshToken: string, access: TokenAccess, signal?: AbortSignal): Promise<CalendarTokens> {
    return this.grant({ grant_type: 'refresh_token', refresh_token: refreshToken, scope: MICROSOFT_SCOPES[access] }, refreshToken, signal);
  }

  async exchangeCode(code: string, redirectUri: string, access: TokenAccess): Promise<CalendarTokens> {
    return this.grant({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, scope: MICROSOFT_SCOPES[access] }, undefined);
  }

  private async grant(
    fields: Record<string, string>,
    previousRefreshToken: string | undefined,
    signal?: AbortSignal,
  ): Promise<CalendarTokens> {
    const { clientId, clientSecret, tokenUrl, timeoutMs } = this.settings;
    if (!clientId || !clientSecret) {
      throw new TokenEndpointError(
        'MICROSOFT_CLIENT_ID / MICROSOFT_CLIENT_SECRET are not set, so tokens cannot be refreshed',
        400,
        undefined,
        undefined,
      );
    }
    const body = new URLSearchParams({ client_id: clientId, client_secret: clientSecret, ...fields });
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      throw new TokenEndpointError(
        `Microsoft token endpoint could not be reached: ${describeError(error)}`,
        undefined,
        undefined,
        undefined,
      );
    }
    const json: unknown = await response.json().catch(() => ({}));
    if (!response.ok) {
      const oauthError = (json as { error?: unknown }).error;
      const code = typeof oauthError === 'string' ? oauthError : undefined;
      const message = `Microsoft token endpoint answered ${response.status}${code ? ` (${code})` : ''}`;
      throw new TokenEndpointError(message, response.status, code, retryAfterFrom(response.headers));
    }
    const tokens = tokenResponseSchema.safeParse(json);
    if (!tokens.success)
      throw new TokenEndpointError('Microsoft token endpoint answered without an access token', 502, undefined, undefined);
    const refreshToken = tokens.data.refresh_token ?? previousRefreshToken;
    if (!refreshToken)
      throw new TokenEndpointError('Microsoft returned no refresh token (was offline_access granted?)', 502, undefined, undefined);
    return { accessToken: tokens.data.access_token, refreshToken, expiresAt: new Date(Date.now() + tokens.data.expires_in * 1000) };
  }
}
