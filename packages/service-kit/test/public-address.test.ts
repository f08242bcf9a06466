import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { embeddedIPv4, ipLiteralOf, isPublicAddress } from '../src/index.js';

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
    ['not an address', 'example.com'],
    ['a short IPv4 form no socket takes', '127.1'],
    ['an address with a zone index', 'fe80::1%eth0'],
    // IPv4-mapped (::ffff:0:0/96): judged as the IPv4 it carries.
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped private 192.168', '::ffff:192.168.1.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped unspecified', '::ffff:0.0.0.0'],
    ['IPv4-mapped, hex form', '::ffff:7f00:1'],
    // IPv4-compatible (::/96, deprecated): refused whatever it carries.
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible loopback, hex form', '::7f00:1'],
    ['IPv4-compatible private', '::10.0.0.1'],
    ['IPv4-compatible private 192.168', '::192.168.1.1'],
    ['IPv4-compatible metadata', '::169.254.169.254'],
    ['IPv4-compatible of a public address', '::8.8.8.8'],
    // NAT64, well-known prefix (64:ff9b::/96): judged as the IPv4 it carries.
    ['NAT64 loopback', '64:ff9b::127.0.0.1'],
    ['NAT64 private', '64:ff9b::10.0.0.1'],
    ['NAT64 private 192.168', '64:ff9b::c0a8:101'],
    ['NAT64 metadata', '64:ff9b::169.254.169.254'],
    ['NAT64 unspecified', '64:ff9b::0.0.0.0'],
    // NAT64, local-use prefix (64:ff9b:1::/48): where the IPv4 sits is the operator's choice, so refused whole.
    ['local-use NAT64 loopback', '64:ff9b:1::7f00:1'],
    ['local-use NAT64 private', '64:ff9b:1::a00:1'],
    ['local-use NAT64 of a public address', '64:ff9b:1::808:808'],
    // 6to4 (2002::/16, the IPv4 in bits 16–47): refused whole.
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of private', '2002:a00:1::1'],
    ['6to4 of private 192.168', '2002:c0a8:101::1'],
    ['6to4 of metadata', '2002:a9fe:a9fe::1'],
    ['6to4 of unspecified', '2002::1'],
    ['6to4 of a public address', '2002:808:808::1'],
    // Teredo (2001::/32: server IPv4 in bits 32–63, client IPv4 inverted in the last 32): refused whole.
    ['Teredo, client loopback', '2001:0:808:808::80ff:fffe'],
    ['Teredo, client private', '2001:0:808:808::f5ff:fffe'],
    ['Teredo, client metadata', '2001:0:808:808::5601:5601'],
    ['Teredo, server private', '2001:0:a00:1::f7f7:f7f7'],
    ['Teredo, client unspecified', '2001:0:808:808::ffff:ffff'],
    ['Teredo of public addresses', '2001:0:808:808::f7f7:f7f7'],
  ])('when it is %s (%s), then it is refused', (_kind, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['public IPv4', '93.184.216.34'],
    ['public IPv4', '8.8.8.8'],
    ['public IPv6', '2606:4700:4700::1111'],
    ['IPv4-mapped public', '::ffff:93.184.216.34'],
    ['IPv4-mapped public, hex form', '::ffff:808:808'],
    ['NAT64 of a public address', '64:ff9b::8.8.8.8'],
  ])('when it is %s (%s), then it is allowed', (_kind, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('embeddedIPv4', () => {
  it.each([
    ['::ffff:127.0.0.1', 'ipv4-mapped', ['127.0.0.1']],
    ['::7f00:1', 'ipv4-compatible', ['127.0.0.1']],
    ['64:ff9b::a9fe:a9fe', 'nat64', ['169.254.169.254']],
    ['64:ff9b:1::c0a8:101', 'nat64-local', ['192.168.1.1']],
    ['2002:a00:1:5::1', '6to4', ['10.0.0.1']],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo', ['65.54.227.120', '192.0.2.45']],
  ])('when the address is %s, then it is %s carrying %j', (address, form, addresses) => {
    const embedded = embeddedIPv4(ipaddr.IPv6.parse(address));
    expect(embedded?.form).toBe(form);
    expect(embedded?.addresses.map(String)).toEqual(addresses);
  });

  it('when the address carries no IPv4, then it is null', () => {
    expect(embeddedIPv4(ipaddr.IPv6.parse('2606:4700:4700::1111'))).toBeNull();
  });
});

describe('ipLiteralOf', () => {
  it('when the host is an IP literal (IPv6 in brackets), then it is returned bare; a name is null', () => {
    expect(ipLiteralOf('127.0.0.1')).toBe('127.0.0.1');
    expect(ipLiteralOf('[::1]')).toBe('::1');
    expect(ipLiteralOf('localhost')).toBeNull();
  });
});
