import { and, desc, eq, or } from 'drizzle-orm';
import type { Db } from '../client';
import { auditLog, customers, users, type AuditRow, type NewAuditRow } from '../schema';

export interface AuditEntryWithActor {
  id: number;
  action: string;
  actorType: AuditRow['actorType'];
  actorId: string | null;
  actorName: string | null;
  targetType: string | null;
  targetId: string | null;
  before: unknown;
  after: unknown;
  createdAt: Date;
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;

export function createAuditRepository(db: Db) {
  return {
    async insert(row: NewAuditRow, tx: Db = db): Promise<AuditRow> {
      const [created] = await tx.insert(auditLog).values(row).returning();
      if (!created) throw new Error('insert into audit_log returned no row');
      return created;
    },
    /** Several entries in one statement (a bulk change writes one entry per row it changed). */
    async insertMany(rows: NewAuditRow[], tx: Db = db): Promise<void> {
      if (rows.length === 0) return;
      await tx.insert(auditLog).values(rows);
    },
    /**
     * Newest first, with the acting user's or customer's current name. With `aboutCustomer`, only
     * the entries whose target is that customer or whose actor it is (its sign-ins, its password).
     */
    async listRecent(limit: number, filter: { aboutCustomer?: string } = {}, tx: Db = db): Promise<AuditEntryWithActor[]> {
      const about = filter.aboutCustomer;
      const rows = await tx
        .select({
          id: auditLog.id,
          action: auditLog.action,
          actorType: auditLog.actorType,
          actorId: auditLog.actorId,
          userName: users.name,
          customerName: customers.name,
          targetType: auditLog.targetType,
          targetId: auditLog.targetId,
          before: auditLog.before,
          after: auditLog.after,
          createdAt: auditLog.createdAt,
        })
        .from(auditLog)
        .leftJoin(users, and(eq(auditLog.actorType, 'user'), eq(users.id, auditLog.actorId)))
        .leftJoin(customers, and(eq(auditLog.actorType, 'customer'), eq(customers.id, auditLog.actorId)))
        .where(
          about
            ? or(
                and(eq(auditLog.targetType, 'customer'), eq(auditLog.targetId, about)),
                and(eq(auditLog.actorType, 'customer'), eq(auditLog.actorId, about)),
              )
            : undefined,
        )
        .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
        .limit(limit);
      return rows.map(({ userName, customerName, ...row }) => ({ ...row, actorName: userName ?? customerName ?? null }));
    },
    async listByAction(action: string, tx: Db = db): Promise<AuditRow[]> {
      return tx.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
    },
  };
}
