import { sqlOf } from '@app/service-kit';
import type { Db } from './prisma.js';

/**
 * Records that a state's nonce was used, after dropping the expired ones (an expired state is refused
 * anyway); false when it was used before, which the nonce's primary key decides.
 */
export async function redeemNonce(db: Db, nonce: string, expiresAt: Date, now: Date): Promise<boolean> {
  await db.oAuthStateUse.deleteMany({ where: { expiresAt: { lt: now } } });
  const { rowCount } = await sqlOf(db).query(
    `INSERT INTO oauth_state_uses (nonce, expires_at) VALUES ($1::uuid, $2::timestamptz)
     ON CONFLICT (nonce) DO NOTHING
     RETURNING nonce::text AS nonce`,
    [nonce, expiresAt],
  );
  return rowCount === 1;
}
