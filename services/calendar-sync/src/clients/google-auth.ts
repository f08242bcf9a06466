import { OAuth2Client } from 'google-auth-library';
import { REFRESH_MARGIN_MS, type TokenBox } from './calendar-reader.js';
import { ProviderError } from './provider-errors.js';
import type { RetrySettings } from './provider-retry.js';

export interface GoogleSettings {
  apiUrl: string;
  tokenUrl: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  timeoutMs: number;
  retry: RetrySettings;
}

/**
 * The OAuth client of one sync or write, reads and writes alike: google-auth-library refreshes the access token before
 * it expires and once more on a 401, and the refreshed tokens land in `box` (the caller stores them).
 */
export function googleAuthClient(settings: GoogleSettings, box: TokenBox): OAuth2Client {
  const tokens = box.current;
  if ((!settings.clientId || !settings.clientSecret) && tokens.expiresAt.getTime() - Date.now() < REFRESH_MARGIN_MS) {
    throw new ProviderError(
      'the access token has expired and GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET are not set, so it cannot be refreshed',
    );
  }
  const auth = new OAuth2Client({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    endpoints: { oauth2TokenUrl: settings.tokenUrl },
    eagerRefreshThresholdMillis: REFRESH_MARGIN_MS,
    // Also refresh on a 401 although we know the expiry (the token may have been revoked early).
    forceRefreshOnFailure: true,
    // Node's own fetch, not gaxios' node-fetch: node-fetch answers an abort that lands after the headers by emitting
    // 'error' on a body stream nobody listens to, an uncaught exception (seen when a sync is cancelled at shutdown).
    transporterOptions: { timeout: settings.timeoutMs, fetchImplementation: fetch },
  });
  auth.setCredentials({ access_token: tokens.accessToken, refresh_token: tokens.refreshToken, expiry_date: tokens.expiresAt.getTime() });
  auth.on('tokens', (fresh) => {
    if (!fresh.access_token) return;
    box.replace({
      accessToken: fresh.access_token,
      // Google does not rotate refresh tokens on refresh; keep ours when none comes back.
      refreshToken: fresh.refresh_token ?? box.current.refreshToken,
      expiresAt: new Date(fresh.expiry_date ?? Date.now() + 3600_000),
    });
  });
  return auth;
}
