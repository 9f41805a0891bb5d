// A customer's own terminals as the customer area reads them: each live terminal
// assigned to the customer with its line, plan, latest telemetry and the cycle containing a day,
// in one statement. Ownership is the inventory's assignment (`assigned_customer_id`) of a live
// terminal; a terminal that is not the customer's is simply not found.
import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { providerProducts, serviceLines, terminals, terminalTelemetry } from '../schema';
import { cycleContaining } from './subscriptions';
import type { IsoDay } from './terminals';

const t = terminals;
const p = providerProducts;
const tm = terminalTelemetry;

function ownQuery(tx: Db, customerId: string, today: IsoDay, where: SQL | undefined) {
  const cycle = cycleContaining(tx, today);
  return tx
    .select({
      userTerminalId: t.userTerminalId,
      kitSerialNumber: t.kitSerialNumber,
      dishSerialNumber: t.dishSerialNumber,
      serviceLineNumber: t.serviceLineNumber,
      terminalNickname: t.nickname,
      assignedAt: t.assignedAt,
      active: t.active,
      plan: t.plan,
      dataCapAmount: t.dataCapAmount,
      dataCapUnit: t.dataCapUnit,
      lineNickname: serviceLines.nickname,
      lineActive: serviceLines.active,
      lineEndDate: serviceLines.endDate,
      productName: p.name,
      currency: p.isoCurrencyCode,
      reportedAt: tm.reportedAt,
      telemetryReadAt: tm.syncedAt,
      signalQuality: tm.signalQuality,
      uptimeSeconds: tm.uptimeSeconds,
      alerts: tm.alerts,
      cycleStart: cycle.cycleStart,
      cycleEnd: cycle.cycleEnd,
      priorityGb: cycle.priorityGb,
      standardGb: cycle.standardGb,
      usageLimitGb: cycle.usageLimitGb,
    })
    .from(t)
    .leftJoin(serviceLines, eq(serviceLines.serviceLineNumber, t.serviceLineNumber))
    // The line's product is the provider's word; the terminal's copy is denormalised from it.
    // A product is its account's: two accounts may list the same reference at their own prices.
    .leftJoin(p, and(eq(p.productReferenceId, sql`coalesce(${serviceLines.productReferenceId}, ${t.productReferenceId})`), eq(p.accountId, t.accountId)))
    .leftJoin(tm, eq(tm.userTerminalId, t.userTerminalId))
    .leftJoinLateral(cycle, sql`true`)
    .where(and(eq(t.assignedCustomerId, customerId), isNull(t.removedAt), where))
    .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
}

export type OwnTerminalRow = Awaited<ReturnType<typeof ownQuery>>[number];

/**
 * The lines a customer organisation's member is limited to (null: every line of the
 * organisation), as a condition on a table's service-line column. A member limited to lines sees
 * nothing off them: not another line's terminal, nor a terminal on no line.
 */
export function onLines(column: Parameters<typeof inArray>[0], lines: readonly string[] | null): SQL | undefined {
  if (lines === null) return undefined;
  return lines.length === 0 ? sql`false` : inArray(column, [...lines]);
}

export type MyTerminalsRepository = ReturnType<typeof createMyTerminalsRepository>;

export function createMyTerminalsRepository(db: Db) {
  return {
    /** The customer's live terminals (on `lines`, when given), by service line, with the cycle containing `today`. */
    async ofCustomer(customerId: string, today: IsoDay, tx: Db = db, lines: readonly string[] | null = null): Promise<OwnTerminalRow[]> {
      return ownQuery(tx, customerId, today, onLines(t.serviceLineNumber, lines));
    },

    /** One terminal when it is the customer's live terminal (on `lines`, when given); null otherwise (another's, unassigned, unknown). */
    async ownedBy(customerId: string, userTerminalId: string, today: IsoDay, tx: Db = db, lines: readonly string[] | null = null): Promise<OwnTerminalRow | null> {
      const [row] = await ownQuery(tx, customerId, today, and(eq(t.userTerminalId, userTerminalId), onLines(t.serviceLineNumber, lines)));
      return row ?? null;
    },
  };
}
