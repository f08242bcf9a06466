import { describe, expect, it } from 'vitest';
import { ipLiteralOf, isPublicAddress } from '../../src/domain/target-address.js';

describe('isPublicAddress', () => {
  it.each([
    ['loopback IPv4', '127.0.0.1'],
    ['loopback IPv4, elsewhere in 127/8', '127.10.0.3'],
    ['private 10/8', '10.1.2.3'],
    ['private 172.16/12', '172.20.0.1'],
    ['private 192.168/16', '192.168.1.1'],
    ['link-local IPv4 (cloud metadata)', '169.254.169.254'],
    ['multicast IPv4', '224.0.0.1'],
    ['unspecified IPv4', '0.0.0.0'],
    ['broadcast', '255.255.255.255'],
    ['carrier-grade NAT', '100.64.0.1'],
    ['loopback IPv6', '::1'],
    ['unspecified IPv6', '::'],
    ['link-local IPv6', 'fe80::1'],
    ['unique local IPv6', 'fd00::1'],
    ['multicast IPv6', 'ff02::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped, hex form', '::ffff:7f00:1'],
    ['not an address', 'example.com'],
  ])('when it is %s (%s), then it is refused', (_kind, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34'])(
    'when it is public (%s), then it is allowed',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('ipLiteralOf', () => {
  it('when the host is an IP literal (IPv6 in brackets), then it is returned bare; a name is null', () => {
    expect(ipLiteralOf('127.0.0.1')).toBe('127.0.0.1');
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf('localhost')).toBeNull();
  });
});
