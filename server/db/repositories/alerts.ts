// Alerts: the rules and their overrides, the alerts, who subscribed and who has read
// them, and what the evaluation reads. The evaluation reads only the lines the triggers of 0016
// marked (alert_dirty_lines) and writes its decisions in bulk: a usage sync of 100,000 lines is a
// few statements per batch of lines, not a few per line.
import { and, desc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { AlertFigures, AlertKind, AlertStatus } from '../../../src/domain/alerts';
import type { RuleActionWire } from '../../../src/domain/automation';
import type { Db } from '../client';
import {
  alertOverrides,
  alertReads,
  alertRules,
  alerts,
  alertSubscriptions,
  customers,
  providerAccounts,
  serviceLines,
  terminals,
  users,
  type AlertOverrideRow,
  type AlertRow,
  type AlertRuleRow,
} from '../schema';
import { onLines } from './my-terminals';
import { rowsOf } from './results';
import { column } from './values';

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;

/** A lock number of its own: one evaluation at a time across every process on the database. */
const EVALUATION_LOCK = 0x616c7274;

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const msToDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(Number(value)));

/** One marked line as the evaluation reads it. */
export interface LineFacts {
  serviceLineNumber: string;
  /** False when the line is gone from the inventory. */
  live: boolean;
  /** The customer holding a live terminal on the line (the first by terminal id), or null. */
  customerId: string | null;
  cycleStart: string | null;
  cycleEnd: string | null;
  usedGB: number | null;
  /** The cycle's own limit, else the terminal's cap in GB. */
  capGB: number | null;
  currency: string | null;
  terminals: { userTerminalId: string; reportedAt: Date | null; syncedAt: Date | null }[];
}

/** A rule's settings after the line's and the customer's overrides. */
export interface EffectiveRule {
  enabled: boolean;
  usageLevels: number[] | null;
  threshold: number | null;
  /** What the rule does at its levels for this line (its own, its customer's, else the rule's). */
  actions: RuleActionWire[];
}

/** An alert not yet resolved, as the evaluation compares it. */
export interface UnresolvedAlert {
  id: string;
  kind: AlertKind;
  level: number;
  targetKey: string;
  periodKey: string;
  customerId: string | null;
  serviceLineNumber: string | null;
  userTerminalId: string | null;
}

export interface NewAlert {
  kind: AlertKind;
  level: number;
  severity: 'warning' | 'critical';
  targetType: 'line' | 'terminal' | 'customer' | 'sync';
  targetKey: string;
  periodKey: string;
  serviceLineNumber: string | null;
  userTerminalId: string | null;
  customerId: string | null;
  message: string;
  figures: AlertFigures;
}

export type InsertedAlert = Pick<UnresolvedAlert, 'id' | 'kind' | 'level' | 'targetKey' | 'periodKey' | 'customerId'>;

/** An alert row with the names the pages show. */
export interface AlertListRow extends AlertRow {
  customerName: string | null;
  customerCompany: string | null;
  acknowledgedByName: string | null;
  /**
   * The provider account of the alert's line (or terminal), read for the Alerts page only; null
   * for an alert on no line (a customer's, a sync's) or a line no longer known.
   */
  accountId?: number | null;
  accountName?: string | null;
}

export interface AlertFilter {
  statuses: AlertStatus[] | null;
  kind: AlertKind | null;
  severity: 'warning' | 'critical' | null;
  customerId: string | null;
  search: string | null;
  /** Only the alerts on this provider account's lines and terminals; absent or null: every alert. */
  accountId?: number | null;
}

/**
 * The provider account an alert concerns: its line's, else its terminal's (each a key lookup);
 * null for an alert on no line or terminal.
 */
const accountOfAlert = sql<number | null>`coalesce(
  (SELECT ${serviceLines.accountId} FROM ${serviceLines} WHERE ${serviceLines.serviceLineNumber} = ${alerts.serviceLineNumber}),
  (SELECT ${terminals.accountId} FROM ${terminals} WHERE ${terminals.userTerminalId} = ${alerts.userTerminalId}))`;

const UNRESOLVED_COLUMNS = sql`id::text AS id, kind, level, target_key, period_key, customer_id::text AS customer_id, service_line_number, user_terminal_id`;

function toUnresolved(r: Record<string, unknown>): UnresolvedAlert {
  return {
    id: String(r.id),
    kind: r.kind as AlertKind,
    level: Number(r.level),
    targetKey: String(r.target_key),
    periodKey: String(r.period_key),
    customerId: (r.customer_id as string | null) ?? null,
    serviceLineNumber: (r.service_line_number as string | null) ?? null,
    userTerminalId: (r.user_terminal_id as string | null) ?? null,
  };
}

export function createAlertsRepository(db: Db) {
  const a = alerts;

  function filterWhere(filter: AlertFilter): SQL | undefined {
    const parts: SQL[] = [];
    if (filter.statuses) parts.push(inArray(a.status, filter.statuses));
    if (filter.kind) parts.push(eq(a.kind, filter.kind));
    if (filter.severity) parts.push(eq(a.severity, filter.severity));
    if (filter.customerId) parts.push(eq(a.customerId, filter.customerId));
    if (filter.accountId !== undefined && filter.accountId !== null) parts.push(sql`${accountOfAlert} = ${filter.accountId}`);
    if (filter.search) {
      const like = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      parts.push(
        sql`(lower(${a.targetKey}) LIKE ${like} OR lower(coalesce(${a.serviceLineNumber}, '')) LIKE ${like}
             OR lower(coalesce(${a.userTerminalId}, '')) LIKE ${like} OR lower(coalesce(${customers.name}, '')) LIKE ${like}
             OR lower(coalesce(${customers.company}, '')) LIKE ${like})`,
      );
    }
    return parts.length > 0 ? and(...parts) : undefined;
  }

  const listColumns = {
    alert: a,
    customerName: customers.name,
    customerCompany: customers.company,
    acknowledgedByName: users.name,
  };
  const toListRow = (r: { alert: AlertRow; customerName: string | null; customerCompany: string | null; acknowledgedByName: string | null }): AlertListRow => ({
    ...r.alert,
    customerName: r.customerName,
    customerCompany: r.customerCompany,
    acknowledgedByName: r.acknowledgedByName,
  });

  return {
    // ---- Rules ---------------------------------------------------------------------------

    async rules(tx: Db = db): Promise<AlertRuleRow[]> {
      return tx.select().from(alertRules).orderBy(alertRules.kind);
    },

    async updateRule(kind: AlertKind, values: { enabled: boolean; usageLevels: number[] | null; threshold: number | null; notifyCustomer: boolean; by: string; at: Date }, tx: Db = db) {
      const [row] = await tx
        .update(alertRules)
        .set({ enabled: values.enabled, usageLevels: values.usageLevels, threshold: values.threshold, notifyCustomer: values.notifyCustomer, updatedBy: values.by, updatedAt: values.at })
        .where(eq(alertRules.kind, kind))
        .returning();
      return row ?? null;
    },

    /** A rule's actions, and who set them up. */
    async updateRuleActions(kind: AlertKind, actions: RuleActionWire[], by: string, at: Date, tx: Db = db) {
      const [row] = await tx.update(alertRules).set({ actions, actionsBy: by, updatedAt: at }).where(eq(alertRules.kind, kind)).returning();
      return row ?? null;
    },

    async overrideCounts(tx: Db = db): Promise<Map<string, number>> {
      const rows = await tx.select({ kind: alertOverrides.kind, n: sql<number>`count(*)::int` }).from(alertOverrides).groupBy(alertOverrides.kind);
      return new Map(rows.map((r) => [r.kind, Number(r.n)]));
    },

    async overrides(kind: AlertKind, tx: Db = db): Promise<(AlertOverrideRow & { label: string | null })[]> {
      const result = await tx.execute(sql`
        SELECT o.kind, o.scope, o.scope_key, o.enabled, o.usage_levels, o.threshold::float8 AS threshold, o.actions,
               (extract(epoch FROM o.updated_at) * 1000)::float8 AS updated_ms,
               CASE WHEN o.scope = 'customer' THEN (SELECT c.name FROM customers c WHERE c.id::text = o.scope_key)
                    ELSE (SELECT l.nickname FROM service_lines l WHERE l.service_line_number = o.scope_key) END AS label
        FROM alert_overrides o WHERE o.kind = ${kind} ORDER BY o.scope, o.scope_key`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({ ...toOverride(r), label: (r.label as string | null) ?? null }));
    },

    async upsertOverride(
      row: { kind: AlertKind; scope: 'customer' | 'line'; scopeKey: string; enabled: boolean; usageLevels: number[] | null; threshold: number | null; actions: RuleActionWire[] | null; by: string; at: Date },
      tx: Db = db,
    ) {
      const values = { kind: row.kind, scope: row.scope, scopeKey: row.scopeKey, enabled: row.enabled, usageLevels: row.usageLevels, threshold: row.threshold, actions: row.actions, updatedBy: row.by, updatedAt: row.at };
      const [saved] = await tx
        .insert(alertOverrides)
        .values(values)
        .onConflictDoUpdate({ target: [alertOverrides.kind, alertOverrides.scope, alertOverrides.scopeKey], set: values })
        .returning();
      if (!saved) throw new Error('upsert into alert_overrides returned no row');
      return saved;
    },

    async deleteOverride(kind: AlertKind, scope: 'customer' | 'line', scopeKey: string, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .delete(alertOverrides)
        .where(and(eq(alertOverrides.kind, kind), eq(alertOverrides.scope, scope), eq(alertOverrides.scopeKey, scopeKey)))
        .returning({ kind: alertOverrides.kind });
      return rows.length > 0;
    },

    /** Marks the lines a customer (or one line) holds, so the next evaluation reads them again (in order: 0020). */
    async markLines(scope: 'customer' | 'line' | 'all', key: string | null, tx: Db = db): Promise<void> {
      if (scope === 'line') {
        await tx.execute(sql`INSERT INTO alert_dirty_lines VALUES (${key}) ON CONFLICT DO NOTHING`);
      } else if (scope === 'customer') {
        await tx.execute(sql`
          INSERT INTO alert_dirty_lines SELECT DISTINCT service_line_number FROM terminals
          WHERE assigned_customer_id::text = ${key} AND service_line_number IS NOT NULL AND removed_at IS NULL
          ORDER BY service_line_number
          ON CONFLICT DO NOTHING`);
      } else {
        await tx.execute(sql`INSERT INTO alert_dirty_lines SELECT service_line_number FROM service_lines ORDER BY service_line_number ON CONFLICT DO NOTHING`);
      }
    },

    async lineExists(serviceLineNumber: string, tx: Db = db): Promise<boolean> {
      const result = await tx.execute(sql`SELECT 1 FROM service_lines WHERE service_line_number = ${serviceLineNumber} AND removed_at IS NULL`);
      return rowsOf(result).length > 0;
    },

    // ---- Subscriptions and reads ----------------------------------------------------------

    async subscribedKinds(userId: string, tx: Db = db): Promise<Set<string>> {
      const rows = await tx.select({ kind: alertSubscriptions.kind }).from(alertSubscriptions).where(eq(alertSubscriptions.userId, userId));
      return new Set(rows.map((r) => r.kind));
    },

    async setSubscription(userId: string, kind: AlertKind, subscribed: boolean, tx: Db = db): Promise<void> {
      if (subscribed) await tx.insert(alertSubscriptions).values({ userId, kind }).onConflictDoNothing();
      else await tx.delete(alertSubscriptions).where(and(eq(alertSubscriptions.userId, userId), eq(alertSubscriptions.kind, kind)));
    },

    /** Active portal users subscribed to each kind: who gets the email. */
    async subscribers(kinds: readonly AlertKind[], tx: Db = db): Promise<{ kind: AlertKind; email: string; name: string }[]> {
      if (kinds.length === 0) return [];
      const rows = await tx
        .select({ kind: alertSubscriptions.kind, email: users.email, name: users.name })
        .from(alertSubscriptions)
        .innerJoin(users, eq(users.id, alertSubscriptions.userId))
        .where(and(inArray(alertSubscriptions.kind, [...kinds]), eq(users.isActive, true), sql`${users.deletedAt} IS NULL`));
      return rows.map((r) => ({ kind: r.kind as AlertKind, email: r.email, name: r.name }));
    },

    async customerContacts(ids: readonly string[], tx: Db = db): Promise<Map<string, { email: string; name: string }>> {
      if (ids.length === 0) return new Map();
      const rows = await tx
        .select({ id: customers.id, email: customers.email, name: customers.name })
        .from(customers)
        .where(and(inArray(customers.id, [...ids]), sql`${customers.deletedAt} IS NULL`));
      return new Map(rows.map((r) => [r.id, { email: r.email, name: r.name }]));
    },

    async seenAt(userId: string, tx: Db = db): Promise<Date | null> {
      const [row] = await tx.select({ seenAt: alertReads.seenAt }).from(alertReads).where(eq(alertReads.userId, userId));
      return row?.seenAt ?? null;
    },

    async markSeen(userId: string, at: Date, tx: Db = db): Promise<void> {
      await tx.insert(alertReads).values({ userId, seenAt: at }).onConflictDoUpdate({ target: alertReads.userId, set: { seenAt: at } });
    },

    // ---- Reading alerts -------------------------------------------------------------------

    /** A page of the Alerts list, each alert with its account (the page and its export only). */
    async list(filter: AlertFilter, page: { offset: number; limit: number }, tx: Db = db): Promise<{ rows: AlertListRow[]; total: number }> {
      const where = filterWhere(filter);
      const rows = await tx
        .select({ ...listColumns, accountId: providerAccounts.id, accountName: providerAccounts.name })
        .from(a)
        .leftJoin(customers, eq(customers.id, a.customerId))
        .leftJoin(users, eq(users.id, a.acknowledgedBy))
        .leftJoin(providerAccounts, sql`${providerAccounts.id} = ${accountOfAlert}`)
        .where(where)
        .orderBy(desc(a.openedAt), desc(a.id))
        .limit(page.limit)
        .offset(page.offset);
      const [count] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(a)
        .leftJoin(customers, eq(customers.id, a.customerId))
        .where(where);
      return { rows: rows.map((r) => ({ ...toListRow(r), accountId: r.accountId, accountName: r.accountName })), total: Number(count?.n ?? 0) };
    },

    /** Counts per status under the same filters but the status. */
    async counts(filter: Omit<AlertFilter, 'statuses'>, tx: Db = db): Promise<Record<AlertStatus, number>> {
      const rows = await tx
        .select({ status: a.status, n: sql<number>`count(*)::int` })
        .from(a)
        .leftJoin(customers, eq(customers.id, a.customerId))
        .where(filterWhere({ ...filter, statuses: null }))
        .groupBy(a.status);
      const counts: Record<AlertStatus, number> = { open: 0, acknowledged: 0, resolved: 0 };
      for (const r of rows) counts[r.status] = Number(r.n);
      return counts;
    },

    async byIds(ids: readonly string[], tx: Db = db): Promise<AlertListRow[]> {
      if (ids.length === 0) return [];
      // One array parameter, not one per id: one statement text whatever the batch's size.
      const rows = await tx
        .select(listColumns)
        .from(a)
        .leftJoin(customers, eq(customers.id, a.customerId))
        .leftJoin(users, eq(users.id, a.acknowledgedBy))
        .where(sql`${a.id} = ANY(${sql.param([...ids])}::uuid[])`);
      return rows.map(toListRow);
    },

    /** The customer's alerts (on `lines`, when a member is limited to some): unresolved first, then the newest resolved ones. */
    async ofCustomer(customerId: string, limit: number, tx: Db = db, lines: readonly string[] | null = null): Promise<AlertListRow[]> {
      const rows = await tx
        .select(listColumns)
        .from(a)
        .leftJoin(customers, eq(customers.id, a.customerId))
        .leftJoin(users, eq(users.id, a.acknowledgedBy))
        .where(and(eq(a.customerId, customerId), onLines(a.serviceLineNumber, lines)))
        .orderBy(sql`(${a.status} = 'resolved')`, desc(a.openedAt))
        .limit(limit);
      return rows.map(toListRow);
    },

    async bell(userId: string, latest: number, tx: Db = db): Promise<{ unread: number; open: number; rows: AlertListRow[] }> {
      const result = await tx.execute(sql`
        SELECT count(*) FILTER (WHERE a.opened_at > coalesce((SELECT seen_at FROM alert_reads WHERE user_id = ${userId}), '-infinity'))::int AS unread,
               count(*) FILTER (WHERE a.status = 'open')::int AS open
        FROM alerts a WHERE a.status <> 'resolved'`);
      const [counts] = rowsOf<{ unread: number | string; open: number | string }>(result);
      const rows = await tx
        .select(listColumns)
        .from(a)
        .leftJoin(customers, eq(customers.id, a.customerId))
        .leftJoin(users, eq(users.id, a.acknowledgedBy))
        .where(ne(a.status, 'resolved'))
        .orderBy(desc(a.openedAt), desc(a.id))
        .limit(latest);
      return { unread: Number(counts?.unread ?? 0), open: Number(counts?.open ?? 0), rows: rows.map(toListRow) };
    },

    /** Open → acknowledged for the ids still open; the others are left as they are. */
    async acknowledge(ids: readonly string[], by: string, at: Date, tx: Db = db): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await tx
        .update(a)
        .set({ status: 'acknowledged', acknowledgedAt: at, acknowledgedBy: by })
        .where(and(inArray(a.id, [...ids]), eq(a.status, 'open')))
        .returning({ id: a.id });
      return rows.map((r) => r.id);
    },

    // ---- The evaluation -------------------------------------------------------------------

    /** Held until the transaction ends: a second evaluation waits for the first. */
    async lockEvaluation(tx: Db): Promise<void> {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${EVALUATION_LOCK})`);
    },

    /** Takes up to `limit` marked lines off the list (the caller's transaction puts them back if it fails). */
    async takeDirtyLines(limit: number, tx: Db): Promise<string[]> {
      const result = await tx.execute(sql`
        DELETE FROM alert_dirty_lines WHERE service_line_number IN (
          SELECT service_line_number FROM alert_dirty_lines ORDER BY service_line_number LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING service_line_number`);
      return rowsOf<{ service_line_number: string }>(result).map((r) => r.service_line_number);
    },

    async dirtyCount(tx: Db = db): Promise<number> {
      const result = await tx.execute(sql`SELECT count(*)::int AS n FROM alert_dirty_lines`);
      return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
    },

    /** What the evaluation needs of each line, in one statement for the whole batch. */
    async lineFacts(lines: readonly string[], today: string, tx: Db): Promise<LineFacts[]> {
      if (lines.length === 0) return [];
      const result = await tx.execute(sql`
        WITH wanted AS (SELECT unnest(${sql.param([...lines])}::text[]) AS line)
        SELECT w.line,
               (l.service_line_number IS NOT NULL AND l.removed_at IS NULL) AS live,
               holder.customer_id::text AS customer_id,
               c.cycle_start::text AS cycle_start, c.cycle_end::text AS cycle_end,
               c.priority_gb::float8 AS used_gb,
               coalesce(c.usage_limit_gb, cap.cap_gb)::float8 AS cap_gb,
               p.iso_currency_code AS currency,
               tel.terminals
        FROM wanted w
        LEFT JOIN service_lines l ON l.service_line_number = w.line
        LEFT JOIN provider_products p ON p.product_reference_id = l.product_reference_id AND p.account_id = l.account_id
        LEFT JOIN LATERAL (
          SELECT t.assigned_customer_id AS customer_id FROM terminals t
          WHERE t.service_line_number = w.line AND t.removed_at IS NULL AND t.assigned_customer_id IS NOT NULL
          ORDER BY t.user_terminal_id LIMIT 1) holder ON true
        LEFT JOIN LATERAL (
          SELECT CASE upper(coalesce(t.data_cap_unit, 'GB')) WHEN 'GB' THEN t.data_cap_amount WHEN 'TB' THEN t.data_cap_amount * 1000
                      WHEN 'MB' THEN t.data_cap_amount / 1000 END AS cap_gb
          FROM terminals t WHERE t.service_line_number = w.line AND t.removed_at IS NULL AND t.data_cap_amount IS NOT NULL
          ORDER BY t.user_terminal_id LIMIT 1) cap ON true
        LEFT JOIN LATERAL (
          SELECT * FROM service_line_usage_cycles u
          WHERE u.service_line_number = w.line AND u.cycle_start <= ${today}::date AND u.cycle_end >= ${today}::date
          ORDER BY u.cycle_start DESC LIMIT 1) c ON true
        LEFT JOIN LATERAL (
          SELECT coalesce(json_agg(json_build_object(
                   'id', t.user_terminal_id,
                   'reported', (extract(epoch FROM tm.reported_at) * 1000)::float8,
                   'synced', (extract(epoch FROM tm.synced_at) * 1000)::float8) ORDER BY t.user_terminal_id), '[]'::json) AS terminals
          FROM terminals t LEFT JOIN terminal_telemetry tm ON tm.user_terminal_id = t.user_terminal_id
          WHERE t.service_line_number = w.line AND t.removed_at IS NULL) tel ON true`);
      return rowsOf<Record<string, unknown>>(result).map((r) => {
        const terminals = (typeof r.terminals === 'string' ? JSON.parse(r.terminals) : r.terminals) as { id: string; reported: number | null; synced: number | null }[];
        return {
          serviceLineNumber: String(r.line),
          live: r.live === true || r.live === 't',
          customerId: (r.customer_id as string | null) ?? null,
          cycleStart: (r.cycle_start as string | null) ?? null,
          cycleEnd: (r.cycle_end as string | null) ?? null,
          usedGB: num(r.used_gb),
          capGB: num(r.cap_gb),
          currency: (r.currency as string | null) ?? null,
          terminals: terminals.map((t) => ({ userTerminalId: t.id, reportedAt: msToDate(t.reported), syncedAt: msToDate(t.synced) })),
        };
      });
    },

    /** The overrides of the line rules for these lines and customers. */
    async overridesFor(lines: readonly string[], customerIds: readonly string[], tx: Db): Promise<AlertOverrideRow[]> {
      const keys = [...lines, ...customerIds];
      if (keys.length === 0) return [];
      const result = await tx.execute(sql`
        SELECT kind, scope, scope_key, enabled, usage_levels, threshold::float8 AS threshold, actions FROM alert_overrides
        WHERE (scope = 'line' AND scope_key = ANY(${sql.param([...lines])}::text[]))
           OR (scope = 'customer' AND scope_key = ANY(${sql.param([...customerIds])}::text[]))`);
      return rowsOf<Record<string, unknown>>(result).map(toOverride);
    },

    /** Unresolved line and terminal alerts of these lines. */
    async unresolvedOfLines(lines: readonly string[], tx: Db): Promise<UnresolvedAlert[]> {
      if (lines.length === 0) return [];
      // A join, not `= ANY($1)`: PGlite's kept statements fall back to a generic plan after five
      // runs, which searches the array linearly for every alert (3 s a batch at 55,000 alerts).
      const result = await tx.execute(sql`
        SELECT a.id::text AS id, a.kind, a.level, a.target_key, a.period_key, a.customer_id::text AS customer_id,
               a.service_line_number, a.user_terminal_id
        FROM alerts a JOIN unnest(${sql.param([...lines])}::text[]) AS w(line) ON a.service_line_number = w.line
        WHERE a.status <> 'resolved' AND a.kind IN ('usage', 'overage_forecast', 'offline')`);
      return rowsOf<Record<string, unknown>>(result).map(toUnresolved);
    },

    async unresolvedOfKind(kind: AlertKind, tx: Db): Promise<UnresolvedAlert[]> {
      const result = await tx.execute(sql`SELECT ${UNRESOLVED_COLUMNS} FROM alerts WHERE status <> 'resolved' AND kind = ${kind}`);
      return rowsOf<Record<string, unknown>>(result).map(toUnresolved);
    },

    /**
     * Unresolved usage and overage alerts of cycles that ended before `today`, resolved; lines
     * not marked since the month turned would otherwise keep last cycle's alerts open.
     */
    async resolveEndedCycles(today: string, at: Date, reason: string, tx: Db): Promise<string[]> {
      const result = await tx.execute(sql`
        UPDATE alerts SET status = 'resolved', resolved_at = ${at.toISOString()}::timestamptz, resolved_reason = ${reason}
        WHERE status <> 'resolved' AND kind IN ('usage', 'overage_forecast') AND (figures ->> 'cycleEnd') < ${today}
        RETURNING id::text AS id`);
      return rowsOf<{ id: string }>(result).map((r) => r.id);
    },

    /** Inserts those not already raised (the unique index decides); answers the new ones. */
    async insertAlerts(rows: readonly NewAlert[], at: Date, tx: Db): Promise<InsertedAlert[]> {
      if (rows.length === 0) return [];
      const result = await tx.execute(sql`
        INSERT INTO alerts (kind, level, severity, target_type, target_key, period_key, service_line_number, user_terminal_id,
                            customer_id, message, figures, opened_at)
        SELECT u.kind, u.level::int, u.severity, u.target_type, u.target_key, u.period_key, u.line, u.terminal,
               u.customer::uuid, u.message, u.figures::jsonb, ${at.toISOString()}::timestamptz
        FROM unnest(${column(rows, (r) => r.kind)}::text[], ${column(rows, (r) => r.level)}::text[], ${column(rows, (r) => r.severity)}::text[],
                    ${column(rows, (r) => r.targetType)}::text[], ${column(rows, (r) => r.targetKey)}::text[], ${column(rows, (r) => r.periodKey)}::text[],
                    ${column(rows, (r) => r.serviceLineNumber)}::text[], ${column(rows, (r) => r.userTerminalId)}::text[],
                    ${column(rows, (r) => r.customerId)}::text[], ${column(rows, (r) => r.message)}::text[],
                    ${column(rows, (r) => JSON.stringify(r.figures))}::text[])
          AS u(kind, level, severity, target_type, target_key, period_key, line, terminal, customer, message, figures)
        ON CONFLICT DO NOTHING
        RETURNING id::text AS id, kind, level, target_key, period_key, customer_id::text AS customer_id`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        id: String(r.id),
        kind: r.kind as AlertKind,
        level: Number(r.level),
        targetKey: String(r.target_key),
        periodKey: String(r.period_key),
        customerId: (r.customer_id as string | null) ?? null,
      }));
    },

    /** Resolves each id with its reason; answers the ids that were still unresolved. */
    async resolve(items: readonly { id: string; reason: string }[], at: Date, tx: Db): Promise<string[]> {
      if (items.length === 0) return [];
      const result = await tx.execute(sql`
        UPDATE alerts a SET status = 'resolved', resolved_at = ${at.toISOString()}::timestamptz, resolved_reason = u.reason
        FROM unnest(${column(items, (r) => r.id)}::uuid[], ${column(items, (r) => r.reason)}::text[]) AS u(id, reason)
        WHERE a.id = u.id AND a.status <> 'resolved'
        RETURNING a.id::text AS id`);
      return rowsOf<{ id: string }>(result).map((r) => r.id);
    },

    /** The latest runs of each kind, newest first (enough to find the start of a failing streak). */
    async recentSyncRuns(kind: 'inventory' | 'usage', limit: number, tx: Db): Promise<{ id: string; status: string; message: string | null; finishedMs: number | null }[]> {
      const result = await tx.execute(sql`
        SELECT id::text AS id, status, message, (extract(epoch FROM coalesce(finished_at, queued_at)) * 1000)::float8 AS finished_ms
        FROM sync_runs WHERE kind = ${kind} AND status IN ('succeeded', 'failed')
        ORDER BY coalesce(finished_at, queued_at) DESC, id DESC LIMIT ${limit}`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({ id: String(r.id), status: String(r.status), message: (r.message as string | null) ?? null, finishedMs: num(r.finished_ms) }));
    },

    /** Live customers whose account expires after `now` and within `maxDays`. */
    async expiringCustomers(now: Date, maxDays: number, tx: Db): Promise<{ id: string; name: string; company: string; expiresAt: Date }[]> {
      const result = await tx.execute(sql`
        SELECT id::text AS id, name, company, (extract(epoch FROM account_expires_at) * 1000)::float8 AS expires_ms FROM customers
        WHERE deleted_at IS NULL AND account_expires_at > ${now.toISOString()}::timestamptz
          AND account_expires_at <= ${now.toISOString()}::timestamptz + make_interval(days => ${maxDays})`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({ id: String(r.id), name: String(r.name), company: String(r.company ?? ''), expiresAt: new Date(Number(r.expires_ms)) }));
    },

    async customerOverrides(kind: AlertKind, tx: Db): Promise<Map<string, { enabled: boolean; threshold: number | null }>> {
      const rows = await tx
        .select({ key: alertOverrides.scopeKey, enabled: alertOverrides.enabled, threshold: alertOverrides.threshold })
        .from(alertOverrides)
        .where(and(eq(alertOverrides.kind, kind), eq(alertOverrides.scope, 'customer')));
      return new Map(rows.map((r) => [r.key, { enabled: r.enabled, threshold: r.threshold }]));
    },

    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },
  };
}

/** A jsonb list of actions as a raw query answers it (a string on some drivers); null stays null. */
function parseActions(value: unknown): RuleActionWire[] | null {
  if (value === null || value === undefined) return null;
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  return Array.isArray(parsed) ? (parsed as RuleActionWire[]) : null;
}

/** An override as a raw query answers it (`updated_ms` when the query reads it). */
function toOverride(r: Record<string, unknown>): AlertOverrideRow {
  return {
    kind: r.kind as AlertKind,
    scope: r.scope as 'customer' | 'line',
    scopeKey: String(r.scope_key),
    enabled: r.enabled === true || r.enabled === 't',
    usageLevels: parseIntArray(r.usage_levels),
    threshold: num(r.threshold),
    updatedAt: msToDate(r.updated_ms) ?? new Date(0),
    updatedBy: null,
    actions: parseActions(r.actions),
  };
}

/** PGlite hands int[] back as an array, node-postgres too; a text '{80,90}' is read as well. */
function parseIntArray(value: unknown): number[] | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map(Number);
  const s = String(value).replace(/[{}]/g, '').trim();
  return s === '' ? [] : s.split(',').map(Number);
}
