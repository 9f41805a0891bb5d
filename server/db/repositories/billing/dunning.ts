// Dunning (0028): the reseller's policy, the overdue statements it works through, and each step
// taken, once per statement and step (billing_dunning_steps_once_uq).
import { sql } from 'drizzle-orm';
import type { DunningPolicy, DunningStep, DunningStepWire } from '../../../../src/domain/ledger';
import type { Db } from '../../client';
import { rowsOf } from '../results';
import { int, isoText, str, PAID_ON_STATEMENT, bool } from '../values';

export type DunningRepository = ReturnType<typeof createDunningRepository>;

export interface OverdueStatementRow {
  statementId: string;
  number: string;
  customerId: string;
  customerName: string;
  customerEmail: string;
  currency: string;
  dueOn: string;
  openMinor: number;
  promiseToPayUntil: string | null;
  blocked: boolean;
  taken: DunningStep[];
}

export function createDunningRepository(db: Db) {
  return {
    async policy(tx: Db = db): Promise<DunningPolicy & { updatedAt: string }> {
      const [row] = rowsOf<Record<string, unknown>>(
        await tx.execute(sql`SELECT enabled, reminder_days, final_notice_days, block_days, propose_line_ends, ${isoText(sql`updated_at`)} AS updated_at FROM billing_dunning_policy`),
      );
      const days = row?.reminder_days;
      const reminderDays = Array.isArray(days) ? days.map(Number) : typeof days === 'string' ? days.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number) : [];
      return {
        enabled: bool(row?.enabled),
        reminderDays,
        finalNoticeDays: row?.final_notice_days === null || row?.final_notice_days === undefined ? null : int(row.final_notice_days),
        blockDays: row?.block_days === null || row?.block_days === undefined ? null : int(row.block_days),
        proposeLineEnds: bool(row?.propose_line_ends),
        updatedAt: String(row?.updated_at ?? ''),
      };
    },

    async savePolicy(policy: DunningPolicy, by: string | null, at: Date, tx: Db = db): Promise<void> {
      await tx.execute(sql`
        UPDATE billing_dunning_policy SET enabled = ${policy.enabled}, reminder_days = ${sql.param(policy.reminderDays.map(String))}::int[],
          final_notice_days = ${policy.finalNoticeDays}, block_days = ${policy.blockDays}, propose_line_ends = ${policy.proposeLineEnds},
          updated_at = ${at.toISOString()}::timestamptz, updated_by = ${by}::uuid`);
    },

    /** Closed statements with something unpaid whose due date is before `today`, oldest first, with the steps each has taken. */
    async overdue(today: string, tx: Db = db): Promise<OverdueStatementRow[]> {
      const result = await tx.execute(sql`
        SELECT s.id::text AS id, s.number, s.customer_id::text AS customer_id, c.name, c.email, s.currency, s.due_on::text AS due_on,
               (s.total_minor - ${PAID_ON_STATEMENT})::text AS open,
               c.promise_to_pay_until::text AS promise, c.blocked_enabled AS blocked,
               coalesce((SELECT array_agg(d.step ORDER BY d.id) FROM billing_dunning_steps d WHERE d.statement_id = s.id), '{}') AS taken
        FROM billing_statements s JOIN customers c ON c.id = s.customer_id AND c.deleted_at IS NULL
        WHERE s.status = 'closed' AND s.total_minor > 0 AND s.due_on < ${today}::date
          AND s.total_minor > ${PAID_ON_STATEMENT}
        ORDER BY s.due_on, s.number`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        statementId: String(r.id),
        number: String(r.number),
        customerId: String(r.customer_id),
        customerName: String(r.name),
        customerEmail: String(r.email),
        currency: String(r.currency),
        dueOn: String(r.due_on),
        openMinor: int(r.open),
        promiseToPayUntil: str(r.promise),
        blocked: bool(r.blocked),
        taken: (Array.isArray(r.taken) ? r.taken : String(r.taken ?? '').replace(/[{}]/g, '').split(',').filter(Boolean)) as DunningStep[],
      }));
    },

    /** Claims a step: true for the one process that took it (a step is taken once per statement). */
    async take(step: { customerId: string; statementId: string; step: DunningStep | 'unblock'; daysOverdue: number; openMinor: number }, at: Date, tx: Db = db): Promise<boolean> {
      const result = await tx.execute(sql`
        INSERT INTO billing_dunning_steps (customer_id, statement_id, step, days_overdue, open_minor, taken_at)
        VALUES (${step.customerId}::uuid, ${step.statementId}::uuid, ${step.step}, ${step.daysOverdue}, ${step.openMinor}, ${at.toISOString()}::timestamptz)
        ON CONFLICT (statement_id, step) DO NOTHING RETURNING id`);
      return rowsOf(result).length > 0;
    },

    /** Customers dunning blocked who have nothing overdue on `today` any more, with the statement whose block it was. */
    async settledBlocked(today: string, customerId: string | null, tx: Db = db): Promise<{ customerId: string; statementId: string }[]> {
      const result = await tx.execute(sql`
        SELECT c.id::text AS customer_id,
               (SELECT d.statement_id::text FROM billing_dunning_steps d WHERE d.customer_id = c.id AND d.step = 'block'
                  AND NOT EXISTS (SELECT 1 FROM billing_dunning_steps u WHERE u.statement_id = d.statement_id AND u.step = 'unblock')
                ORDER BY d.id DESC LIMIT 1) AS statement_id
        FROM customers c
        WHERE c.blocked_for_non_payment AND c.blocked_enabled AND (${customerId}::uuid IS NULL OR c.id = ${customerId}::uuid)
          AND NOT EXISTS (
            SELECT 1 FROM billing_statements s WHERE s.customer_id = c.id AND s.status = 'closed' AND s.total_minor > 0 AND s.due_on < ${today}::date
              AND s.total_minor > ${PAID_ON_STATEMENT})`);
      return rowsOf<{ customer_id: string; statement_id: string | null }>(result)
        .filter((r) => r.statement_id !== null)
        .map((r) => ({ customerId: r.customer_id, statementId: r.statement_id! }));
    },

    /** Marks the customer's block as dunning's own (after the block itself is written). */
    async markBlockedForNonPayment(customerId: string, tx: Db = db): Promise<void> {
      await tx.execute(sql`UPDATE customers SET blocked_for_non_payment = true WHERE id = ${customerId}::uuid AND blocked_enabled`);
    },

    async stepsOf(customerId: string, tx: Db = db): Promise<DunningStepWire[]> {
      const result = await tx.execute(sql`
        SELECT d.step, d.statement_id::text AS statement_id, s.number, ${isoText(sql`d.taken_at`)} AS taken_at
        FROM billing_dunning_steps d JOIN billing_statements s ON s.id = d.statement_id
        WHERE d.customer_id = ${customerId}::uuid ORDER BY d.id DESC LIMIT 50`);
      return rowsOf<Record<string, unknown>>(result).map((r) => ({
        step: r.step as DunningStepWire['step'],
        statementId: str(r.statement_id),
        statementNumber: str(r.number),
        takenAt: String(r.taken_at),
      }));
    },
  };
}
