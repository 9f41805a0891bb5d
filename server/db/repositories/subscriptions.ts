// Subscriptions: every live terminal on a service line with its line's state, product, holder and
// the cycle containing a given day, in one statement; the products on offer; and the local side
// of a plan change the provider accepted (line, terminals and current cycle in one transaction).
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { customers, providerProducts, serviceLines, serviceLineUsageCycles, terminals } from '../schema';
import type { IsoDay } from './terminals';

const t = terminals;
const u = serviceLineUsageCycles;
const p = providerProducts;

/**
 * Live terminals on a line with the cycle containing `today`: the lateral subquery reads at most
 * one cycle per terminal through the (service_line_number, cycle_start) primary key, and the
 * line, product and holder are key joins.
 */
function subscriptionQuery(tx: Db, today: IsoDay, where: SQL | undefined) {
  const cycle = tx
    .select({ cycleStart: u.cycleStart, cycleEnd: u.cycleEnd, priorityGb: u.priorityGb, usageLimitGb: u.usageLimitGb })
    .from(u)
    .where(and(eq(u.serviceLineNumber, t.serviceLineNumber), lte(u.cycleStart, today), gte(u.cycleEnd, today)))
    .orderBy(desc(u.cycleStart))
    .limit(1)
    .as('cycle');
  return tx
    .select({
      userTerminalId: t.userTerminalId,
      serviceLineNumber: sql<string>`${t.serviceLineNumber}`,
      location: t.location,
      terminalType: t.terminalType,
      active: t.active,
      lineActive: serviceLines.active,
      // The line's product is the provider's word; the terminal's copy is denormalised from it.
      productReferenceId: sql<string | null>`coalesce(${serviceLines.productReferenceId}, ${t.productReferenceId})`,
      plan: t.plan,
      dataCapAmount: t.dataCapAmount,
      dataCapUnit: t.dataCapUnit,
      currency: p.isoCurrencyCode,
      customerName: customers.name,
      cycleStart: cycle.cycleStart,
      cycleEnd: cycle.cycleEnd,
      priorityGb: cycle.priorityGb,
      usageLimitGb: cycle.usageLimitGb,
    })
    .from(t)
    .leftJoin(serviceLines, eq(serviceLines.serviceLineNumber, t.serviceLineNumber))
    .leftJoin(p, eq(p.productReferenceId, sql`coalesce(${serviceLines.productReferenceId}, ${t.productReferenceId})`))
    .leftJoin(customers, eq(customers.id, t.assignedCustomerId))
    .leftJoinLateral(cycle, sql`true`)
    .where(and(isNull(t.removedAt), isNotNull(t.serviceLineNumber), where))
    .orderBy(asc(t.serviceLineNumber), asc(t.userTerminalId));
}

export type SubscriptionRow = Awaited<ReturnType<typeof subscriptionQuery>>[number];

const productColumns = {
  productReferenceId: p.productReferenceId,
  name: p.name,
  price: p.price,
  isoCurrencyCode: p.isoCurrencyCode,
  raw: p.raw,
};

export interface StoredProduct {
  productReferenceId: string;
  name: string;
  price: number | null;
  isoCurrencyCode: string | null;
  raw: unknown;
}

export interface PlanChange {
  serviceLineNumber: string;
  product: StoredProduct;
  monthlyDataGB: number;
  today: IsoDay;
  at: Date;
}

export type SubscriptionsRepository = ReturnType<typeof createSubscriptionsRepository>;

export function createSubscriptionsRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** Every live terminal on a service line, by line then terminal id. */
    async all(today: IsoDay, tx: Db = db): Promise<SubscriptionRow[]> {
      return subscriptionQuery(tx, today, undefined);
    },

    /** The live terminals on one line, by terminal id (none: no subscription there). */
    async onLine(serviceLineNumber: string, today: IsoDay, tx: Db = db): Promise<SubscriptionRow[]> {
      return subscriptionQuery(tx, today, eq(t.serviceLineNumber, serviceLineNumber));
    },

    /** The products the provider still lists, cheapest first. */
    async liveProducts(tx: Db = db): Promise<StoredProduct[]> {
      return tx.select(productColumns).from(p).where(isNull(p.removedAt)).orderBy(sql`${p.price} ASC NULLS LAST`, asc(p.name));
    },

    async findLiveProduct(productReferenceId: string, tx: Db = db): Promise<StoredProduct | null> {
      const [row] = await tx
        .select(productColumns)
        .from(p)
        .where(and(eq(p.productReferenceId, productReferenceId), isNull(p.removedAt)));
      return row ?? null;
    },

    /**
     * The provider accepted the change: the line's product, its live terminals' plan, product and
     * data cap, and the current cycle's limit (until the next usage sync reads the provider's).
     */
    async applyPlanChange(change: PlanChange, tx: Db): Promise<void> {
      const { serviceLineNumber: line, product, monthlyDataGB, today, at } = change;
      await tx.update(serviceLines).set({ productReferenceId: product.productReferenceId }).where(eq(serviceLines.serviceLineNumber, line));
      await tx
        .update(t)
        .set({
          plan: product.name,
          productReferenceId: product.productReferenceId,
          dataCapAmount: monthlyDataGB,
          dataCapUnit: 'GB',
          dataCapUpdatedAt: at,
          updatedAt: at,
        })
        .where(and(eq(t.serviceLineNumber, line), isNull(t.removedAt)));
      await tx
        .update(u)
        .set({ usageLimitGb: monthlyDataGB })
        .where(and(eq(u.serviceLineNumber, line), lte(u.cycleStart, today), gte(u.cycleEnd, today)));
    },
  };
}
