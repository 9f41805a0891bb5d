// The reboots customers asked for, kept to pace them: at most one per terminal per
// REBOOT_TERMINAL_INTERVAL_MINUTES and REBOOT_CUSTOMER_LIMIT_PER_HOUR per customer per hour.
//
// The check and the row that counts are one short transaction under an advisory lock per
// customer, so two requests at once cannot both pass the check. The provider call happens after
// that transaction, not inside it: on the embedded database every other request would wait
// behind a transaction held open for a provider round trip (up to its 15 s timeout). So the row
// is written as a reservation and taken back when the provider refuses; what stays is exactly the
// reboots the provider accepted.
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { terminalReboots } from '../schema';

/** First key of the pace's advisory lock (the others: 720150001, 720150010, 720150011); the second is the customer's hash. */
export const REBOOT_PACE_LOCK_CLASS = 720150015;

const r = terminalReboots;

export interface RebootHistory {
  /** The terminal's latest reboot, whoever asked. */
  terminalLast: Date | null;
  /** The customer's reboots since `since`. */
  customerRecent: Date[];
}

export type TerminalRebootsRepository = ReturnType<typeof createTerminalRebootsRepository>;

export function createTerminalRebootsRepository(db: Db) {
  async function history(userTerminalId: string, customerId: string, since: Date, tx: Db): Promise<RebootHistory> {
    const [last] = await tx.select({ at: r.requestedAt }).from(r).where(eq(r.userTerminalId, userTerminalId)).orderBy(desc(r.requestedAt)).limit(1);
    const recent = await tx
      .select({ at: r.requestedAt })
      .from(r)
      .where(and(eq(r.customerId, customerId), gt(r.requestedAt, since)))
      .orderBy(desc(r.requestedAt));
    return { terminalLast: last?.at ?? null, customerRecent: recent.map((row) => row.at) };
  }

  return {
    /**
     * Under the customer's pace lock: reads the history, lets `decide` refuse (it throws), and
     * writes the reservation; answers its id.
     */
    async reserve(input: { userTerminalId: string; customerId: string; at: Date; since: Date }, decide: (history: RebootHistory) => void): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${REBOOT_PACE_LOCK_CLASS}, hashtext(${input.customerId}))`);
        decide(await history(input.userTerminalId, input.customerId, input.since, tx));
        const [row] = await tx.insert(r).values({ userTerminalId: input.userTerminalId, customerId: input.customerId, requestedAt: input.at }).returning({ id: r.id });
        return row!.id;
      });
    },

    /** Takes back a reservation the provider refused. */
    async release(id: number, tx: Db = db): Promise<void> {
      await tx.delete(r).where(eq(r.id, id));
    },
  };
}
