// MFA state of an account (portal user or customer: both tables carry the same mfa columns) and
// its backup codes. Values arrive already encrypted or digested; nothing here sees a plain secret.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { customerMembers, customers, mfaBackupCodes, users } from '../schema';

/** A portal user, a customer organisation's own login, or one of its members (0022). */
export type MfaAccountType = 'user' | 'customer' | 'member';

export type BackupCodeUse = 'accepted' | 'alreadyUsed' | 'unknown';

export interface MfaRepository {
  /** Stores the secret shown at set-up; false when the account is gone or MFA is already on. */
  savePendingSecret(type: MfaAccountType, id: string, sealed: string, at: Date, tx?: Db): Promise<boolean>;
  /**
   * Turns MFA on with the pending secret (only if it is still `pendingSealed`: a set-up started
   * meanwhile in another tab wins) and the step of the code that verified it.
   */
  enable(type: MfaAccountType, id: string, input: { pendingSealed: string; step: number; at: Date }, tx?: Db): Promise<boolean>;
  /** MFA off: secrets, last step and backup codes gone. False when it was not on. */
  disable(type: MfaAccountType, id: string, at: Date, tx?: Db): Promise<boolean>;
  /** Records `step` as used; false when it (or a later one) was used already. One statement, so two requests cannot both win. */
  acceptStep(type: MfaAccountType, id: string, step: number, tx?: Db): Promise<boolean>;
  /** Replaces the account's backup codes with these digests. */
  replaceBackupCodes(type: MfaAccountType, id: string, codeHashes: string[], at: Date, tx?: Db): Promise<void>;
  useBackupCode(type: MfaAccountType, id: string, codeHash: string, at: Date, tx?: Db): Promise<BackupCodeUse>;
  countUnusedBackupCodes(type: MfaAccountType, id: string, tx?: Db): Promise<number>;
}

// Both tables share the account columns; Drizzle cannot type a union of tables, so one stands for both.
const tableOf = (type: MfaAccountType) => (type === 'user' ? users : type === 'customer' ? (customers as unknown as typeof users) : (customerMembers as unknown as typeof users));
const ownerColumn = (type: MfaAccountType) => (type === 'user' ? mfaBackupCodes.userId : type === 'customer' ? mfaBackupCodes.customerId : mfaBackupCodes.memberId);

export function createMfaRepository(db: Db): MfaRepository {
  return {
    async savePendingSecret(type, id, sealed, at, tx = db) {
      const t = tableOf(type);
      const rows = await tx
        .update(t)
        .set({ mfaPendingSecret: sealed, updatedAt: at })
        .where(and(eq(t.id, id), isNull(t.deletedAt), eq(t.mfaEnabled, false)))
        .returning({ id: t.id });
      return rows.length > 0;
    },
    async enable(type, id, { pendingSealed, step, at }, tx = db) {
      const t = tableOf(type);
      const rows = await tx
        .update(t)
        .set({ mfaEnabled: true, mfaSecret: pendingSealed, mfaPendingSecret: null, mfaLastStep: step, updatedAt: at })
        .where(and(eq(t.id, id), isNull(t.deletedAt), eq(t.mfaEnabled, false), eq(t.mfaPendingSecret, pendingSealed)))
        .returning({ id: t.id });
      return rows.length > 0;
    },
    async disable(type, id, at, tx = db) {
      const t = tableOf(type);
      const rows = await tx
        .update(t)
        .set({ mfaEnabled: false, mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null, updatedAt: at })
        .where(and(eq(t.id, id), eq(t.mfaEnabled, true)))
        .returning({ id: t.id });
      await tx.delete(mfaBackupCodes).where(eq(ownerColumn(type), id));
      return rows.length > 0;
    },
    async acceptStep(type, id, step, tx = db) {
      const t = tableOf(type);
      const rows = await tx
        .update(t)
        .set({ mfaLastStep: step })
        .where(and(eq(t.id, id), or(isNull(t.mfaLastStep), lt(t.mfaLastStep, step))))
        .returning({ id: t.id });
      return rows.length > 0;
    },
    async replaceBackupCodes(type, id, codeHashes, at, tx = db) {
      const owner = type === 'user' ? { userId: id } : type === 'customer' ? { customerId: id } : { memberId: id };
      await tx.delete(mfaBackupCodes).where(eq(ownerColumn(type), id));
      if (codeHashes.length > 0) {
        await tx.insert(mfaBackupCodes).values(codeHashes.map((codeHash) => ({ ...owner, codeHash, createdAt: at })));
      }
    },
    async useBackupCode(type, id, codeHash, at, tx = db) {
      const owned = and(eq(ownerColumn(type), id), eq(mfaBackupCodes.codeHash, codeHash));
      const used = await tx
        .update(mfaBackupCodes)
        .set({ usedAt: at })
        .where(and(owned, isNull(mfaBackupCodes.usedAt)))
        .returning({ id: mfaBackupCodes.id });
      if (used.length > 0) return 'accepted';
      const existing = await tx.select({ id: mfaBackupCodes.id }).from(mfaBackupCodes).where(owned).limit(1);
      return existing.length > 0 ? 'alreadyUsed' : 'unknown';
    },
    async countUnusedBackupCodes(type, id, tx = db) {
      const [row] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(mfaBackupCodes)
        .where(and(eq(ownerColumn(type), id), isNull(mfaBackupCodes.usedAt)));
      return row?.n ?? 0;
    },
  };
}
