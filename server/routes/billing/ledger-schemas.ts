// Request and response schemas of the ledger routes (payments, credit notes, refunds, reversals,
// a customer's account and terms, ageing, dunning, bank statement imports, the customer's own
// account), the answers checked against src/domain/ledger.ts.
import { z } from 'zod';
import {
  AGEING_BUCKETS,
  BANK_FILE_MAX_BYTES,
  BANK_FORMATS,
  BANK_LINE_STATUSES,
  BANK_MATCH_KINDS,
  DUNNING_DAYS_MAX,
  DUNNING_REMINDERS_MAX,
  DUNNING_STEPS,
  LEDGER_ENTRY_KINDS,
  LEDGER_NOTE_MAX_LENGTH,
  LEDGER_PAGE_SIZE,
  LEDGER_REFERENCE_MAX_LENGTH,
  PAYMENT_METHODS,
  PAYMENT_TERMS_MAX_DAYS,
  POSTED_KINDS,
  type AgeingWire,
  type BankImportReportWire,
  type BankImportWire,
  type BankLineListWire,
  type BankLineWire,
  type CustomerAccountWire,
  type DunningPolicy,
  type DunningReport,
  type LedgerEntryWire,
  type LedgerListWire,
  type MyAccountWire,
  type PostedWire,
} from '../../../src/domain/ledger';
import { CURRENCY_PATTERN } from '../../../src/domain/money';
import { MAX_PAGE, MAX_SEARCH_LENGTH, QUERY_MESSAGES, wholeNumber } from '../customers-schemas';
import { exact, paginationSchema, type Exact } from '../schemas';

export const LEDGER_MAX_PAGE_SIZE = 100;

export const LEDGER_FIELD_MESSAGES = {
  customerId: 'customerId must be a customer UUID',
  kind: `kind must be one of ${POSTED_KINDS.join(', ')}`,
  listKind: `kind must be one of ${LEDGER_ENTRY_KINDS.join(', ')}`,
  currency: 'Currency must be a three-letter ISO 4217 code',
  amount: 'Amount must be a number written with a decimal point, such as 120.50',
  date: (name: string) => `${name} must be a date written YYYY-MM-DD`,
  method: `method must be one of ${PAYMENT_METHODS.join(', ')}`,
  reference: `Reference must be at most ${LEDGER_REFERENCE_MAX_LENGTH} characters`,
  note: `Note must be at most ${LEDGER_NOTE_MAX_LENGTH} characters`,
  statementIds: 'statementIds must be a list of up to 100 statement UUIDs',
  reason: `Reason must be text of 1 to ${LEDGER_NOTE_MAX_LENGTH} characters`,
  terms: `Payment terms must be a whole number of days from 0 to ${PAYMENT_TERMS_MAX_DAYS}`,
  reminderDays: `reminderDays must be up to ${DUNNING_REMINDERS_MAX} whole numbers of days from 1 to ${DUNNING_DAYS_MAX}`,
  days: (name: string) => `${name} must be a whole number of days from 1 to ${DUNNING_DAYS_MAX}, or null`,
  flag: (name: string) => `${name} must be true or false`,
  format: `format must be one of ${BANK_FORMATS.join(', ')}`,
  fileName: 'fileName must be text of 1 to 255 characters',
  content: 'The file is larger than 5 MB',
  column: (name: string) => `csv.${name} must name a column of the file`,
  dateFormat: 'csv.dateFormat must be YYYY-MM-DD, DD/MM/YYYY, MM/DD/YYYY or DD.MM.YYYY',
  decimalSeparator: "csv.decimalSeparator must be '.' or ','",
  delimiter: "csv.delimiter must be ',' or ';'",
  status: `status must be one of ${BANK_LINE_STATUSES.join(', ')}`,
  search: `search must be at most ${MAX_SEARCH_LENGTH} characters`,
  limit: `limit must be a whole number from 1 to ${LEDGER_MAX_PAGE_SIZE}`,
  id: 'id must be a UUID',
} as const;
const F = LEDGER_FIELD_MESSAGES;

/** A real calendar day written YYYY-MM-DD. */
const day = (name: string) =>
  z
    .string({ error: F.date(name) })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: F.date(name) })
    .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), { error: F.date(name) });
const currency = z.string({ error: F.currency }).regex(CURRENCY_PATTERN, { error: F.currency });
const statementIds = z.array(z.uuid({ error: F.statementIds }), { error: F.statementIds }).max(100, { error: F.statementIds }).nullable().optional();
const optionalText = (max: number, message: string) => z.string({ error: message }).max(max, { error: message }).nullable().optional();

export const idParamsSchema = z.object({ id: z.uuid({ error: F.id }) });
export const customerParamsSchema = z.object({ uuid: z.uuid({ error: F.customerId }) });

export const ledgerEntryBodySchema = z
  .object({
    customerId: z.uuid({ error: F.customerId }),
    kind: z.enum(POSTED_KINDS, { error: F.kind }),
    currency,
    amount: z.string({ error: F.amount }).trim().min(1, { error: F.amount }).max(32, { error: F.amount }),
    occurredOn: day('occurredOn'),
    method: z.enum(PAYMENT_METHODS, { error: F.method }).optional(),
    reference: optionalText(LEDGER_REFERENCE_MAX_LENGTH, F.reference),
    note: optionalText(LEDGER_NOTE_MAX_LENGTH, F.note),
    statementIds,
  })
  .strict();

export const reverseBodySchema = z.object({ reason: z.string({ error: F.reason }).trim().min(1, { error: F.reason }).max(LEDGER_NOTE_MAX_LENGTH, { error: F.reason }) }).strict();

export const termsBodySchema = z
  .object({
    paymentTermsDays: z.number({ error: F.terms }).int({ error: F.terms }).min(0, { error: F.terms }).max(PAYMENT_TERMS_MAX_DAYS, { error: F.terms }),
    promiseToPayUntil: day('promiseToPayUntil').nullable().optional(),
    promiseNote: optionalText(LEDGER_NOTE_MAX_LENGTH, F.note),
  })
  .strict();

const policyDays = (name: string) => z.number({ error: F.days(name) }).int({ error: F.days(name) }).min(1, { error: F.days(name) }).max(DUNNING_DAYS_MAX, { error: F.days(name) });
export const dunningPolicySchema = z
  .object({
    enabled: z.boolean({ error: F.flag('enabled') }),
    reminderDays: z.array(policyDays('reminderDays'), { error: F.reminderDays }).max(DUNNING_REMINDERS_MAX, { error: F.reminderDays }),
    finalNoticeDays: policyDays('finalNoticeDays').nullable(),
    blockDays: policyDays('blockDays').nullable(),
    proposeLineEnds: z.boolean({ error: F.flag('proposeLineEnds') }),
  })
  .strict();
export const dunningPolicyWireSchema = z.object({ ...dunningPolicySchema.shape, updatedAt: z.string() });
export const dunningReportSchema = z.object({ reminders: z.number().int(), finalNotices: z.number().int(), blocked: z.number().int(), unblocked: z.number().int(), proposedEnds: z.number().int() });

const column = (name: string) => z.string({ error: F.column(name) }).trim().min(1, { error: F.column(name) }).max(100, { error: F.column(name) });
export const bankImportBodySchema = z
  .object({
    format: z.enum(BANK_FORMATS, { error: F.format }),
    fileName: z.string({ error: F.fileName }).trim().min(1, { error: F.fileName }).max(255, { error: F.fileName }),
    content: z.string({ error: F.content }).max(BANK_FILE_MAX_BYTES, { error: F.content }),
    csv: z
      .object({
        date: column('date'),
        amount: column('amount'),
        payer: column('payer'),
        remittance: column('remittance'),
        reference: column('reference').nullable().optional(),
        currencyColumn: column('currencyColumn').nullable().optional(),
        currency: currency.nullable().optional(),
        dateFormat: z.enum(['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'], { error: F.dateFormat }),
        decimalSeparator: z.enum(['.', ','], { error: F.decimalSeparator }),
        delimiter: z.enum([',', ';'], { error: F.delimiter }),
      })
      .strict()
      .nullable()
      .optional(),
  })
  .strict();

export const matchBodySchema = z.object({ customerId: z.uuid({ error: F.customerId }), statementIds }).strict();
export const ignoreBodySchema = z.object({ note: z.string({ error: F.reason }).trim().min(1, { error: F.reason }).max(LEDGER_NOTE_MAX_LENGTH, { error: F.reason }) }).strict();

const page = wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1);
const limit = wholeNumber(1, LEDGER_MAX_PAGE_SIZE, F.limit).default(LEDGER_PAGE_SIZE);
export const ledgerListQuerySchema = z.object({
  customer: z.uuid({ error: F.customerId }).optional(),
  currency: currency.optional(),
  kind: z.enum(LEDGER_ENTRY_KINDS, { error: F.listKind }).optional(),
  page,
  limit,
});
export const bankLineQuerySchema = z.object({ status: z.enum(BANK_LINE_STATUSES, { error: F.status }).optional(), page, limit });
export const ageingQuerySchema = z.object({
  currency: currency.optional(),
  search: z.string({ error: F.search }).trim().max(MAX_SEARCH_LENGTH, { error: F.search }).optional(),
});

// ---- Answers ---------------------------------------------------------------------------------

const allocationSchema = z.object({ statementId: z.string(), statementNumber: z.string().nullable(), amountMinor: z.number().int() });
export const ledgerEntrySchema = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  currency: z.string(),
  kind: z.enum(LEDGER_ENTRY_KINDS),
  amountMinor: z.number().int(),
  occurredOn: z.string(),
  method: z.enum(PAYMENT_METHODS).nullable(),
  reference: z.string().nullable(),
  note: z.string().nullable(),
  statementId: z.string().nullable(),
  statementNumber: z.string().nullable(),
  reversesId: z.string().nullable(),
  reversedById: z.string().nullable(),
  bankLineId: z.string().nullable(),
  allocations: z.array(allocationSchema),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export const ledgerListSchema = z.object({ items: z.array(ledgerEntrySchema), pagination: paginationSchema });

const balanceSchema = z.object({ currency: z.string(), balanceMinor: z.number().int(), openMinor: z.number().int(), overdueMinor: z.number().int(), creditMinor: z.number().int() });
export const postedSchema = z.object({ entry: ledgerEntrySchema, balance: balanceSchema, unblocked: z.boolean() });

const openStatementSchema = z.object({
  statementId: z.string(),
  number: z.string(),
  dueOn: z.string(),
  openMinor: z.number().int(),
  cycle: z.string(),
  currency: z.string(),
  totalMinor: z.number().int(),
  paidMinor: z.number().int(),
  daysOverdue: z.number().int(),
});
export const termsSchema = z.object({ paymentTermsDays: z.number().int(), promiseToPayUntil: z.string().nullable(), promiseNote: z.string().nullable(), blockedForNonPayment: z.boolean() });
export const customerAccountSchema = z.object({
  customerId: z.string(),
  currencies: z.array(z.string()),
  balances: z.array(balanceSchema),
  open: z.array(openStatementSchema),
  entries: z.array(ledgerEntrySchema),
  terms: termsSchema,
  dunning: z.array(z.object({ step: z.enum([...DUNNING_STEPS, 'unblock']), statementId: z.string().nullable(), statementNumber: z.string().nullable(), takenAt: z.string() })),
});
export const myAccountSchema = z.object({
  balances: z.array(balanceSchema),
  open: z.array(openStatementSchema),
  payments: z.array(ledgerEntrySchema.omit({ customerName: true, createdBy: true, note: true, bankLineId: true })),
  paymentTermsDays: z.number().int(),
});

const figures = Object.fromEntries(AGEING_BUCKETS.map((b) => [b, z.number().int()])) as Record<(typeof AGEING_BUCKETS)[number], z.ZodNumber>;
export const ageingSchema = z.object({
  asOf: z.string(),
  rows: z.array(
    z.object({
      customerId: z.string(),
      customerName: z.string(),
      currency: z.string(),
      ...figures,
      totalMinor: z.number().int(),
      creditMinor: z.number().int(),
      oldestDueOn: z.string().nullable(),
      blockedForNonPayment: z.boolean(),
      promiseToPayUntil: z.string().nullable(),
    }),
  ),
  totals: z.array(z.object({ currency: z.string(), ...figures, totalMinor: z.number().int(), customers: z.number().int() })),
});

export const bankLineSchema = z.object({
  id: z.string(),
  importId: z.string(),
  bookedOn: z.string(),
  amountMinor: z.number().int(),
  currency: z.string(),
  payer: z.string().nullable(),
  remittance: z.string().nullable(),
  bankReference: z.string().nullable(),
  status: z.enum(BANK_LINE_STATUSES),
  matchedBy: z.enum(BANK_MATCH_KINDS).nullable(),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  entryId: z.string().nullable(),
  statementNumbers: z.array(z.string()),
  note: z.string().nullable(),
});
export const bankLineListSchema = z.object({ items: z.array(bankLineSchema), pagination: paginationSchema });
export const bankImportSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  format: z.enum(BANK_FORMATS),
  importedAt: z.string(),
  importedBy: z.string().nullable(),
  lines: z.number().int(),
  matched: z.number().int(),
  unmatched: z.number().int(),
  duplicates: z.number().int(),
  skipped: z.number().int(),
});
export const bankImportReportSchema = z.object({ ...bankImportSchema.shape, items: z.array(bankLineSchema) });

exact<Exact<z.infer<typeof ledgerEntrySchema>, LedgerEntryWire>>();
exact<Exact<z.infer<typeof ledgerListSchema>, LedgerListWire>>();
exact<Exact<z.infer<typeof postedSchema>, PostedWire>>();
exact<Exact<z.infer<typeof customerAccountSchema>, CustomerAccountWire>>();
exact<Exact<z.infer<typeof myAccountSchema>, MyAccountWire>>();
exact<Exact<z.infer<typeof ageingSchema>, AgeingWire>>();
exact<Exact<z.infer<typeof bankLineSchema>, BankLineWire>>();
exact<Exact<z.infer<typeof bankLineListSchema>, BankLineListWire>>();
exact<Exact<z.infer<typeof bankImportSchema>, BankImportWire>>();
exact<Exact<z.infer<typeof bankImportReportSchema>, BankImportReportWire>>();
exact<Exact<z.infer<typeof dunningPolicySchema>, DunningPolicy>>();
exact<Exact<z.infer<typeof dunningReportSchema>, DunningReport>>();
