// Response and parameter schemas of the provider billing routes, each answer checked against its
// type in src/domain/provider-billing.ts so the OpenAPI document cannot drift from it.
import { z } from 'zod';
import {
  INVOICE_ID_PATTERN,
  PROVIDER_BILLING_MESSAGES as M,
  type ProviderBillingWire,
  type ProviderInvoiceWire,
} from '../../../src/domain/provider-billing';
import { exact, type Exact } from '../schemas';

export const providerBillingSchema = z.object({
  balances: z.array(z.object({ currency: z.string(), dueAmount: z.number() })),
  invoices: z.array(
    z.object({
      invoiceId: z.string(),
      description: z.string().nullable(),
      currency: z.string(),
      amount: z.number(),
      dueAmount: z.number(),
      invoiceDate: z.string(),
      dueDate: z.string().nullable(),
      status: z.string(),
    }),
  ),
});
exact<Exact<z.infer<typeof providerBillingSchema>, ProviderBillingWire>>();

export const providerInvoiceSchema = z.object({
  invoiceId: z.string(),
  currency: z.string(),
  dueAmount: z.number(),
  paidAmount: z.number(),
  invoiceDate: z.string(),
  dueDate: z.string().nullable(),
  lines: z.array(
    z.object({
      productReferenceId: z.string().nullable(),
      description: z.string().nullable(),
      quantity: z.number(),
      unitPrice: z.number(),
      taxAmount: z.number(),
      subTotal: z.number(),
      periodStart: z.string().nullable(),
      periodEnd: z.string().nullable(),
      serviceLines: z.array(z.object({ serviceLineNumber: z.string(), userTerminalId: z.string().nullable() })),
    }),
  ),
  unmatched: z.object({ lines: z.number().int(), amount: z.number() }),
});
exact<Exact<z.infer<typeof providerInvoiceSchema>, ProviderInvoiceWire>>();

export const invoiceParamsSchema = z.object({ invoiceId: z.string({ error: M.invoiceIdInvalid }).regex(INVOICE_ID_PATTERN, { error: M.invoiceIdInvalid }) });
