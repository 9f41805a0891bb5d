// A customer's own terminals as the customer area reads them (issue 19): each live terminal
// assigned to the customer with its line, plan, latest telemetry and the cycle containing a day,
// in one statement. Ownership is the inventory's assignment (`assigned_customer_id`) of a live
// terminal; a terminal that is not the customer's is simply not found.
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
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
    .leftJoin(p, eq(p.productReferenceId, sql`coalesce(${serviceLines.productReferenceId}, ${t.productReferenceId})`))
    .leftJoin(tm, eq(tm.userTerminalId, t.userTerminalId))
    .leftJoinLateral(cycle, sql`true`)
    .where(and(eq(t.assignedCustomerId, customerId), isNull(t.removedAt), where))
    .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
}

export type OwnTerminalRow = Awaited<ReturnType<typeof ownQuery>>[number];

export type MyTerminalsRepository = ReturnType<typeof createMyTerminalsRepository>;

export function createMyTerminalsRepository(db: Db) {
  return {
    /** The customer's live terminals, by service line, with the cycle containing `today`. */
    async ofCustomer(customerId: string, today: IsoDay, tx: Db = db): Promise<OwnTerminalRow[]> {
      return ownQuery(tx, customerId, today, undefined);
    },

    /** One terminal when it is the customer's live terminal; null otherwise (another's, unassigned, unknown). */
    async ownedBy(customerId: string, userTerminalId: string, today: IsoDay, tx: Db = db): Promise<OwnTerminalRow | null> {
      const [row] = await ownQuery(tx, customerId, today, eq(t.userTerminalId, userTerminalId));
      return row ?? null;
    },
  };
}
