// Single-use password-setup tokens, stored as SHA-256 hashes only. A token belongs to a customer
// (customer_id) or, since 0007, to a portal user (user_id).
import { and, desc, eq, gt, isNull, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { passwordSetupTokens, type PasswordSetupTokenRow } from '../schema';

export type PasswordSetupTokensRepository = ReturnType<typeof createPasswordSetupTokensRepository>;

export function createPasswordSetupTokensRepository(db: Db) {
  const t = passwordSetupTokens;
  async function revokeUnusedWhere(owner: SQL, at: Date, tx: Db): Promise<number> {
    const rows = await tx
      .update(t)
      .set({ revokedAt: at })
      .where(and(owner, isNull(t.usedAt), isNull(t.revokedAt)))
      .returning({ id: t.id });
    return rows.length;
  }
  return {
    async insert(
      row: { tokenHash: string; expiresAt: Date; createdAt: Date } & ({ customerId: string } | { userId: string }),
      tx: Db = db,
    ): Promise<PasswordSetupTokenRow> {
      const [created] = await tx.insert(t).values(row).returning();
      if (!created) throw new Error('insert into password_setup_tokens returned no row');
      return created;
    },
    async findByHash(tokenHash: string, tx: Db = db): Promise<PasswordSetupTokenRow | null> {
      const [row] = await tx.select().from(t).where(eq(t.tokenHash, tokenHash)).limit(1);
      return row ?? null;
    },
    /**
     * Marks the token used if, and only if, it is still usable at `at`. One conditional UPDATE:
     * of two concurrent calls exactly one gets the row back (the other waits on the row lock,
     * then finds used_at set).
     */
    async consume(tokenHash: string, at: Date, tx: Db = db): Promise<PasswordSetupTokenRow | null> {
      const [row] = await tx
        .update(t)
        .set({ usedAt: at })
        .where(and(eq(t.tokenHash, tokenHash), isNull(t.usedAt), isNull(t.revokedAt), gt(t.expiresAt, at)))
        .returning();
      return row ?? null;
    },
    /** Revokes the customer's unused, unrevoked tokens; returns how many. */
    async revokeUnused(customerId: string, at: Date, tx: Db = db): Promise<number> {
      return revokeUnusedWhere(eq(t.customerId, customerId), at, tx);
    },
    /** Revokes the portal user's unused, unrevoked tokens; returns how many. */
    async revokeUnusedForUser(userId: string, at: Date, tx: Db = db): Promise<number> {
      return revokeUnusedWhere(eq(t.userId, userId), at, tx);
    },
    /** Revokes the customer organisation member's unused, unrevoked tokens; returns how many. */
    async revokeUnusedForMember(memberId: string, at: Date, tx: Db = db): Promise<number> {
      return revokeUnusedWhere(eq(t.memberId, memberId), at, tx);
    },
    async listForCustomer(customerId: string, tx: Db = db): Promise<PasswordSetupTokenRow[]> {
      return tx.select().from(t).where(eq(t.customerId, customerId)).orderBy(desc(t.createdAt));
    },
    async listForUser(userId: string, tx: Db = db): Promise<PasswordSetupTokenRow[]> {
      return tx.select().from(t).where(eq(t.userId, userId)).orderBy(desc(t.createdAt));
    },
  };
}
