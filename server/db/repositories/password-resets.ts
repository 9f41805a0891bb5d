// Reset links: password_setup_tokens rows with purpose 'reset'. Reading and using a
// link is the same as for a set-up link (password-setup-tokens.ts: findByHash, consume); what is
// particular to resets lives here: issuing one, revoking the account's earlier ones, and when the
// last one was issued (at most one reset email per account every few minutes).
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../client';
import { passwordSetupTokens } from '../schema';

/** Whose link: a customer's, a customer organisation member's or a portal user's (the login page is shared, so all can ask). */
export type ResetOwner = { customerId: string } | { userId: string } | { memberId: string };

export type PasswordResetsRepository = ReturnType<typeof createPasswordResetsRepository>;

export function createPasswordResetsRepository(db: Db) {
  const t = passwordSetupTokens;
  const ownedBy = (owner: ResetOwner) => ('userId' in owner ? eq(t.userId, owner.userId) : 'memberId' in owner ? eq(t.memberId, owner.memberId) : eq(t.customerId, owner.customerId));
  const resets = eq(t.purpose, 'reset');
  return {
    async insert(row: { owner: ResetOwner; tokenHash: string; expiresAt: Date; createdAt: Date }, tx: Db = db): Promise<void> {
      await tx.insert(t).values({ ...row.owner, tokenHash: row.tokenHash, expiresAt: row.expiresAt, createdAt: row.createdAt, purpose: 'reset' });
    },
    /** Revokes the account's unused, unrevoked reset links (a set-up link is left alone); returns how many. */
    async revokeUnused(owner: ResetOwner, at: Date, tx: Db = db): Promise<number> {
      const rows = await tx
        .update(t)
        .set({ revokedAt: at })
        .where(and(ownedBy(owner), resets, isNull(t.usedAt), isNull(t.revokedAt)))
        .returning({ id: t.id });
      return rows.length;
    },
    /** When the account's newest reset link was issued, used or not; null when it never had one. */
    async lastIssuedAt(owner: ResetOwner, tx: Db = db): Promise<Date | null> {
      const [row] = await tx.select({ at: t.createdAt }).from(t).where(and(ownedBy(owner), resets)).orderBy(desc(t.createdAt)).limit(1);
      return row?.at ?? null;
    },
  };
}
