// Customers: sign-in bookkeeping (shared with portal users), the admin list with search, status
// filters and paging, the stats counts, edits and soft delete. (Its activity: the audit repository.)
import { and, desc, eq, gt, isNull, lte, not, sql, type SQL } from 'drizzle-orm';
import { EXPIRING_SOON_DAYS, type CustomerStats, type CustomerStatusFilter } from '../../../src/domain/customers';
import type { Db } from '../client';
import { customers, type CustomerRow, type NewCustomerRow } from '../schema';
import { createAccountLoginStore } from './accounts';
import { isoOrNull } from '../../clock';
import { isUniqueViolation } from './unique-violation';

const DAY_MS = 86_400_000;
const EMAIL_UNIQUE_INDEX = 'customers_email_live_uq';

export interface CustomerListFilter {
  /** Case-insensitive substring of name, email or company; `%` and `_` match themselves. */
  search?: string | null;
  isActive?: boolean | null;
  status?: CustomerStatusFilter | null;
  /** The moment expiry filters are measured from. */
  now: Date;
}

/** Expected failures of a write, as data (the service turns them into errors). */
export type CustomerWrite = { ok: true; row: CustomerRow } | { ok: false; reason: 'duplicate_email' };

/** One generated row for the bulk insert (the benchmark's 100,000 customers). */
export interface BulkCustomerRow {
  email: string;
  name: string;
  company: string;
  isActive: boolean;
  blockedEnabled: boolean;
  blockedReason: string | null;
  mfaEnabled: boolean;
  accountExpiresAt: Date | null;
  createdAt: Date;
}

/** `%`, `_` and the escape character itself, escaped for LIKE's default escape (backslash). */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The term as searched: without control characters (search_text separates its fields with
 * U+001F, so a term must not hold one) and trimmed; null when nothing is left.
 */
export function searchTerm(search: string | null | undefined): string | null {
  // eslint-disable-next-line no-control-regex
  const term = search?.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return term ? term : null;
}

const isEmailConflict = (error: unknown) => isUniqueViolation(error, EMAIL_UNIQUE_INDEX);

function statusCondition(status: CustomerStatusFilter, now: Date): SQL | undefined {
  const c = customers;
  switch (status) {
    case 'all':
      return undefined;
    case 'active':
      return and(eq(c.isActive, true), eq(c.blockedEnabled, false));
    case 'pending':
      return and(eq(c.isActive, false), eq(c.blockedEnabled, false));
    case 'inactive':
      return eq(c.isActive, false);
    case 'blocked':
      return eq(c.blockedEnabled, true);
    // src/domain/customers.ts expiryState: expiring soon is 1 to 30 whole days left, i.e.
    // now < expiry <= now + 30 days; expired is expiry <= now.
    case 'expiring_soon':
      return and(gt(c.accountExpiresAt, now), lte(c.accountExpiresAt, new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS)));
    case 'expired':
      return lte(c.accountExpiresAt, now);
  }
}

function listWhere(filter: CustomerListFilter): SQL | undefined {
  const c = customers;
  const conditions: (SQL | undefined)[] = [isNull(c.deletedAt)];
  const term = searchTerm(filter.search);
  if (term) {
    // search_text holds the three fields lower-cased (0002), matched by its trigram index.
    conditions.push(sql`${c.searchText} LIKE lower(${`%${escapeLike(term)}%`})`);
  }
  if (filter.isActive !== undefined && filter.isActive !== null) conditions.push(eq(c.isActive, filter.isActive));
  if (filter.status) conditions.push(statusCondition(filter.status, filter.now));
  return and(...conditions);
}

function listQuery(tx: Db, filter: CustomerListFilter, page: { limit: number; offset: number }) {
  return tx
    .select()
    .from(customers)
    .where(listWhere(filter))
    .orderBy(desc(customers.createdAt), desc(customers.id))
    .limit(page.limit)
    .offset(page.offset);
}

function countQuery(tx: Db, filter: CustomerListFilter) {
  return tx
    .select({ n: sql<number>`count(*)::int` })
    .from(customers)
    .where(listWhere(filter));
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Depth-first node types, with the index name where one is used. */
function planNodes(node: PlanNode | undefined): string[] {
  if (!node) return [];
  const self = node['Index Name'] ? `${node['Node Type']} (${node['Index Name']})` : node['Node Type'];
  return [self, ...(node.Plans ?? []).flatMap(planNodes)];
}

export type CustomersRepository = ReturnType<typeof createCustomersRepository>;

export function createCustomersRepository(db: Db) {
  const c = customers;
  return {
    ...createAccountLoginStore<CustomerRow>(db, customers),
    async insert(row: NewCustomerRow, tx: Db = db): Promise<CustomerRow> {
      const [created] = await tx.insert(customers).values(row).returning();
      if (!created) throw new Error('insert into customers returned no row');
      return created;
    },
    /** Inserts a customer; a live customer with the same email (any case) is reported, not thrown. */
    async create(row: NewCustomerRow, tx: Db = db): Promise<CustomerWrite> {
      try {
        const [created] = await tx.insert(customers).values(row).returning();
        if (!created) throw new Error('insert into customers returned no row');
        return { ok: true, row: created };
      } catch (error) {
        if (isEmailConflict(error)) return { ok: false, reason: 'duplicate_email' };
        throw error;
      }
    },
    async insertManyIgnoringConflicts(rows: NewCustomerRow[], tx: Db = db): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await tx.insert(customers).values(rows).onConflictDoNothing().returning({ id: customers.id });
      return inserted.length;
    },
    /**
     * Many rows in one statement: each column travels as one array parameter and `unnest` turns
     * them back into rows (no per-row parameters, so no 65,535-parameter limit).
     */
    async insertBulk(rows: BulkCustomerRow[], tx: Db = db): Promise<number> {
      if (rows.length === 0) return 0;
      const col = <T>(pick: (r: BulkCustomerRow) => T) => sql.param(rows.map(pick));
      const result = await tx.execute(sql`
        INSERT INTO customers (email, name, company, is_active, blocked_enabled, blocked_reason, blocked_at,
                               mfa_enabled, account_expires_at, created_at, updated_at)
        SELECT u.email, u.name, u.company, u.is_active::boolean, u.blocked_enabled::boolean, u.blocked_reason,
               CASE WHEN u.blocked_enabled::boolean THEN u.created_at::timestamptz END,
               u.mfa_enabled::boolean, u.account_expires_at::timestamptz, u.created_at::timestamptz, u.created_at::timestamptz
        FROM unnest(
          ${col((r) => r.email)}::text[], ${col((r) => r.name)}::text[], ${col((r) => r.company)}::text[],
          ${col((r) => String(r.isActive))}::text[], ${col((r) => String(r.blockedEnabled))}::text[],
          ${col((r) => r.blockedReason)}::text[], ${col((r) => String(r.mfaEnabled))}::text[],
          ${col((r) => isoOrNull(r.accountExpiresAt))}::text[], ${col((r) => isoOrNull(r.createdAt))}::text[]
        ) AS u(email, name, company, is_active, blocked_enabled, blocked_reason, mfa_enabled, account_expires_at, created_at)`);
      return (result as unknown as { affectedRows?: number; rowCount?: number }).affectedRows ??
        (result as unknown as { rowCount?: number }).rowCount ?? rows.length;
    },
    async update(id: string, patch: Partial<NewCustomerRow>, tx: Db = db): Promise<CustomerRow | null> {
      const [row] = await tx.update(customers).set(patch).where(eq(customers.id, id)).returning();
      return row ?? null;
    },
    /** Updates a live customer; a clash with another live customer's email is reported, not thrown. */
    async updateLive(id: string, patch: Partial<NewCustomerRow>, tx: Db = db): Promise<CustomerWrite | null> {
      try {
        const [row] = await tx
          .update(customers)
          .set(patch)
          .where(and(eq(c.id, id), isNull(c.deletedAt)))
          .returning();
        return row ? { ok: true, row } : null;
      } catch (error) {
        if (isEmailConflict(error)) return { ok: false, reason: 'duplicate_email' };
        throw error;
      }
    },
    /** The live customer, locked until `tx` ends so concurrent edits apply one after the other. */
    async findLiveByIdForUpdate(id: string, tx: Db): Promise<CustomerRow | null> {
      const [row] = await tx
        .select()
        .from(customers)
        .where(and(eq(c.id, id), isNull(c.deletedAt)))
        .for('update');
      return row ?? null;
    },
    /** Live, active customers who may receive terminals now (not blocked, not expired), oldest first. */
    async activeAssignableIds(at: Date, tx: Db = db): Promise<string[]> {
      const rows = await tx
        .select({ id: c.id })
        .from(customers)
        .where(
          and(
            isNull(c.deletedAt),
            eq(c.isActive, true),
            eq(c.blockedEnabled, false),
            sql`(${c.accountExpiresAt} IS NULL OR ${c.accountExpiresAt} > ${at})`,
          ),
        )
        .orderBy(c.createdAt, c.id);
      return rows.map((r) => r.id);
    },
    /** Another live customer already using this email (any case), if there is one. */
    async emailTaken(email: string, exceptId: string | null, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .select({ id: c.id })
        .from(customers)
        .where(and(sql`lower(${c.email}) = lower(${email})`, isNull(c.deletedAt), exceptId ? not(eq(c.id, exceptId)) : undefined))
        .limit(1);
      return rows.length > 0;
    },
    /** One page, newest first (id breaks ties, so pages never overlap). */
    async list(filter: CustomerListFilter, page: { limit: number; offset: number }, tx: Db = db): Promise<CustomerRow[]> {
      return listQuery(tx, filter, page);
    },
    /**
     * The plan PostgreSQL chooses for `list` and `count` (EXPLAIN, not run): the node types from
     * the top down, e.g. ["Limit", "Index Scan"]. For the benchmark and for diagnosing slow pages.
     */
    async planOfList(filter: CustomerListFilter, page: { limit: number; offset: number }, tx: Db = db): Promise<{ list: string[]; count: string[] }> {
      const plan = async (query: SQL) => {
        const result = (await tx.execute(sql`EXPLAIN (FORMAT JSON) ${query}`)) as unknown as { rows: Record<string, unknown>[] };
        const raw = Object.values(result.rows[0] ?? {})[0];
        const root = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
        return planNodes(root[0]?.Plan);
      };
      return {
        list: await plan(listQuery(tx, filter, page).getSQL()),
        count: await plan(countQuery(tx, filter).getSQL()),
      };
    },
    async count(filter: CustomerListFilter, tx: Db = db): Promise<number> {
      const [row] = await countQuery(tx, filter);
      return Number(row?.n ?? 0);
    },
    /** Every figure of the stats cards over the live customers, in one pass. */
    async stats(now: Date, tx: Db = db): Promise<CustomerStats> {
      const at = now.toISOString();
      const soon = new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS).toISOString();
      const [row] = await tx
        .select({
          total: sql<number>`count(*)::int`,
          active: sql<number>`(count(*) FILTER (WHERE ${c.isActive} AND NOT ${c.blockedEnabled}))::int`,
          pending: sql<number>`(count(*) FILTER (WHERE NOT ${c.isActive} AND NOT ${c.blockedEnabled}))::int`,
          mfaEnabled: sql<number>`(count(*) FILTER (WHERE ${c.mfaEnabled}))::int`,
          blocked: sql<number>`(count(*) FILTER (WHERE ${c.blockedEnabled}))::int`,
          expiringSoon: sql<number>`(count(*) FILTER (WHERE ${c.accountExpiresAt} > ${at}::timestamptz AND ${c.accountExpiresAt} <= ${soon}::timestamptz))::int`,
          expired: sql<number>`(count(*) FILTER (WHERE ${c.accountExpiresAt} <= ${at}::timestamptz))::int`,
        })
        .from(customers)
        .where(isNull(c.deletedAt));
      const n = (v: unknown) => Number(v ?? 0);
      return {
        total: n(row?.total),
        active: n(row?.active),
        pending: n(row?.pending),
        mfaEnabled: n(row?.mfaEnabled),
        blocked: n(row?.blocked),
        expiringSoon: n(row?.expiringSoon),
        expired: n(row?.expired),
      };
    },
  };
}
