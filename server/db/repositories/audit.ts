import { and, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { apiKeys, auditLog, automaticActions, customerMembers, customers, scheduledChanges, users, type AuditRow, type NewAuditRow } from '../schema';
import { SCHEDULE_OPERATION_LABELS, ruleLabel } from '../../../src/domain/automation';
import { escapeLike, searchTerm } from './customers';

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

/** The audit log page's filters; every one optional, all of them together. */
export interface AuditLogFilter {
  /** Case-insensitive part of the actor's email, name or id. */
  actor?: string | null;
  actorType?: AuditRow['actorType'] | null;
  actions?: readonly string[] | null;
  /** Case-insensitive part of the target's type and id. */
  targetType?: string | null;
  targetId?: string | null;
  /** From this moment (inclusive) to that one (exclusive). */
  from?: Date | null;
  until?: Date | null;
}

export interface AuditLogRow extends AuditEntryWithActor {
  actorEmail: string | null;
  ip: string | null;
  requestId: string | null;
}

/** Where the export's last page ended: the next page starts just older than it. */
export interface AuditCursor {
  createdAt: Date;
  id: number;
}

const contains = (column: SQL, term: string) => sql`lower(${column}) LIKE lower(${`%${escapeLike(term)}%`})`;

function logWhere(filter: AuditLogFilter): SQL | undefined {
  const a = auditLog;
  const conditions: (SQL | undefined)[] = [];
  const actor = searchTerm(filter.actor);
  if (actor) {
    conditions.push(
      or(
        contains(sql`${a.actorId}::text`, actor),
        contains(sql`${users.email}`, actor),
        contains(sql`${users.name}`, actor),
        contains(sql`${customers.email}`, actor),
        contains(sql`${customers.name}`, actor),
        contains(sql`${apiKeys.name}`, actor),
        contains(sql`${customerMembers.email}`, actor),
        contains(sql`${customerMembers.name}`, actor),
      ),
    );
  }
  if (filter.actorType) conditions.push(eq(a.actorType, filter.actorType));
  if (filter.actions && filter.actions.length > 0) conditions.push(inArray(a.action, [...filter.actions]));
  const targetType = searchTerm(filter.targetType);
  if (targetType) conditions.push(contains(sql`${a.targetType}`, targetType));
  const targetId = searchTerm(filter.targetId);
  if (targetId) conditions.push(contains(sql`${a.targetId}`, targetId));
  if (filter.from) conditions.push(gte(a.createdAt, filter.from));
  if (filter.until) conditions.push(lt(a.createdAt, filter.until));
  return and(...conditions);
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;

/**
 * A rule's action or a schedule acting: named by what it is ("Data use rule at 90 %", "Scheduled
 * change: Change plan") and the person who set it up, whose email it carries.
 */
async function nameAutomationActors<T extends { actorType: AuditRow['actorType']; actorId: string | null; actorName: string | null; actorEmail?: string | null }>(tx: Db, rows: T[]): Promise<T[]> {
  const ruleIds = [...new Set(rows.filter((r) => r.actorType === 'rule' && r.actorId).map((r) => r.actorId!))];
  const scheduleIds = [...new Set(rows.filter((r) => r.actorType === 'schedule' && r.actorId).map((r) => r.actorId!))];
  if (ruleIds.length + scheduleIds.length === 0) return rows;
  const names = new Map<string, { name: string; email: string | null }>();
  const by = (who: string | null) => (who ? ` (set up by ${who})` : '');
  if (ruleIds.length > 0) {
    const found = await tx
      .select({ id: automaticActions.id, kind: automaticActions.ruleKind, level: automaticActions.level, who: users.name, email: users.email })
      .from(automaticActions)
      .leftJoin(users, eq(users.id, automaticActions.setUpBy))
      .where(inArray(automaticActions.id, ruleIds));
    for (const f of found) names.set(f.id, { name: `${ruleLabel(f.kind, f.level)}${by(f.who)}`, email: f.email });
  }
  if (scheduleIds.length > 0) {
    const found = await tx
      .select({ id: scheduledChanges.id, operation: scheduledChanges.operation, who: users.name, email: users.email })
      .from(scheduledChanges)
      .leftJoin(users, eq(users.id, scheduledChanges.createdBy))
      .where(inArray(scheduledChanges.id, scheduleIds));
    for (const f of found) names.set(f.id, { name: `Scheduled change: ${SCHEDULE_OPERATION_LABELS[f.operation]}${by(f.who)}`, email: f.email });
  }
  return rows.map((r) => {
    const named = r.actorId ? names.get(r.actorId) : undefined;
    return named ? { ...r, actorName: named.name, ...('actorEmail' in r ? { actorEmail: named.email } : {}) } : r;
  });
}

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
          apiKeyName: apiKeys.name,
          memberName: customerMembers.name,
          targetType: auditLog.targetType,
          targetId: auditLog.targetId,
          before: auditLog.before,
          after: auditLog.after,
          createdAt: auditLog.createdAt,
        })
        .from(auditLog)
        .leftJoin(users, and(eq(auditLog.actorType, 'user'), eq(users.id, auditLog.actorId)))
        .leftJoin(customers, and(eq(auditLog.actorType, 'customer'), eq(customers.id, auditLog.actorId)))
        .leftJoin(apiKeys, and(eq(auditLog.actorType, 'api_key'), eq(apiKeys.id, auditLog.actorId)))
        // A customer organisation's member acts under their own name (removed members' too).
        .leftJoin(customerMembers, and(eq(auditLog.actorType, 'member'), eq(customerMembers.id, auditLog.actorId)))
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
      return nameAutomationActors(
        tx,
        rows.map(({ userName, customerName, apiKeyName, memberName, ...row }) => ({ ...row, actorName: userName ?? customerName ?? apiKeyName ?? memberName ?? null })),
      );
    },
    /**
     * The audit log page: newest first (ties by id), with the actor's current name and email.
     * `after` pages by position for the CSV export, so rows written while it streams cannot shift
     * a page under it; the page itself uses `offset`.
     */
    async listLog(filter: AuditLogFilter, page: { limit: number; offset?: number; after?: AuditCursor | null }, tx: Db = db): Promise<AuditLogRow[]> {
      const a = auditLog;
      const after = page.after ? or(lt(a.createdAt, page.after.createdAt), and(eq(a.createdAt, page.after.createdAt), lt(a.id, page.after.id))) : undefined;
      const rows = await tx
        .select({
          id: a.id,
          action: a.action,
          actorType: a.actorType,
          actorId: a.actorId,
          userName: users.name,
          userEmail: users.email,
          customerName: customers.name,
          customerEmail: customers.email,
          apiKeyName: apiKeys.name,
          memberName: customerMembers.name,
          memberEmail: customerMembers.email,
          targetType: a.targetType,
          targetId: a.targetId,
          before: a.before,
          after: a.after,
          ip: a.ip,
          requestId: a.requestId,
          createdAt: a.createdAt,
        })
        .from(a)
        .leftJoin(users, and(eq(a.actorType, 'user'), eq(users.id, a.actorId)))
        .leftJoin(customers, and(eq(a.actorType, 'customer'), eq(customers.id, a.actorId)))
        // An API key's calls carry its name.
        .leftJoin(apiKeys, and(eq(a.actorType, 'api_key'), eq(apiKeys.id, a.actorId)))
        .leftJoin(customerMembers, and(eq(a.actorType, 'member'), eq(customerMembers.id, a.actorId)))
        .where(and(logWhere(filter), after))
        .orderBy(desc(a.createdAt), desc(a.id))
        .limit(page.limit)
        .offset(page.offset ?? 0);
      return nameAutomationActors(
        tx,
        rows.map(({ userName, userEmail, customerName, customerEmail, apiKeyName, memberName, memberEmail, ...row }) => ({
          ...row,
          actorName: userName ?? customerName ?? apiKeyName ?? memberName ?? null,
          actorEmail: userEmail ?? customerEmail ?? memberEmail ?? null,
        })),
      );
    },
    async countLog(filter: AuditLogFilter, tx: Db = db): Promise<number> {
      const a = auditLog;
      const [row] = await tx
        .select({ n: count() })
        .from(a)
        .leftJoin(users, and(eq(a.actorType, 'user'), eq(users.id, a.actorId)))
        .leftJoin(customers, and(eq(a.actorType, 'customer'), eq(customers.id, a.actorId)))
        // An API key's calls carry its name.
        .leftJoin(apiKeys, and(eq(a.actorType, 'api_key'), eq(apiKeys.id, a.actorId)))
        .leftJoin(customerMembers, and(eq(a.actorType, 'member'), eq(customerMembers.id, a.actorId)))
        .where(logWhere(filter));
      return Number(row?.n ?? 0);
    },
    async listByAction(action: string, tx: Db = db): Promise<AuditRow[]> {
      return tx.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id));
    },
  };
}
