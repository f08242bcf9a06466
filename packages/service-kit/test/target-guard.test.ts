import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  AppError,
  checkTargetUrl,
  guardedLookup,
  refusedLiteral,
  TargetRefusedError,
  type Resolve,
  type TargetPolicy,
} from '../src/index.js';

const PUBLIC: LookupAddress = { address: '93.184.216.34', family: 4 };
const PUBLIC6: LookupAddress = { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 };
const LOOPBACK: LookupAddress = { address: '127.0.0.1', family: 4 };

const answers = new Map<string, LookupAddress[]>([
  ['public.test', [PUBLIC, PUBLIC6]],
  ['mixed.test', [PUBLIC, LOOPBACK]],
  ['local.test', [LOOPBACK]],
]);
const resolve: Resolve = async (hostname) => {
  const known = answers.get(hostname);
  if (known) return known;
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

const STRICT: TargetPolicy = { allowHttp: false, allowPrivateTargets: false };
const OPEN: TargetPolicy = { allowHttp: true, allowPrivateTargets: true };

async function refusal(url: string, policy: TargetPolicy): Promise<{ message: string; path: string | undefined }> {
  const error = await checkTargetUrl(url, policy, resolve).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal of ${url}`);
  return { message: error.message, path: error.details?.[0]?.path };
}

describe('checkTargetUrl', () => {
  it.each([
    ['not a URL', 'nope', STRICT, 'url must be an absolute URL'],
    ['plain http while it is not allowed', 'http://public.test/x', STRICT, 'url must be https'],
    ['another scheme while http is allowed', 'ftp://public.test/x', OPEN, 'url must be http(s)'],
    ['credentials in the URL', 'https://user:pw@public.test/x', STRICT, 'url must not carry credentials'],
    ['a loopback literal', 'https://127.0.0.1/x', STRICT, 'url must be a public http(s) address'],
    ['a private IPv6 literal', 'https://[fd00::1]/x', STRICT, 'url must be a public http(s) address'],
    ['a name with one private address', 'https://mixed.test/x', STRICT, 'url must be a public http(s) address'],
    ['a name that does not resolve', 'https://nowhere.test/x', STRICT, 'url must be a public http(s) address'],
  ])('when the URL is %s, then it is a 400 naming url', async (_kind, url, policy, message) => {
    expect(await refusal(url, policy)).toEqual({ message, path: 'url' });
  });

  it('when the host is public, then the normalised URL is returned', async () => {
    expect(await checkTargetUrl('https://PUBLIC.test/a b', STRICT, resolve)).toBe('https://public.test/a%20b');
  });

  it('when private targets and http are allowed, then a loopback http URL passes without a lookup', async () => {
    const failing: Resolve = () => Promise.reject(new Error('must not resolve'));
    expect(await checkTargetUrl('http://localhost:3000/x', OPEN, failing)).toBe('http://localhost:3000/x');
  });
});

describe('refusedLiteral', () => {
  it('when the host is a private literal, then it is refused; a name or a public literal is not', () => {
    expect(refusedLiteral(new URL('http://[::ffff:10.0.0.1]/x'), STRICT)).toBeInstanceOf(TargetRefusedError);
    expect(refusedLiteral(new URL('http://10.0.0.1/x'), STRICT)?.message).toBe('10.0.0.1 is not a public address');
    expect(refusedLiteral(new URL('http://local.test/x'), STRICT)).toBeNull();
    expect(refusedLiteral(new URL('http://93.184.216.34/x'), STRICT)).toBeNull();
    expect(refusedLiteral(new URL('http://10.0.0.1/x'), OPEN)).toBeNull();
  });
});

/** The lookup's answer as a promise: what a socket's connect would get. */
function lookUp(policy: TargetPolicy, hostname: string, options: { family?: number; all?: boolean } = {}) {
  return new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family: number | undefined }>((done) => {
    guardedLookup(resolve, policy)(hostname, options, (error, address, family) => done({ error, address, family }));
  });
}

describe('guardedLookup', () => {
  it('when every address is public, then the first (of the family asked) is connected to', async () => {
    expect(await lookUp(STRICT, 'public.test')).toEqual({ error: null, address: PUBLIC.address, family: 4 });
    expect(await lookUp(STRICT, 'public.test', { family: 6 })).toEqual({ error: null, address: PUBLIC6.address, family: 6 });
    expect((await lookUp(STRICT, 'public.test', { all: true })).address).toEqual([PUBLIC, PUBLIC6]);
  });

  it('when the name has a private address (DNS rebinding), then the connection is refused with TargetRefusedError', async () => {
    const { error } = await lookUp(STRICT, 'mixed.test');
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(error?.message).toBe('mixed.test resolves to 127.0.0.1, not a public address');
  });

  it('when private targets are allowed, then a loopback name is connected to', async () => {
    expect(await lookUp(OPEN, 'local.test')).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });

  it('when the name does not resolve, or has no address of the family, then the error says so', async () => {
    expect((await lookUp(STRICT, 'nowhere.test')).error?.code).toBe('ENOTFOUND');
    expect((await lookUp(OPEN, 'local.test', { family: 6 })).error?.code).toBe('ENOTFOUND');
  });
});
