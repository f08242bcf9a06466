import { NATS_TOPOLOGY, topologyOf, SERVICE_NAMES, type ServiceName } from '@app/contracts';
import { DEAD_LETTER_ADMIN_USER, deadLetterAdminPermissions, natsPermissions, type NatsPermissions } from './permissions.js';

export interface NatsUser {
  user: string;
  /** Plain, or a bcrypt hash (`$2a$…`, which nats-server compares against); never logged. */
  password: string;
}

/**
 * nats-server's `authorization { users = [...] }` block: one user per service, with the rights its topology gives it
 * under `prefix`. With users listed, a client without a name and password (or with a wrong one) cannot connect.
 * Values are written as JSON strings, which nats-server's config format reads as quoted strings (no `$VAR` lookup).
 * `deadLetterAdmin`, given, adds the user of the `dlq` CLI (named `dlq`, whatever `user` says is ignored).
 */
export function natsAuthorizationConfig(
  prefix: string,
  users: Readonly<Record<ServiceName, NatsUser>>,
  deadLetterAdmin?: Pick<NatsUser, 'password'>,
): string {
  const entries = SERVICE_NAMES.map((service) => {
    const topology = topologyOf(service);
    if (!topology) throw new Error(`no topology for ${service}`);
    return entry(service, users[service], natsPermissions(service, topology, prefix));
  });
  if (deadLetterAdmin)
    entries.push(
      entry(
        'dlq CLI',
        { user: DEAD_LETTER_ADMIN_USER, password: deadLetterAdmin.password },
        deadLetterAdminPermissions(NATS_TOPOLOGY, prefix),
      ),
    );
  return `authorization {\n  users = [\n${entries.join('\n')}\n  ]\n}\n`;
}

function entry(comment: string, { user, password }: NatsUser, permissions: NatsPermissions): string {
  return `    # ${comment}\n    { user: ${JSON.stringify(user)}, password: ${JSON.stringify(password)}, permissions: ${JSON.stringify(permissions)} }`;
}
