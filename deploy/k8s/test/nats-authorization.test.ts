// The example overlay's NATS users: its Secrets and the committed configuration of the external NATS fit together,
// and the configuration grants what the topology in @app/contracts says, generated as `npm run nats:config` does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { NATS_TOPOLOGY, SERVICE_NAMES, topologyOf } from '@app/contracts';
import { DEAD_LETTER_ADMIN_USER, deadLetterAdminPermissions, natsPermissions } from '@app/service-kit';
import { findRenderer } from '../lib/render.mjs';

type Secret = { kind: string; metadata: { name: string }; data?: Record<string, string> };

const overlay = join(import.meta.dirname, '..', 'overlays', 'example');
const secrets = (findRenderer().render(overlay) as Secret[]).filter((o) => o.kind === 'Secret');
const baseSecrets = (findRenderer().render(join(import.meta.dirname, '..', 'base')) as Secret[]).filter((o) => o.kind === 'Secret');
const decoded = (secret: Secret | undefined, key: string) => Buffer.from(secret?.data?.[key] ?? '', 'base64').toString();

/** The users of the committed configuration: one line each, `{ user: "…", password: "…", permissions: {…} }`. */
const configured = new Map(
  [
    ...readFileSync(join(overlay, 'nats-authorization.conf'), 'utf8').matchAll(
      /\{ user: ("[^"]+"), password: ("[^"]+"), permissions: (\{.*\}) \}$/gm,
    ),
  ].map(([, user, password, permissions]) => [
    JSON.parse(user!) as string,
    { hash: JSON.parse(password!) as string, permissions: JSON.parse(permissions!) as unknown },
  ]),
);

describe('NATS users of the example overlay', () => {
  it.each(SERVICE_NAMES)(
    "when %s connects with its Secret's NATS_USER and NATS_PASSWORD, then the configuration has that user",
    (service) => {
      const secret = secrets.find((s) => s.metadata.name.startsWith(`${service}-secrets-`));
      const user = configured.get(decoded(secret, 'NATS_USER'));
      expect(decoded(secret, 'NATS_USER')).toBe(service);
      expect(user?.hash).toMatch(/^\$2[aby]\$\d\d\$/); // a bcrypt hash, never the password itself
      expect(bcrypt.compareSync(decoded(secret, 'NATS_PASSWORD'), user?.hash ?? '')).toBe(true);
    },
  );

  it.each(SERVICE_NAMES)("when %s's rights are read from the configuration, then they are the topology's", (service) => {
    const topology = topologyOf(service);
    expect(topology).toBeDefined();
    expect(configured.get(service)?.permissions).toEqual(natsPermissions(service, topology!, ''));
  });

  it("when the dlq CLI's user is read from the configuration, then it has the example password and the dead-letter rights only", () => {
    const user = configured.get(DEAD_LETTER_ADMIN_USER);
    expect(bcrypt.compareSync('example-nats-password-dlq-change-me', user?.hash ?? '')).toBe(true);
    expect(user?.permissions).toEqual(deadLetterAdminPermissions(NATS_TOPOLOGY, ''));
  });

  it('when the base is rendered, then each Secret names its own NATS user and a placeholder password', () => {
    for (const service of SERVICE_NAMES) {
      const secret = baseSecrets.find((s) => s.metadata.name.startsWith(`${service}-secrets-`));
      expect(decoded(secret, 'NATS_USER'), service).toBe(service);
      expect(decoded(secret, 'NATS_PASSWORD'), service).toBe('REPLACE_ME');
    }
  });
});
