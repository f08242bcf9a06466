/**
 * How NATS_PREFIX and the service name turn into names on the server. The bus and the generated NATS permissions
 * both use these, so what a service's user is allowed is what the service really uses.
 */

/** `<prefix>.<subject>`: every subject a service publishes, serves or calls. */
export function prefixedSubject(prefix: string, subject: string): string {
  return prefix ? `${prefix}.${subject}` : subject;
}

/** `<prefix>_<NAME>`: stream names and durable consumer names (a stream name may not contain dots). */
export function prefixedName(prefix: string, name: string): string {
  return prefix ? `${prefix}_${name}` : name;
}

/**
 * The service's own reply subjects (`_INBOX_<service>.…`) in place of the shared `_INBOX.…`: its user may subscribe
 * to these only, so it cannot read the replies another service is waiting for.
 */
export function inboxPrefix(service: string): string {
  return `_INBOX_${service}`;
}
