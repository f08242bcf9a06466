import { GraphError } from '@microsoft/microsoft-graph-client';
import { classifyHttpFailure, describeError, retryAfterFrom, type Classified } from './provider-errors.js';
import { TokenEndpointError } from './microsoft-token.client.js';

/** `invalid_grant` (revoked, expired) and `interaction_required` (new consent or MFA) both need the user again. */
const REAUTH_ERRORS = new Set(['invalid_grant', 'interaction_required']);

/** Maps what the Graph client and the token endpoint throw onto the sync's retry rules. */
export function classifyMicrosoftError(error: unknown): Classified {
  if (error instanceof TokenEndpointError) {
    if (error.oauthError && REAUTH_ERRORS.has(error.oauthError)) {
      return { kind: 'reauth', message: `Microsoft refused the refresh token (${error.oauthError}): connect the calendar again` };
    }
    return classifyHttpFailure({ status: error.status, retryAfterMs: error.retryAfterMs, message: error.message });
  }
  if (error instanceof GraphError && error.statusCode > 0) {
    const detail = error.code ? ` (${error.code})` : '';
    return classifyHttpFailure({
      status: error.statusCode,
      retryAfterMs: retryAfterFrom(error.headers),
      message: `Microsoft Graph answered ${error.statusCode}${detail}`,
    });
  }
  // The Graph client wraps network failures and timeouts in a GraphError without a status.
  if (error instanceof GraphError || error instanceof TypeError) {
    return { kind: 'retry', retryAfterMs: undefined, message: `Microsoft Graph could not be reached: ${describeError(error)}` };
  }
  return { kind: 'fail', message: `Microsoft Graph request failed: ${describeError(error)}` };
}
