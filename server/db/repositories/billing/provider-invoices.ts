// The provider's invoices as imported: an invoice and its lines are written once, in
// one transaction, and only the invoice's status and due date change afterwards (a complete
// cycle's invoice never changes; it gets paid).
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../client';
import { providerInvoiceLines, providerInvoices } from '../../schema';

export type ProviderInvoicesRepository = ReturnType<typeof createProviderInvoicesRepository>;

export interface NewProviderInvoice {
  invoiceId: string;
  cycle: string;
  currency: string;
  amountMinor: number;
  invoiceDate: Date | null;
  dueDate: Date | null;
  status: string | null;
}

/** One row per invoice line and service line it names, numbered from 0 in the invoice's order. */
export interface NewProviderInvoiceLine {
  position: number;
  productReferenceId: string | null;
  description: string | null;
  serviceLineNumber: string | null;
  /** Decimals as the provider sent them, for the whole invoice line. */
  quantity: string | null;
  unitPrice: string | null;
  amountMinor: number;
  periodStart: Date | null;
  periodEnd: Date | null;
}

export function createProviderInvoicesRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    /** The imported invoices among these ids, with what may still change about them. */
    async known(invoiceIds: readonly string[], tx: Db = db): Promise<Map<string, { status: string | null; dueDate: Date | null }>> {
      if (invoiceIds.length === 0) return new Map();
      const rows = await tx
        .select({ invoiceId: providerInvoices.invoiceId, status: providerInvoices.status, dueDate: providerInvoices.dueDate })
        .from(providerInvoices)
        .where(inArray(providerInvoices.invoiceId, [...invoiceIds]));
      return new Map(rows.map((r) => [r.invoiceId, { status: r.status, dueDate: r.dueDate }]));
    },

    /** Writes an invoice with its lines; false when it was already there (another import got it first). */
    /** `accountId`: the provider account the invoice was read from. */
    async insert(invoice: NewProviderInvoice, lines: readonly NewProviderInvoiceLine[], accountId: number, at: Date, tx: Db): Promise<boolean> {
      const inserted = await tx
        .insert(providerInvoices)
        .values({ ...invoice, accountId, importedAt: at })
        .onConflictDoNothing({ target: providerInvoices.invoiceId })
        .returning({ invoiceId: providerInvoices.invoiceId });
      if (inserted.length === 0) return false;
      if (lines.length > 0) await tx.insert(providerInvoiceLines).values(lines.map((line) => ({ ...line, invoiceId: invoice.invoiceId })));
      return true;
    },

    async updateStatus(invoiceId: string, values: { status: string | null; dueDate: Date | null }, tx: Db = db): Promise<void> {
      await tx.update(providerInvoices).set(values).where(eq(providerInvoices.invoiceId, invoiceId));
    },
  };
}
