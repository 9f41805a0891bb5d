// Billing: the price list with its history, each customer's own prices, and the
// corrections carried to a customer's next statement. Price rows are never changed (a new price
// is a new row; one not yet in effect may be withdrawn); a customer's price is ended, never
// deleted, because closed statements were worked out from it. The statements job and the
// reconciliation board read the list and the customers' prices through listEntries and
// customerEntries, and write their fixes through insertPrice, endCustomerPrice and
// insertAdjustment.
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CustomerPriceEntry, PriceEntry } from '../../../../src/domain/billing';
import type { Db } from '../../client';
import {
  billingAdjustments,
  billingCustomerPrices,
  billingPrices,
  billingStatements,
  customers,
  providerProducts,
  serviceLines,
  terminals,
  type BillingAdjustmentRow,
  type BillingCustomerPriceRow,
  type BillingPriceRow,
} from '../../schema';

export type BillingPricesRepository = ReturnType<typeof createBillingPricesRepository>;

/** A provider product as the price list shows it (its price is what the provider charges). */
export interface ProductRow {
  productReferenceId: string;
  name: string;
  price: number | null;
  isoCurrencyCode: string | null;
}

export interface PriceRow extends BillingPriceRow {
  productName: string | null;
}

export interface CustomerPriceRow extends BillingCustomerPriceRow {
  customerName: string;
}

export interface AdjustmentRow extends BillingAdjustmentRow {
  customerName: string;
  appliedStatementNumber: string | null;
}

/** A customer's own prices as the statements read them, with the row's id (for "end the customer's price"). */
export type CustomerPriceEntryRow = CustomerPriceEntry & { id: string };

export interface NewPrice {
  productReferenceId: string;
  currency: string;
  monthlyMinor: number;
  overagePerGbMinor: number;
  topUpMinor: number;
  /** 'YYYY-MM-DD' */
  effectiveFrom: string;
  note?: string | null;
  createdBy: string | null;
}

export interface NewCustomerPrice {
  customerId: string;
  productReferenceId: string | null;
  effectiveFrom: string;
  effectiveUntil: string | null;
  discountBp: number | null;
  monthlyMinor: number | null;
  overagePerGbMinor: number | null;
  topUpMinor: number | null;
  note: string | null;
  createdBy: string | null;
}

export interface NewAdjustment {
  customerId: string;
  currency: string;
  /** Negative for a credit, positive for a charge; never 0. */
  amountMinor: number;
  reason: string;
  source: 'manual' | 'reconciliation';
  againstStatementId?: string | null;
  createdBy: string | null;
}

export type AdjustmentStatus = 'pending' | 'applied' | 'all';

const toEntry = (r: BillingPriceRow): PriceEntry => ({
  productReferenceId: r.productReferenceId,
  currency: r.currency,
  monthlyMinor: r.monthlyMinor,
  overagePerGbMinor: r.overagePerGbMinor,
  topUpMinor: r.topUpMinor,
  effectiveFrom: r.effectiveFrom,
});

const toCustomerEntry = (r: BillingCustomerPriceRow): CustomerPriceEntryRow => ({
  id: r.id,
  productReferenceId: r.productReferenceId,
  effectiveFrom: r.effectiveFrom,
  effectiveUntil: r.effectiveUntil,
  discountBp: r.discountBp,
  monthlyMinor: r.monthlyMinor,
  overagePerGbMinor: r.overagePerGbMinor,
  topUpMinor: r.topUpMinor,
});

export function createBillingPricesRepository(db: Db) {
  const p = billingPrices;
  const cp = billingCustomerPrices;
  const adj = billingAdjustments;
  const applied = alias(billingStatements, 'applied_statement');

  // A product's name, once: two accounts may list the same reference (the price list is the
  // reseller's, by reference, whatever account a line is on). The first account's name wins.
  const productNames = db
    .selectDistinctOn([providerProducts.productReferenceId], { productReferenceId: providerProducts.productReferenceId, name: providerProducts.name })
    .from(providerProducts)
    .orderBy(providerProducts.productReferenceId, providerProducts.accountId)
    .as('product_names');
  const priceColumns = { price: p, productName: productNames.name };
  const toPriceRow = (r: { price: BillingPriceRow; productName: string | null }): PriceRow => ({ ...r.price, productName: r.productName });
  const customerPriceColumns = { row: cp, customerName: customers.name };
  const adjustmentColumns = { row: adj, customerName: customers.name, appliedStatementNumber: applied.number };

  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    // ---- Products ------------------------------------------------------------------------

    /** The provider's products still on offer, by name. */
    async products(tx: Db = db): Promise<ProductRow[]> {
      const rows = await tx
        .selectDistinctOn([providerProducts.productReferenceId], {
          productReferenceId: providerProducts.productReferenceId,
          name: providerProducts.name,
          price: providerProducts.price,
          isoCurrencyCode: providerProducts.isoCurrencyCode,
        })
        .from(providerProducts)
        .where(isNull(providerProducts.removedAt))
        .orderBy(providerProducts.productReferenceId, providerProducts.accountId);
      return rows.sort((a, b) => a.name.localeCompare(b.name) || a.productReferenceId.localeCompare(b.productReferenceId));
    },

    /** Whether the provider has (or had) the product: lines on a product since withdrawn are still billed. */
    async productExists(productReferenceId: string, tx: Db = db): Promise<boolean> {
      const rows = await tx.select({ id: providerProducts.productReferenceId }).from(providerProducts).where(eq(providerProducts.productReferenceId, productReferenceId));
      return rows.length > 0;
    },

    // ---- The price list ------------------------------------------------------------------

    /** The whole list, as the statements read it. */
    /** Whether the list has any row: until it has, nothing is billed. */
    async hasPrices(tx: Db = db): Promise<boolean> {
      const [row] = await tx.select({ id: p.id }).from(p).limit(1);
      return row !== undefined;
    },

    async listEntries(tx: Db = db): Promise<PriceEntry[]> {
      const rows = await tx.select().from(p).orderBy(asc(p.productReferenceId), asc(p.effectiveFrom));
      return rows.map(toEntry);
    },

    /** Every row with its product's name, newest first. */
    async prices(tx: Db = db): Promise<PriceRow[]> {
      const rows = await tx
        .select(priceColumns)
        .from(p)
        .leftJoin(productNames, eq(productNames.productReferenceId, p.productReferenceId))
        .orderBy(desc(p.effectiveFrom), desc(p.createdAt), asc(p.productReferenceId));
      return rows.map(toPriceRow);
    },

    async priceById(id: string, tx: Db = db, lock = false): Promise<PriceRow | null> {
      const query = tx
        .select(priceColumns)
        .from(p)
        .leftJoin(productNames, eq(productNames.productReferenceId, p.productReferenceId))
        .where(eq(p.id, id));
      const [row] = lock ? await query.for('update', { of: p }) : await query;
      return row ? toPriceRow(row) : null;
    },

    /** The currencies the list prices a product in (any date). */
    async productCurrencies(productReferenceId: string, tx: Db = db): Promise<string[]> {
      const rows = await tx.selectDistinct({ currency: p.currency }).from(p).where(eq(p.productReferenceId, productReferenceId)).orderBy(asc(p.currency));
      return rows.map((r) => r.currency);
    },

    /** Adds a row; null when the product already has a price from that date (nothing written). */
    async insertPrice(row: NewPrice, tx: Db = db): Promise<BillingPriceRow | null> {
      const [saved] = await tx
        .insert(p)
        .values({ ...row, note: row.note ?? null })
        .onConflictDoNothing({ target: [p.productReferenceId, p.effectiveFrom] })
        .returning();
      return saved ?? null;
    },

    async deletePrice(id: string, tx: Db = db): Promise<boolean> {
      const rows = await tx.delete(p).where(eq(p.id, id)).returning({ id: p.id });
      return rows.length > 0;
    },

    // ---- Customers' own prices -----------------------------------------------------------

    /** A customer's rows (or everyone's), newest first. */
    async customerPrices(customerId: string | null, tx: Db = db): Promise<CustomerPriceRow[]> {
      const rows = await tx
        .select(customerPriceColumns)
        .from(cp)
        .innerJoin(customers, eq(customers.id, cp.customerId))
        .where(customerId ? eq(cp.customerId, customerId) : undefined)
        .orderBy(desc(cp.effectiveFrom), desc(cp.createdAt), asc(cp.id));
      return rows.map((r) => ({ ...r.row, customerName: r.customerName }));
    },

    async customerPriceById(id: string, tx: Db = db, lock = false): Promise<CustomerPriceRow | null> {
      const query = tx.select(customerPriceColumns).from(cp).innerJoin(customers, eq(customers.id, cp.customerId)).where(eq(cp.id, id));
      const [row] = lock ? await query.for('update', { of: cp }) : await query;
      return row ? { ...row.row, customerName: row.customerName } : null;
    },

    async insertCustomerPrice(row: NewCustomerPrice, tx: Db = db): Promise<BillingCustomerPriceRow> {
      const [saved] = await tx.insert(cp).values(row).returning();
      if (!saved) throw new Error('insert into billing_customer_prices returned no row');
      return saved;
    },

    /**
     * Ends a customer's price on `until` (exclusive, 'YYYY-MM-DD'). Null when there is no such row,
     * or it starts on or after `until` (a row must keep at least a day; nothing is written then).
     */
    async endCustomerPrice(id: string, until: string, tx: Db = db): Promise<BillingCustomerPriceRow | null> {
      const [saved] = await tx
        .update(cp)
        .set({ effectiveUntil: until })
        .where(and(eq(cp.id, id), sql`${cp.effectiveFrom} < ${until}::date`))
        .returning();
      return saved ?? null;
    },

    /** The customers' own prices (any date), by customer; customers without any are absent. */
    async customerEntries(customerIds: readonly string[], tx: Db = db): Promise<Map<string, CustomerPriceEntryRow[]>> {
      const found = new Map<string, CustomerPriceEntryRow[]>();
      if (customerIds.length === 0) return found;
      const rows = await tx
        .select()
        .from(cp)
        .where(inArray(cp.customerId, [...new Set(customerIds)]))
        .orderBy(asc(cp.customerId), asc(cp.effectiveFrom), asc(cp.createdAt));
      for (const row of rows) {
        const list = found.get(row.customerId) ?? [];
        list.push(toCustomerEntry(row));
        found.set(row.customerId, list);
      }
      return found;
    },

    // ---- Corrections ---------------------------------------------------------------------

    /** Corrections newest first: pending (on no closed statement yet), applied, or all. */
    async adjustments(filter: { customerId: string | null; status: AdjustmentStatus }, tx: Db = db): Promise<AdjustmentRow[]> {
      const parts: SQL[] = [];
      if (filter.customerId) parts.push(eq(adj.customerId, filter.customerId));
      if (filter.status === 'pending') parts.push(isNull(adj.appliedStatementId));
      if (filter.status === 'applied') parts.push(isNotNull(adj.appliedStatementId));
      const rows = await tx
        .select(adjustmentColumns)
        .from(adj)
        .innerJoin(customers, eq(customers.id, adj.customerId))
        .leftJoin(applied, eq(applied.id, adj.appliedStatementId))
        .where(parts.length > 0 ? and(...parts) : undefined)
        .orderBy(desc(adj.createdAt), asc(adj.id));
      return rows.map((r) => ({ ...r.row, customerName: r.customerName, appliedStatementNumber: r.appliedStatementNumber }));
    },

    async adjustmentById(id: string, tx: Db = db): Promise<AdjustmentRow | null> {
      const [row] = await tx
        .select(adjustmentColumns)
        .from(adj)
        .innerJoin(customers, eq(customers.id, adj.customerId))
        .leftJoin(applied, eq(applied.id, adj.appliedStatementId))
        .where(eq(adj.id, id));
      return row ? { ...row.row, customerName: row.customerName, appliedStatementNumber: row.appliedStatementNumber } : null;
    },

    async insertAdjustment(row: NewAdjustment, tx: Db = db): Promise<BillingAdjustmentRow> {
      const [saved] = await tx
        .insert(adj)
        .values({ ...row, againstStatementId: row.againstStatementId ?? null })
        .returning();
      if (!saved) throw new Error('insert into billing_adjustments returned no row');
      return saved;
    },

    /**
     * Deletes a correction no closed statement carries yet, in one statement: a close that takes
     * it at the same moment wins or loses as a whole. 'applied' or 'missing' when nothing went.
     */
    async deletePendingAdjustment(id: string, tx: Db = db): Promise<'deleted' | 'applied' | 'missing'> {
      const gone = await tx
        .delete(adj)
        .where(and(eq(adj.id, id), isNull(adj.appliedStatementId)))
        .returning({ id: adj.id });
      if (gone.length > 0) return 'deleted';
      const [still] = await tx.select({ id: adj.id }).from(adj).where(eq(adj.id, id));
      return still ? 'applied' : 'missing';
    },

    /** The statement a correction is made against: whose it is and in which currency. */
    async statementOwner(id: string, tx: Db = db): Promise<{ customerId: string; currency: string } | null> {
      const [row] = await tx.select({ customerId: billingStatements.customerId, currency: billingStatements.currency }).from(billingStatements).where(eq(billingStatements.id, id));
      return row ?? null;
    },

    // ---- The demo ------------------------------------------------------------------------

    /** Active customers (live, not blocked, not expired) holding at least one line, by name, with their lines' products. */
    async activeCustomersWithLines(at: Date, tx: Db = db): Promise<{ id: string; name: string; products: string[] }[]> {
      const rows = await tx
        .select({
          id: customers.id,
          name: customers.name,
          products: sql<string[]>`coalesce(array_agg(DISTINCT ${serviceLines.productReferenceId}) FILTER (WHERE ${serviceLines.productReferenceId} IS NOT NULL), '{}')`,
        })
        .from(customers)
        .innerJoin(terminals, and(eq(terminals.assignedCustomerId, customers.id), isNotNull(terminals.serviceLineNumber), isNull(terminals.removedAt)))
        .leftJoin(serviceLines, eq(serviceLines.serviceLineNumber, terminals.serviceLineNumber))
        .where(
          and(
            isNull(customers.deletedAt),
            eq(customers.isActive, true),
            eq(customers.blockedEnabled, false),
            sql`(${customers.accountExpiresAt} IS NULL OR ${customers.accountExpiresAt} > ${at})`,
          ),
        )
        .groupBy(customers.id, customers.name)
        .orderBy(asc(customers.name), asc(customers.id));
      return rows.map((r) => ({ id: r.id, name: r.name, products: [...(r.products ?? [])] }));
    },
  };
}
