import { createHmac, randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { ASSERTED_SERVICES } from '@app/dev-stack';
import './provided-context.js';

/** The run's root of caller assertion secrets (made once per run in its global setup, as `npm start` makes its own). */
export interface CallerAssertionRun {
  root: string;
  keyId: string;
}

export function generateCallerAssertionRun(keyId = `test-${randomBytes(4).toString('hex')}`): CallerAssertionRun {
  return { root: randomBytes(32).toString('base64url'), keyId };
}

/**
 * The run's secret of one service: derived from the run's root and the service's name, so each service under test
 * (whatever its name: the kit's tests build apps of their own) has a secret of its own, as in production, and a test
 * can mint for it without the setup knowing every name in advance.
 */
export function testAssertionSecret(service: string, root = inject('callerAssertionRoot')): string {
  return createHmac('sha256', root).update(service).digest('base64url');
}

/** A service's `CALLER_ASSERTION_SECRETS` in the run: its own secret under the run's kid. */
export function testAssertionSecrets(service: string): string {
  return JSON.stringify({ [inject('callerAssertionKeyId')]: testAssertionSecret(service) });
}

/** The gateway's `CALLER_ASSERTION_SIGNING_KEYS` in the run: every service's secret. */
export function testSigningKeys(): string {
  const kid = inject('callerAssertionKeyId');
  return JSON.stringify(Object.fromEntries(ASSERTED_SERVICES.map((service) => [service, { kid, secret: testAssertionSecret(service) }])));
}
