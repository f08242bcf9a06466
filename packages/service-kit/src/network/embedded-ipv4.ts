import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** The IPv6 forms that carry an IPv4 address, and where it sits in them. */
export type EmbeddingForm = 'ipv4-mapped' | 'ipv4-compatible' | 'nat64' | 'nat64-local' | '6to4' | 'teredo';

export interface EmbeddedIPv4 {
  form: EmbeddingForm;
  /** Every IPv4 address the form names (Teredo names two: its server's and its client's). */
  addresses: IPv4[];
  /**
   * Whether a packet to the IPv6 address is meant to reach the embedded IPv4 host and nothing else, so that judging
   * that host judges the address (see FORMS for why the others are not).
   */
  honoured: boolean;
}

interface Form {
  form: EmbeddingForm;
  prefix: [IPv6, number];
  honoured: boolean;
  extract: (parts: number[]) => IPv4[];
}

const cidr = (text: string): [IPv6, number] => ipaddr.IPv6.parseCIDR(text);
const ipv4Of = (high: number, low: number): IPv4 => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
const last32 = (parts: number[]): IPv4[] => [ipv4Of(parts[6] ?? 0, parts[7] ?? 0)];

/**
 * Checked in this order (the most specific prefix first). Honoured: IPv4-mapped (a socket of the sender's own stack
 * talking IPv4) and the well-known NAT64 prefix (RFC 6052: DNS64 synthesises it for IPv4-only receivers, and the
 * translator reaches exactly the embedded host). Refused whatever they carry: IPv4-compatible (deprecated by RFC 4291,
 * assigned by no stack, and tunnelled to the embedded IPv4 by stacks that still know it); local-use NAT64 (RFC 8215:
 * the operator picks the prefix length, so where the IPv4 sits, hence which host it is, cannot be told from the
 * address); 6to4 (deprecated by RFC 7526) and Teredo (a client-side NAT traversal, never a server's address): the
 * packet goes through a relay or the sender's own tunnel interface to the embedded IPv4s, and no real receiver
 * listens on such an address, so accepting them would widen the guard for nobody.
 */
const FORMS: Form[] = [
  { form: 'ipv4-mapped', prefix: cidr('::ffff:0:0/96'), honoured: true, extract: last32 },
  { form: 'ipv4-compatible', prefix: cidr('::/96'), honoured: false, extract: last32 },
  { form: 'nat64', prefix: cidr('64:ff9b::/96'), honoured: true, extract: last32 },
  { form: 'nat64-local', prefix: cidr('64:ff9b:1::/48'), honoured: false, extract: last32 },
  { form: '6to4', prefix: cidr('2002::/16'), honoured: false, extract: (parts) => [ipv4Of(parts[1] ?? 0, parts[2] ?? 0)] },
  {
    form: 'teredo',
    prefix: cidr('2001::/32'),
    honoured: false,
    // RFC 4380: the server's IPv4 in bits 32–63, the client's (outside) IPv4 in the last 32 bits, inverted.
    extract: (parts) => [ipv4Of(parts[2] ?? 0, parts[3] ?? 0), ipv4Of((parts[6] ?? 0) ^ 0xffff, (parts[7] ?? 0) ^ 0xffff)],
  },
];

/** The IPv4 address(es) an IPv6 address carries, or null when it is none of the embedding forms. */
export function embeddedIPv4(address: IPv6): EmbeddedIPv4 | null {
  const found = FORMS.find((candidate) => address.match(candidate.prefix));
  if (!found) return null;
  return { form: found.form, addresses: found.extract(address.parts), honoured: found.honoured };
}
