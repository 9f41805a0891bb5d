// Request and response schemas of the reconciliation board, its fixes and the import of the
// provider's invoices, the answers checked against their types in src/domain/billing.ts.
import { z } from 'zod';
import { BILLING_MESSAGES as M, FIX_ACTIONS, LEAK_KINDS, type FixBody, type LeakWire, type ReconciliationWire } from '../../../src/domain/billing';
import { DEACTIVATION_REASON_MAX_LENGTH } from '../../../src/domain/service-lines';
import { isBoardCycle, type InvoiceImportResult } from '../../services/billing/reconciliation';
import { inputText, exact, providerAccountIdField, providerAccountParam, type Exact, PROVIDER_ACCOUNT_ID_MESSAGE } from '../schemas';

/** A fix's note is also the reason a cancelled line is given at the provider: its limit is that one's. */
export const LEAK_NOTE_MAX_LENGTH = DEACTIVATION_REASON_MAX_LENGTH;
export const LEAK_KEY_MAX_LENGTH = 200;

export const RECONCILIATION_REQUEST_MESSAGES = {
  kind: `kind must be one of ${LEAK_KINDS.join(', ')}`,
  action: `action must be one of ${FIX_ACTIONS.join(', ')}`,
  key: `key must be the leak's key, 1 to ${LEAK_KEY_MAX_LENGTH} characters`,
  note: `note must be at most ${LEAK_NOTE_MAX_LENGTH} characters, or null`,
  accountId: PROVIDER_ACCOUNT_ID_MESSAGE,
} as const;
const F = RECONCILIATION_REQUEST_MESSAGES;

const cycle = z.string({ error: M.cycleInvalid }).max(7, { error: M.cycleInvalid }).refine(isBoardCycle, { error: M.cycleInvalid });

export const reconciliationQuerySchema = z.object({ cycle: cycle.optional(), account_id: providerAccountParam });

export const fixBodySchema = z
  .object({
    cycle,
    kind: z.enum(LEAK_KINDS, { error: F.kind }),
    key: inputText({ error: F.key }).min(1, { error: F.key }).max(LEAK_KEY_MAX_LENGTH, { error: F.key }),
    action: z.enum(FIX_ACTIONS, { error: F.action }),
    note: inputText({ error: F.note }).max(LEAK_NOTE_MAX_LENGTH, { error: F.note }).nullable().optional(),
    accountId: providerAccountIdField(F.accountId).optional(),
  })
  .strict();

const kind = z.enum(LEAK_KINDS);
const action = z.enum(FIX_ACTIONS);

export const leakSchema = z.object({
  kind,
  key: z.string(),
  serviceLineNumber: z.string().nullable(),
  customerId: z.string().nullable(),
  customerName: z.string().nullable(),
  detail: z.string(),
  amountMinor: z.number().int(),
  fixes: z.array(action),
  resolution: z.object({ action, at: z.string(), by: z.string().nullable(), note: z.string().nullable() }).nullable(),
});

export const reconciliationSchema = z.object({
  cycle: z.string(),
  account: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  currency: z.string(),
  invoice: z.object({ invoiceId: z.string(), amountMinor: z.number().int(), status: z.string().nullable() }).nullable(),
  costEstimated: z.boolean(),
  totals: z.object({ providerCostMinor: z.number().int(), billedMinor: z.number().int(), marginMinor: z.number().int(), statements: z.number().int() }),
  leaks: z.array(leakSchema),
  byKind: z.array(z.object({ kind, count: z.number().int(), amountMinor: z.number().int() })),
  openLeakMinor: z.number().int(),
  otherCurrencies: z.array(z.object({ currency: z.string(), lines: z.number().int(), billedMinor: z.number().int() })),
});

export const fixResultSchema = z.object({ leak: leakSchema });
export const importResultSchema = z.object({ imported: z.number().int(), updated: z.number().int() });

// The answers' schemas and the domain's wire types say the same thing.
exact<Exact<z.infer<typeof leakSchema>, LeakWire>>();
exact<Exact<z.infer<typeof reconciliationSchema>, ReconciliationWire>>();
exact<Exact<z.infer<typeof importResultSchema>, InvoiceImportResult>>();
exact<Exact<z.infer<typeof fixBodySchema>, FixBody>>();
