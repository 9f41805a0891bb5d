// A service line as the settings and lifecycle actions need it: the stored line, its live
// terminals and who holds them; and the stored line replaced by the provider's fresh record once
// an action went through (the same row the inventory sync writes).
import { and, asc, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../client';
import { customers, serviceLineUsageCycles, serviceLines, terminals } from '../schema';

export interface LineContext {
  serviceLineNumber: string;
  /** The provider account the line lives under. */
  accountId: number;
  accountNumber: string;
  active: boolean;
  terminals: { deviceId: string; kitSerialNumber: string; nickname: string | null }[];
  customer: { uuid: string; name: string } | null;
}

export type ServiceLinesRepository = ReturnType<typeof createServiceLinesRepository>;

export function createServiceLinesRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The provider account that holds the line (removed lines too), or null when it was never stored. */
    async accountOf(serviceLineNumber: string, tx: Db = db): Promise<number | null> {
      const [row] = await tx.select({ accountId: serviceLines.accountId }).from(serviceLines).where(eq(serviceLines.serviceLineNumber, serviceLineNumber));
      return row?.accountId ?? null;
    },

    /** The live terminal on each of these lines (the first by id where a line holds several). */
    async terminalsOnLines(serviceLineNumbers: readonly string[], tx: Db = db): Promise<Map<string, string>> {
      const found = new Map<string, string>();
      if (serviceLineNumbers.length === 0) return found;
      const rows = await tx
        .select({ serviceLineNumber: terminals.serviceLineNumber, userTerminalId: terminals.userTerminalId })
        .from(terminals)
        .where(and(inArray(terminals.serviceLineNumber, [...new Set(serviceLineNumbers)]), isNull(terminals.removedAt)))
        .orderBy(asc(terminals.userTerminalId));
      for (const row of rows) if (row.serviceLineNumber && !found.has(row.serviceLineNumber)) found.set(row.serviceLineNumber, row.userTerminalId);
      return found;
    },

    /** The live, active lines the customer holds a live terminal on, by number: what blocking them may end. */
    async activeLinesOfCustomer(customerId: string, tx: Db = db): Promise<string[]> {
      const rows = await tx
        .selectDistinct({ serviceLineNumber: serviceLines.serviceLineNumber })
        .from(terminals)
        .innerJoin(serviceLines, eq(serviceLines.serviceLineNumber, terminals.serviceLineNumber))
        .where(and(eq(terminals.assignedCustomerId, customerId), isNull(terminals.removedAt), isNull(serviceLines.removedAt), eq(serviceLines.active, true)))
        .orderBy(asc(serviceLines.serviceLineNumber));
      return rows.map((row) => row.serviceLineNumber);
    },

    /** The last day of the line's latest billing cycle the usage sync read, or null before its first. */
    async currentCycleEnd(serviceLineNumber: string, tx: Db = db): Promise<string | null> {
      const [row] = await tx
        .select({ end: serviceLineUsageCycles.cycleEnd })
        .from(serviceLineUsageCycles)
        .where(eq(serviceLineUsageCycles.serviceLineNumber, serviceLineNumber))
        .orderBy(desc(serviceLineUsageCycles.cycleStart))
        .limit(1);
      return row?.end ?? null;
    },

    /** The live line with its live terminals (by id) and the customer of the first one held; null when unknown or removed. */
    async context(serviceLineNumber: string, tx: Db = db): Promise<LineContext | null> {
      const [line] = await tx
        .select({ serviceLineNumber: serviceLines.serviceLineNumber, accountId: serviceLines.accountId, accountNumber: serviceLines.accountNumber, active: serviceLines.active })
        .from(serviceLines)
        .where(and(eq(serviceLines.serviceLineNumber, serviceLineNumber), isNull(serviceLines.removedAt)));
      if (!line) return null;
      const rows = await tx
        .select({
          deviceId: terminals.userTerminalId,
          kitSerialNumber: terminals.kitSerialNumber,
          nickname: terminals.nickname,
          customerUuid: customers.id,
          customerName: customers.name,
        })
        .from(terminals)
        .leftJoin(customers, eq(customers.id, terminals.assignedCustomerId))
        .where(and(eq(terminals.serviceLineNumber, serviceLineNumber), isNull(terminals.removedAt)))
        .orderBy(asc(terminals.userTerminalId));
      const held = rows.find((row) => row.customerUuid !== null);
      return {
        ...line,
        terminals: rows.map(({ deviceId, kitSerialNumber, nickname }) => ({ deviceId, kitSerialNumber, nickname })),
        customer: held ? { uuid: held.customerUuid!, name: held.customerName! } : null,
      };
    },
  };
}
