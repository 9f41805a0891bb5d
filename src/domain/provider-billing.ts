// What the provider bills the reseller (Subscriptions → Provider Billing): the account's balance
// and invoices, and an invoice's lines with the terminal each service line is on in the
// inventory (none: the provider bills a line the inventory does not have). Read-only.
// Shared by the server (answers) and the client.

export interface ProviderBalanceWire {
  currency: string;
  dueAmount: number;
}

export interface ProviderInvoiceSummaryWire {
  invoiceId: string;
  description: string | null;
  currency: string;
  amount: number;
  dueAmount: number;
  invoiceDate: string;
  dueDate: string | null;
  /** The provider's word: Paid, Outstanding, DueSoon, Overdue, Cancelled or Unknown. */
  status: string;
}

/** `GET /billing/provider`. */
export interface ProviderBillingWire {
  balances: ProviderBalanceWire[];
  invoices: ProviderInvoiceSummaryWire[];
}

export interface ProviderInvoiceLineWire {
  productReferenceId: string | null;
  description: string | null;
  quantity: number;
  unitPrice: number;
  taxAmount: number;
  subTotal: number;
  periodStart: string | null;
  periodEnd: string | null;
  /** Each service line billed, with the inventory's terminal on it (null: not in the inventory). */
  serviceLines: { serviceLineNumber: string; userTerminalId: string | null }[];
}

/** `GET /billing/provider/invoices/{invoiceId}`. */
export interface ProviderInvoiceWire {
  invoiceId: string;
  currency: string;
  dueAmount: number;
  paidAmount: number;
  invoiceDate: string;
  dueDate: string | null;
  lines: ProviderInvoiceLineWire[];
  /** Lines billed for service lines the inventory does not have, and their total. */
  unmatched: { lines: number; amount: number };
}

export const INVOICE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const PROVIDER_BILLING_MESSAGES = {
  loaded: 'Provider billing retrieved successfully',
  invoiceLoaded: 'Invoice retrieved successfully',
  invoiceNotFound: 'Invoice not found',
  invoiceIdInvalid: 'invoiceId must be 1 to 100 letters, digits, dots, dashes or underscores',
  loadFailed: 'Could not read the provider billing',
} as const;

/** The words of the Provider Billing page (Subscriptions → Provider Billing). */
export const PROVIDER_BILLING_TEXTS = {
  title: 'Provider Billing',
  subtitle: 'What the provider bills the reseller, read live from the provider',
  link: 'Provider Billing',
  loadFailedTitle: 'Failed to load the provider billing',
  refreshFailed: 'Could not refresh the provider billing: ',
  invoiceFailedTitle: 'Failed to load the invoice',
  invoiceLoadFailed: 'Could not read the invoice',
  invoicesTable: 'Provider invoices',
  linesTable: 'Invoice lines',
  noInvoices: 'The provider has issued no invoices',
  noLines: 'This invoice has no lines',
  amountDue: 'Amount Due',
  view: 'View',
  newer: 'Newer invoice',
  older: 'Older invoice',
  notInInventory: 'Not in the inventory',
  invoiceHeader: (invoiceId: string) => `Invoice ${invoiceId}`,
  /** The warning of an invoice billing service lines the inventory does not have. */
  unmatched: (lines: number, amount: string) =>
    `${lines} line${lines === 1 ? ' is' : 's are'} billed for service lines the inventory does not have (${amount}): money paid to the provider that no customer may be paying.`,
} as const;

/** The provider's invoice statuses as the page words them ("DueSoon" → "Due Soon"); others as given. */
export function invoiceStatusLabel(status: string): string {
  return status.replace(/([a-z])([A-Z])/g, '$1 $2');
}
