import ipaddr from 'ipaddr.js';

/**
 * Whether a receiver may be reached at `address` (an IP literal): only public unicast addresses. Loopback, private,
 * link-local, multicast, unspecified, carrier-grade NAT, reserved and the like are refused; an IPv4-mapped IPv6
 * address (::ffff:127.0.0.1) is judged as the IPv4 address it carries. Ranges come from ipaddr.js, not our own CIDR math.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** The host of a URL as an IP literal (brackets of IPv6 removed), or null for a name that needs resolving. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}
