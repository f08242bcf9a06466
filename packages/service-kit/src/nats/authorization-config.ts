import { topologyOf, SERVICE_NAMES, type ServiceName } from '@app/contracts';
import { natsPermissions } from './permissions.js';

export interface NatsUser {
  user: string;
  /** Plain, or a bcrypt hash (`$2a$…`, which nats-server compares against); never logged. */
  password: string;
}

/**
 * nats-server's `authorization { users = [...] }` block: one user per service, with the rights its topology gives it
 * under `prefix`. With users listed, a client without a name and password (or with a wrong one) cannot connect.
 * Values are written as JSON strings, which nats-server's config format reads as quoted strings (no `$VAR` lookup).
 */
export function natsAuthorizationConfig(prefix: string, users: Readonly<Record<ServiceName, NatsUser>>): string {
  const entries = SERVICE_NAMES.map((service) => {
    const topology = topologyOf(service);
    if (!topology) throw new Error(`no topology for ${service}`);
    const { user, password } = users[service];
    const permissions = natsPermissions(service, topology, prefix);
    return `    # ${service}\n    { user: ${JSON.stringify(user)}, password: ${JSON.stringify(password)}, permissions: ${JSON.stringify(permissions)} }`;
  });
  return `authorization {\n  users = [\n${entries.join('\n')}\n  ]\n}\n`;
}
