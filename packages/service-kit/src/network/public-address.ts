import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { embeddedIPv4 } from './embedded-ipv4.js';

/**
 * Whether a server may be sent requests at `address` (an IP literal) on a customer's say-so (webhook receivers, ICS
 * feeds): only public unicast addresses. Loopback, private, link-local, multicast, unspecified, carrier-grade NAT,
 * reserved and the like are refused (ranges from ipaddr.js, not our own CIDR math). An IPv6 address that carries an
 * IPv4 one (embedded-ipv4.ts) is judged by the IPv4 it reaches, or refused whole where that cannot be relied on.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (parsed === null) return false;
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const embedded = embeddedIPv4(parsed as ipaddr.IPv6);
  if (embedded) return embedded.honoured && embedded.addresses.every((ipv4) => ipv4.range() === 'unicast');
  return parsed.range() === 'unicast';
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or null for a name that needs resolving. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? null : bare;
}

/**
 * The address as the socket would connect to it. Node decides what is an address (ipaddr.js also takes forms such as
 * `127.1` that a connect would not), and an IPv6 address reaches ipaddr.js in WHATWG's hexadecimal form, because
 * ipaddr.js reads the dotted `::a.b.c.d` as the IPv4-mapped `::ffff:a.b.c.d` where the socket sees IPv4-compatible.
 * A zone index (`fe80::1%eth0`) is no receiver's address: null, refused.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const family = isIP(address);
  if (family === 4) return ipaddr.IPv4.parse(address);
  if (family !== 6) return null;
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${address}]/`).hostname.slice(1, -1));
  } catch {
    return null;
  }
}
