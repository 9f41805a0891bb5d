// The Payments and Ageing pages' actors in one place, beside the ledger API: each reads an answer
// into the outcome its machine takes, and the pages only provide them.
import { fromPromise } from 'xstate';
import { LEDGER_MESSAGES, type AgeingRowWire, type AgeingWire, type BankImportBody, type BankLineWire, type BillingTermsWire, type CustomerAccountWire, type DunningPolicy, type LedgerEntryBody, type LedgerEntryWire, type LedgerKindFilter, type PostedWire } from '../domain/ledger';
import type { BankFile, BankImportDone } from '../machines/bank-import';
import type { CustomerOption, IgnoreLineInput, MatchLineInput } from '../machines/bank-line-decision';
import type { BillingTermsRequest } from '../machines/billing-terms-form';
import type { StoredPolicy } from '../machines/dunning-policy-form';
import type { DunningRan } from '../machines/dunning-run';
import type { ReverseEntryInput } from '../machines/ledger-reverse';
import type { ListPage, ListQuery } from '../machines/list';
import type { LoadOutcome } from '../machines/resource';
import type { SaveOutcome } from '../machines/user-form';
import type { Api } from './index';
import { outcome, settle } from './outcomes';

/** A customer the payment dialogs offer. */
export interface CustomerChoice extends CustomerOption {
  email: string;
}

/** 'all', or one currency's code. */
export type CurrencyFilter = string;

/** What every ageing answer carries beside its rows. */
export type AgeingExtras = Pick<AgeingWire, 'asOf' | 'totals'>;

/**
 * The Payments page's actors in one place: each reads the ledger API's answer into the outcome its
 * machine takes. The page only provides them.
 */
export function createPaymentsActors(api: Pick<Api, 'ledger' | 'customers'>) {
  const { ledger } = api;
  return {
    loadWaiting: fromPromise<LoadOutcome<ListPage<BankLineWire>>, ListQuery<'unmatched'>>(({ input, signal }) =>
      outcome(async () => {
        const result = await ledger.bankLines({ status: input.status, page: input.page, limit: input.limit }, signal);
        return result.ok ? { ok: true as const, data: { rows: result.data.items, pagination: result.data.pagination } } : result;
      }),
    ),
    loadLedger: fromPromise<LoadOutcome<ListPage<LedgerEntryWire>>, ListQuery<LedgerKindFilter>>(({ input, signal }) =>
      outcome(async () => {
        const result = await ledger.entries({ kind: input.status === 'all' ? undefined : input.status, page: input.page, limit: input.limit }, signal);
        return result.ok ? { ok: true as const, data: { rows: result.data.items, pagination: result.data.pagination } } : result;
      }),
    ),
    loadCustomerChoices: fromPromise<LoadOutcome<ListPage<CustomerChoice>>, ListQuery<'all'>>(({ input, signal }) =>
      outcome(async () => {
        const result = await api.customers.list({ page: 1, limit: input.limit, ...(input.search ? { search: input.search } : {}) }, signal);
        return result.ok
          ? { ok: true as const, data: { rows: result.data.customers.map((c) => ({ id: c.uuid, name: c.name, email: c.email })), pagination: result.data.pagination } }
          : result;
      }),
    ),
    readFile: fromPromise<string, { file: BankFile }>(({ input }) => input.file.text()),
    // The server's words ("3 matched, 1 to match by hand, 0 already imported") go with the report.
    importFile: fromPromise<LoadOutcome<BankImportDone>, BankImportBody>(({ input, signal }) =>
      outcome(async () => {
        const result = await ledger.importFile(input, signal);
        return result.ok ? { ok: true as const, data: { report: result.data, message: result.message } } : result;
      }),
    ),
    loadAccount: fromPromise<LoadOutcome<CustomerAccountWire>, { customerId: string }>(({ input, signal }) => outcome(() => ledger.account(input.customerId, signal))),
    matchLine: fromPromise<LoadOutcome<BankLineWire>, MatchLineInput>(({ input, signal }) => outcome(() => ledger.match(input.lineId, input.body, signal))),
    ignoreLine: fromPromise<LoadOutcome<BankLineWire>, IgnoreLineInput>(({ input, signal }) => outcome(() => ledger.ignore(input.lineId, input.note, signal))),
    postEntry: fromPromise<SaveOutcome<PostedWire>, LedgerEntryBody>(({ input, signal }) => settle(() => ledger.post(input, signal))),
    reverseEntry: fromPromise<LoadOutcome<PostedWire>, ReverseEntryInput>(({ input, signal }) => outcome(() => ledger.reverse(input.id, input.reason, signal))),
  };
}

export type PaymentsActors = ReturnType<typeof createPaymentsActors>;

/**
 * The Ageing page's actors in one place: each reads the ledger API's answer into the outcome its
 * machine takes. The ageing is one page: its paging is the rows it holds.
 */
export function createAgeingActors(api: Pick<Api, 'ledger'>, onExtras: (extras: AgeingExtras) => void) {
  const { ledger } = api;
  return {
    loadAgeing: fromPromise<LoadOutcome<ListPage<AgeingRowWire>>, ListQuery<CurrencyFilter>>(({ input, signal }) =>
      outcome(async () => {
        const result = await ledger.ageing({ currency: input.status === 'all' ? undefined : input.status, search: input.search }, signal);
        if (!result.ok) return result;
        onExtras({ asOf: result.data.asOf, totals: result.data.totals });
        const { rows } = result.data;
        return { ok: true as const, data: { rows, pagination: { total: rows.length, page: 1, limit: Math.max(1, rows.length), pages: 1 } } };
      }),
    ),
    loadPolicy: fromPromise<LoadOutcome<StoredPolicy>>(({ signal }) => outcome(() => ledger.policy(signal))),
    savePolicy: fromPromise<LoadOutcome<StoredPolicy>, DunningPolicy>(({ input, signal }) => outcome(() => ledger.savePolicy(input, signal))),
    // The server's words go with the report; an answer without them is worded here the same way.
    runDunning: fromPromise<LoadOutcome<DunningRan>>(({ signal }) =>
      outcome(async () => {
        const result = await ledger.runDunning(signal);
        return result.ok ? { ok: true as const, data: { report: result.data, message: result.message.trim() || LEDGER_MESSAGES.dunningRan(result.data) } } : result;
      }),
    ),
  };
}

/** The customer page's account section: reading the account, saving the payment terms. */
export function createCustomerAccountActors(api: Pick<Api, 'ledger'>, customerId: string) {
  return {
    load: fromPromise<LoadOutcome<CustomerAccountWire>>(({ signal }) => outcome(() => api.ledger.account(customerId, signal))),
    // The refusal's field errors are kept (settle, not outcome): they go by the fields.
    saveTerms: fromPromise<SaveOutcome<BillingTermsWire>, BillingTermsRequest>(({ input, signal }) => settle(() => api.ledger.setTerms(input.customerId, input.body, signal))),
  };
}
