import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { invalidInput } from '../errors.js';
import { ipLiteralOf, isPublicAddress } from './public-address.js';

/** Resolves a host name to every address it has (all families), as a connect would see them. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** What a service lets its customers point it at (webhooks: `WEBHOOKS_ALLOW_*`; calendar-sync: `CALENDAR_ICS_ALLOW_*`). */
export interface TargetPolicy {
  allowHttp: boolean;
  allowPrivateTargets: boolean;
}

const NOT_PUBLIC_MESSAGE = 'url must be a public http(s) address';

/** Refused at connect time: the name resolved to an address that is not public (DNS changed since the check). */
export class TargetRefusedError extends Error {
  readonly code = 'TARGET_REFUSED';
}

/**
 * A URL a customer gave the service to send requests to (a webhook endpoint, an ICS feed), checked as API.md says for
 * webhooks: absolute http(s) (http only while allowed), no credentials in it, and (unless private targets are allowed)
 * a host that is, and resolves only to, public addresses. Its requests check the address again at connect
 * (`guardedLookup`), and an IP literal before every attempt (`refusedLiteral`). The 400s name the field `url`.
 */
export async function checkTargetUrl(raw: string, policy: TargetPolicy, resolve: Resolve): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidInput('url', 'url must be an absolute URL');
  }
  const schemes = policy.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) throw invalidInput('url', policy.allowHttp ? 'url must be http(s)' : 'url must be https');
  if (url.username || url.password) throw invalidInput('url', 'url must not carry credentials');
  if (!policy.allowPrivateTargets) {
    const literal = ipLiteralOf(url.hostname);
    const addresses = literal ? [literal] : await resolveOrNone(resolve, url.hostname);
    if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw invalidInput('url', NOT_PUBLIC_MESSAGE);
  }
  return url.href;
}

async function resolveOrNone(resolve: Resolve, hostname: string): Promise<string[]> {
  try {
    return (await resolve(hostname)).map((entry) => entry.address);
  } catch {
    return []; // a name that does not resolve is no public address either
  }
}

/** An IP-literal host is connected to without a lookup: it is checked here before every attempt. */
export function refusedLiteral(url: URL, policy: TargetPolicy): TargetRefusedError | null {
  const literal = ipLiteralOf(url.hostname);
  if (policy.allowPrivateTargets || literal === null || isPublicAddress(literal)) return null;
  return new TargetRefusedError(`${literal} is not a public address`);
}

/**
 * The `lookup` of an agent's connections to customers' targets: resolves, and refuses the connection when any address is not
 * public. The address checked is the address connected to, so a name that changes its answer after the create-time
 * check (DNS rebinding) cannot reach an internal service.
 */
export function guardedLookup(resolve: Resolve, policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const addresses = family ? all.filter((entry) => entry.family === family) : all;
        const refused = policy.allowPrivateTargets ? undefined : addresses.find((entry) => !isPublicAddress(entry.address));
        const first = addresses[0];
        if (refused) callback(new TargetRefusedError(`${hostname} resolves to ${refused.address}, not a public address`), '', 0);
        else if (!first) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        else if (options.all) (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };
}
