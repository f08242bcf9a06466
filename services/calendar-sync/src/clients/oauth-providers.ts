import type { CalendarProvider } from '@app/contracts';
import { AppError, invalidInput } from '@app/service-kit';
import { OAuth2Client, gaxios } from 'google-auth-library';
import { microsoftEndpoints, type Config } from '../config.js';
import type { CalendarTokens } from '../domain/connection-tokens.js';
import { MicrosoftTokenClient, TokenEndpointError } from './microsoft-token.client.js';
import { GOOGLE_SCOPES, MICROSOFT_SCOPES, type TokenAccess } from './oauth-scopes.js';

/** The authorization-code flow of one provider. */
export interface OAuthProvider {
  /** Env variables that must be set before the flow can run (empty when configured). */
  missingVariables(): string[];
  /** The consent URL; `write` adds the scopes of write-back. */
  authorizeUrl(state: string, access: TokenAccess): string;
  exchangeCode(code: string, access: TokenAccess): Promise<CalendarTokens>;
}

function redirectUri(config: Config, provider: CalendarProvider): string {
  return `${config.PUBLIC_BASE_URL.replace(/\/+$/, '')}/api/calendar-connections/oauth/${provider}/callback`;
}

function missing(entries: Record<string, string | undefined>): string[] {
  return Object.entries(entries)
    .filter(([, value]) => !value)
    .map(([name]) => name);
}

export function googleOAuth(config: Config, timeoutMs: number): OAuthProvider {
  const client = () =>
    new OAuth2Client({
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      redirectUri: redirectUri(config, 'google'),
      endpoints: { oauth2AuthBaseUrl: config.GOOGLE_AUTH_URL, oauth2TokenUrl: config.GOOGLE_TOKEN_URL },
      transporterOptions: { timeout: timeoutMs },
    });
  return {
    missingVariables: () => missing({ GOOGLE_CLIENT_ID: config.GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: config.GOOGLE_CLIENT_SECRET }),
    // offline + consent: Google returns a refresh token only then.
    authorizeUrl: (state, access) =>
      client().generateAuthUrl({
        access_type: 'offline',
        prompt: 'consent',
        scope: GOOGLE_SCOPES[access],
        state,
        include_granted_scopes: true,
      }),
    async exchangeCode(code) {
      let tokens;
      try {
        ({ tokens } = await client().getToken({ code, redirect_uri: redirectUri(config, 'google') }));
      } catch (error) {
        const body = error instanceof gaxios.GaxiosError ? (error.response?.data as { error?: unknown } | undefined) : undefined;
        if (typeof body?.error === 'string' && error instanceof gaxios.GaxiosError && error.response?.status === 400) {
          throw invalidInput('code', `Google refused the authorization code (${body.error})`);
        }
        throw new AppError('UPSTREAM_UNAVAILABLE', 'Google did not answer the token request');
      }
      if (!tokens.access_token || !tokens.refresh_token) {
        throw invalidInput('code', 'Google returned no refresh token: remove the app from the Google account and connect again');
      }
      return {
        accessToken: tokens.access_token,
        refreshToken: tokens.refresh_token,
        expiresAt: new Date(tokens.expiry_date ?? Date.now() + 3600_000),
      };
    },
  };
}

export function microsoftOAuth(config: Config, timeoutMs: number): OAuthProvider {
  const endpoints = microsoftEndpoints(config);
  const tokens = new MicrosoftTokenClient({
    tokenUrl: endpoints.tokenUrl,
    clientId: config.MICROSOFT_CLIENT_ID,
    clientSecret: config.MICROSOFT_CLIENT_SECRET,
    timeoutMs,
  });
  return {
    missingVariables: () =>
      missing({ MICROSOFT_CLIENT_ID: config.MICROSOFT_CLIENT_ID, MICROSOFT_CLIENT_SECRET: config.MICROSOFT_CLIENT_SECRET }),
    authorizeUrl(state, access) {
      const url = new URL(endpoints.authUrl);
      url.search = new URLSearchParams({
        client_id: config.MICROSOFT_CLIENT_ID ?? '',
        response_type: 'code',
        redirect_uri: redirectUri(config, 'outlook'),
        response_mode: 'query',
        scope: MICROSOFT_SCOPES[access],
        state,
      }).toString();
      return url.toString();
    },
    async exchangeCode(code, access) {
      try {
        return await tokens.exchangeCode(code, redirectUri(config, 'outlook'), access);
      } catch (error) {
        if (error instanceof TokenEndpointError && error.status === 400) {
          throw invalidInput('code', `Microsoft refused the authorization code (${error.oauthError ?? 'invalid request'})`);
        }
        throw new AppError('UPSTREAM_UNAVAILABLE', 'Microsoft did not answer the token request');
      }
    },
  };
}
