// Request and response schemas of the price list, customer price and correction routes, the
// answers checked against their types in src/domain/billing.ts. Amounts are text here ("79.00"):
// the service parses them exactly for their currency, which the schema cannot know field by field.
import { z } from 'zod';
import {
  BILLING_MESSAGES as M,
  type AdjustmentBody,
  type AdjustmentWire,
  type CustomerPriceBody,
  type CustomerPriceWire,
  type PriceBody,
  type PriceListWire,
  type PriceWire,
} from '../../../src/domain/billing';
import { CURRENCY_PATTERN } from '../../../src/domain/money';
import { ADJUSTMENT_REASON_MAX_LENGTH } from '../../../src/domain/billing';
import { isUsageDay } from '../../../src/domain/customer-terminals';
import { BILLING_FIELD_MESSAGES } from '../../services/billing/prices';
import { inputText, exact, type Exact } from '../schemas';

export const PRODUCT_ID_MAX_LENGTH = 100;
export const BILLING_NOTE_MAX_LENGTH = 500;
/** Longer than any amount a currency can hold in a safe integer of minor units. */
const AMOUNT_TEXT_MAX_LENGTH = 40;

export const BILLING_REQUEST_MESSAGES = {
  priceId: 'Price id must be a UUID',
  customerPriceId: 'Customer price id must be a UUID',
  adjustmentId: 'Correction id must be a UUID',
  customer: 'customer must be a customer UUID',
  customerId: 'customerId must be a customer UUID',
  statementId: 'againstStatementId must be a statement UUID, or null',
  product: `productReferenceId must be a product id of 1 to ${PRODUCT_ID_MAX_LENGTH} characters`,
  productOrNull: `productReferenceId must be a product id, or null for every product`,
  effectiveFrom: 'effectiveFrom must be a date written YYYY-MM-DD',
  effectiveUntil: 'effectiveUntil must be a date written YYYY-MM-DD, or null',
  amount: (field: string) => `${field} must be an amount written as text, e.g. "79.00"`,
  discountPercent: 'discountPercent must be a percent written as text, e.g. "12.5", or null',
  direction: 'direction must be credit or charge',
  reason: BILLING_FIELD_MESSAGES.reason,
  note: `note must be at most ${BILLING_NOTE_MAX_LENGTH} characters`,
  status: 'status must be one of pending, applied, all',
} as const;
const F = BILLING_REQUEST_MESSAGES;

/** A real calendar day, 'YYYY-MM-DD', from 1900 on (PostgreSQL's date holds it; no year 0). */
const isDay = (text: string) => isUsageDay(text) && text >= '1900-01-01';

const day = (message: string) => z.string({ error: message }).max(10, { error: message }).refine(isDay, { error: message });
const currency = z.string({ error: M.currencyInvalid }).regex(CURRENCY_PATTERN, { error: M.currencyInvalid });
const amountText = (message: string) => z.string({ error: message }).max(AMOUNT_TEXT_MAX_LENGTH, { error: message });
const productId = (message: string) => inputText({ error: message }).trim().min(1, { error: message }).max(PRODUCT_ID_MAX_LENGTH, { error: message });
const note = inputText({ error: F.note }).max(BILLING_NOTE_MAX_LENGTH, { error: F.note }).nullable().optional();

export const priceParamsSchema = z.object({ id: z.uuid({ error: F.priceId }) });
export const customerPriceParamsSchema = z.object({ id: z.uuid({ error: F.customerPriceId }) });
export const adjustmentParamsSchema = z.object({ id: z.uuid({ error: F.adjustmentId }) });

export const customerPricesQuerySchema = z.object({ customer: z.uuid({ error: F.customer }).optional() });
export const adjustmentsQuerySchema = z.object({
  customer: z.uuid({ error: F.customer }).optional(),
  status: z.enum(['pending', 'applied', 'all'], { error: F.status }).default('pending'),
});

export const priceBodySchema = z
  .object({
    productReferenceId: productId(F.product),
    currency,
    monthly: amountText(F.amount('monthly')),
    overagePerGb: amountText(F.amount('overagePerGb')),
    topUp: amountText(F.amount('topUp')),
    effectiveFrom: day(F.effectiveFrom),
    note,
  })
  .strict();

export const customerPriceBodySchema = z
  .object({
    customerId: z.uuid({ error: F.customerId }),
    productReferenceId: productId(F.productOrNull).nullable(),
    effectiveFrom: day(F.effectiveFrom),
    effectiveUntil: day(F.effectiveUntil).nullable().optional(),
    discountPercent: amountText(F.discountPercent).nullable().optional(),
    monthly: amountText(F.amount('monthly')).nullable().optional(),
    overagePerGb: amountText(F.amount('overagePerGb')).nullable().optional(),
    topUp: amountText(F.amount('topUp')).nullable().optional(),
    currency,
    note,
  })
  .strict();

export const endCustomerPriceBodySchema = z.object({ effectiveUntil: day(F.effectiveUntil).nullable().optional() }).strict();

export const adjustmentBodySchema = z
  .object({
    customerId: z.uuid({ error: F.customerId }),
    currency,
    direction: z.enum(['credit', 'charge'], { error: F.direction }),
    amount: amountText(F.amount('amount')),
    reason: inputText({ error: F.reason }).trim().min(1, { error: F.reason }).max(ADJUSTMENT_REASON_MAX_LENGTH, { error: F.reason }),
    againstStatementId: z.uuid({ error: F.statementId }).nullable().optional(),
  })
  .strict();

const isoDate = z.string();
const minor = z.number().int();

export const priceSchema = z.object({
  id: z.string(),
  productReferenceId: z.string(),
  productName: z.string().nullable(),
  currency: z.string(),
  monthlyMinor: minor,
  overagePerGbMinor: minor,
  topUpMinor: minor,
  effectiveFrom: z.string(),
  note: z.string().nullable(),
  createdAt: isoDate,
  createdBy: z.string().nullable(),
  current: z.boolean(),
});

export const priceListSchema = z.object({
  products: z.array(
    z.object({
      productReferenceId: z.string(),
      name: z.string(),
      providerPrice: z.number().nullable(),
      providerCurrency: z.string().nullable(),
      current: priceSchema.nullable(),
    }),
  ),
  history: z.array(priceSchema),
});

export const customerPriceSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  productReferenceId: z.string().nullable(),
  effectiveFrom: z.string(),
  effectiveUntil: z.string().nullable(),
  discountBp: z.number().int().nullable(),
  monthlyMinor: minor.nullable(),
  overagePerGbMinor: minor.nullable(),
  topUpMinor: minor.nullable(),
  note: z.string().nullable(),
  createdAt: isoDate,
});

export const adjustmentSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  currency: z.string(),
  amountMinor: minor,
  reason: z.string(),
  source: z.enum(['manual', 'reconciliation']),
  againstStatementId: z.string().nullable(),
  appliedStatementId: z.string().nullable(),
  appliedStatementNumber: z.string().nullable(),
  createdAt: isoDate,
});

// The schemas and the domain's wire types say the same thing.
exact<Exact<z.output<typeof priceSchema>, PriceWire>>();
exact<Exact<z.output<typeof priceListSchema>, PriceListWire>>();
exact<Exact<z.output<typeof customerPriceSchema>, CustomerPriceWire>>();
exact<Exact<z.output<typeof adjustmentSchema>, AdjustmentWire>>();
exact<Exact<z.output<typeof priceBodySchema>, PriceBody>>();
exact<Exact<z.output<typeof customerPriceBodySchema>, CustomerPriceBody>>();
exact<Exact<z.output<typeof adjustmentBodySchema>, AdjustmentBody>>();
