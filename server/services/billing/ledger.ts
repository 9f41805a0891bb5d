// The customer ledger as the administrators and the billing job use it: charge the statements a
// close numbered, record payments, credit notes and refunds (by hand or from a bank line), reverse
// a mistake, and read a customer's account, the ageing and the customer's own view.
//
// Every posting runs in one transaction holding the customer's row (FOR UPDATE), so two postings
// for one customer cannot both pay the same open amount, and it is audited and published as a
// webhook event in that transaction. A refusal writes nothing. The rules are src/domain/ledger.ts.
import { paginationOf } from '../../../src/domain/customers';
import {
  allocate,
  AGEING_BUCKETS,
  AGEING_CSV_COLUMNS,
  daysOverdue,
  isoDay,
  LEDGER_MESSAGES as M,
  LEDGER_NOTE_MAX_LENGTH,
  LEDGER_REFERENCE_MAX_LENGTH,
  type AgeingFigures,
  type AgeingWire,
  type BalanceWire,
  type BillingTermsBody,
  type CustomerAccountWire,
  type LedgerEntryBody,
  type LedgerEntryKind,
  type LedgerEntryWire,
  type LedgerListWire,
  type MyAccountWire,
  type OpenStatementWire,
  type PaymentMethod,
  type PostedKind,
  type PostedWire,
} from '../../../src/domain/ledger';
import { csvRow } from '../../../src/domain/csv';
import { formatMinor, formatMoney, MoneyError, parseMoney } from '../../../src/domain/money';
import type { PublishedEventType } from '../../../src/domain/webhooks';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Repositories } from '../../db/repositories';
import type { OpenStatementRow } from '../../db/repositories/billing/ledger';
import { paymentReceivedEmail } from '../../email/templates';
import { ConflictError, NotFoundError, fieldError } from '../../errors';
import type { AuditService, RequestContext } from '../audit';
import type { EmailLogger, EmailSender, RecordedEmail } from '../email';
import type { WebhookService } from '../webhooks';

export interface LedgerListQuery {
  customer?: string | undefined;
  currency?: string | undefined;
  kind?: LedgerEntryKind | undefined;
  page: number;
  limit: number;
}

export interface BankPosted {
  entry: LedgerEntryWire;
  events: number;
  receipt: RecordedEmail | null;
}

/** A posting the bank import makes for a matched line, inside its own transaction. */
export interface BankPosting {
  customerId: string;
  currency: string;
  amountMinor: number;
  occurredOn: string;
  reference: string | null;
  bankLineId: string;
  statementIds: string[] | null;
}

export interface LedgerService {
  /** Charges the statements closed and not yet charged, and spends the customers' credit on them. */
  chargeClosed(tx: Db): Promise<number>;
  post(body: LedgerEntryBody, context: RequestContext): Promise<PostedWire>;
  /** A matched bank line's payment, in the caller's transaction (the caller audits and settles). */
  postBankPayment(posting: BankPosting, context: RequestContext, tx: Db): Promise<BankPosted>;
  /** After the bank import's transaction commits: wake the webhooks, send the receipts, lift blocks. */
  afterBankPostings(posted: readonly BankPosted[]): Promise<void>;
  reverse(id: string, reason: string, context: RequestContext): Promise<PostedWire>;
  list(query: LedgerListQuery): Promise<LedgerListWire>;
  account(customerId: string): Promise<CustomerAccountWire>;
  mine(customerId: string): Promise<MyAccountWire>;
  setTerms(customerId: string, body: BillingTermsBody, context: RequestContext): Promise<CustomerAccountWire['terms']>;
  ageing(filter: { currency?: string | undefined; search?: string | undefined }): Promise<AgeingWire>;
  ageingCsv(filter: { currency?: string | undefined; search?: string | undefined }): AsyncGenerator<string>;
}

/** What each posting is called in the audit log and in the webhook events. */
const RECORDED = {
  payment: { action: 'billing.payment_recorded', event: 'payment.received' },
  credit_note: { action: 'billing.credit_note_recorded', event: 'credit_note.issued' },
  refund: { action: 'billing.refund_recorded', event: 'refund.issued' },
} as const satisfies Record<PostedKind, { action: string; event: PublishedEventType }>;

/** The open statement as the pages show it, overdue days counted on `today`. */
const openWire = (row: OpenStatementRow, today: string): OpenStatementWire => ({
  statementId: row.statementId,
  number: row.number,
  dueOn: row.dueOn,
  openMinor: row.openMinor,
  cycle: row.cycle,
  currency: row.currency,
  totalMinor: row.totalMinor,
  paidMinor: row.paidMinor,
  daysOverdue: Math.max(0, daysOverdue(row.dueOn, today)),
});

function balanceOf(currency: string, balanceMinor: number, open: readonly OpenStatementRow[], today: string): BalanceWire {
  const own = open.filter((o) => o.currency === currency);
  const openMinor = own.reduce((sum, o) => sum + o.openMinor, 0);
  return {
    currency,
    balanceMinor,
    openMinor,
    overdueMinor: own.filter((o) => daysOverdue(o.dueOn, today) > 0).reduce((sum, o) => sum + o.openMinor, 0),
    // What was paid and not used: the open amounts less what the entries say is owed.
    creditMinor: Math.max(0, openMinor - balanceMinor),
  };
}

const trimmed = (value: string | null | undefined) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

export function createLedgerService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  email: EmailSender;
  log: EmailLogger;
  webhooks: () => WebhookService | null;
  /** After a posting commits: lifts a non-payment block once nothing is overdue; true when it did. */
  settle: (customerId: string) => Promise<boolean>;
}): LedgerService {
  const { repos, audit, now } = deps;
  const store = repos.ledger;
  const today = () => isoDay(now());

  async function publish(type: PublishedEventType, data: unknown, tx: Db): Promise<number> {
    const publisher = deps.webhooks();
    if (!publisher) return 0;
    return (await publisher.publish([{ type, data }], tx)).events;
  }

  /** Spends a customer's credit in a currency on their open statements, oldest first. */
  async function spendCredit(customerId: string, currency: string, entryId: string, at: Date, tx: Db): Promise<void> {
    const open = await store.openStatements(customerId, currency, tx);
    const { creditMinor } = balanceOf(currency, (await store.balances(customerId, tx)).get(currency) ?? 0, open, today());
    if (creditMinor === 0 || open.length === 0) return;
    await store.insertAllocations(entryId, allocate(creditMinor, open).allocations, at, tx);
  }

  async function balanceNow(customerId: string, currency: string, tx?: Db): Promise<BalanceWire> {
    const open = await store.openStatements(customerId, currency, tx);
    return balanceOf(currency, (await store.balances(customerId, tx)).get(currency) ?? 0, open, today());
  }

  function parseAmount(amount: string, currency: string): number {
    let minor: number;
    try {
      minor = parseMoney(amount, currency);
    } catch (error) {
      if (error instanceof MoneyError) throw fieldError('amount', `Amount: ${error.message}`);
      throw error;
    }
    if (minor <= 0) throw fieldError('amount', M.amountNotPositive);
    return minor;
  }

  async function afterPosting(customerId: string, events: number, receipt: RecordedEmail | null): Promise<boolean> {
    if (events > 0) deps.webhooks()?.wake();
    if (receipt) void deps.email.deliver(receipt, { log: deps.log });
    return deps.settle(customerId);
  }

  async function postEntry(
    customer: { id: string; name: string; email: string },
    entry: { kind: PostedKind; currency: string; amountMinor: number; occurredOn: string; method: PaymentMethod | null; reference: string | null; note: string | null; bankLineId: string | null },
    statementIds: readonly string[] | null,
    context: RequestContext,
    tx: Db,
  ): Promise<{ entry: LedgerEntryWire; events: number; receipt: RecordedEmail | null }> {
    const at = now();
    const open = await store.openStatements(customer.id, entry.currency, tx);
    if (statementIds && statementIds.some((id) => !open.some((o) => o.statementId === id))) throw fieldError('statementIds', M.statementNotOpen);
    let allocations: { statementId: string; amountMinor: number }[] = [];
    if (entry.kind === 'refund') {
      const credit = balanceOf(entry.currency, (await store.balances(customer.id, tx)).get(entry.currency) ?? 0, open, today()).creditMinor;
      if (entry.amountMinor > credit) throw fieldError('amount', M.refundOverCredit(formatMoney(credit, entry.currency)));
    } else {
      allocations = allocate(entry.amountMinor, open, statementIds).allocations;
    }
    const signed = entry.kind === 'refund' ? entry.amountMinor : -entry.amountMinor;
    const id = await store.insertEntry(
      { customerId: customer.id, currency: entry.currency, kind: entry.kind, amountMinor: signed, occurredOn: entry.occurredOn, method: entry.method, reference: entry.reference, note: entry.note, statementId: null, reversesId: null, bankLineId: entry.bankLineId, createdBy: context.actor.type === 'user' ? context.actor.id : null },
      at,
      tx,
    );
    await store.insertAllocations(id, allocations, at, tx);
    const wire = (await store.entry(id, tx))!;
    await audit.record({ ...context, action: RECORDED[entry.kind].action, targetType: 'customer', targetId: customer.id, after: { entryId: id, currency: entry.currency, amountMinor: signed, occurredOn: entry.occurredOn, method: entry.method, reference: entry.reference, allocations } }, tx);
    const events = await publish(RECORDED[entry.kind].event, { entry: wire }, tx);
    const receipt =
      entry.kind === 'payment'
        ? await deps.email.record(
            { to: customer.email, ...paymentReceivedEmail({ name: customer.name, amount: formatMoney(entry.amountMinor, entry.currency), receivedOn: entry.occurredOn, statements: wire.allocations.map((a) => a.statementNumber ?? '').filter(Boolean) }) },
            tx,
          )
        : null;
    return { entry: wire, events, receipt };
  }

  return {
    async chargeClosed(tx) {
      const at = now();
      const charged = await store.chargeClosed(at, tx);
      for (const { customerId, currency } of await store.mayHoldCredit(charged, tx)) {
        // The credit a customer holds pays the new statement at once (under the newest charge).
        const [newest] = (await store.list({ customerId, currency, kinds: ['charge'] }, { offset: 0, limit: 1 }, tx)).rows;
        if (newest) await spendCredit(customerId, currency, newest.id, at, tx);
      }
      return charged.length;
    },

    async post(body, context) {
      const amountMinor = parseAmount(body.amount, body.currency);
      if (body.occurredOn > today()) throw fieldError('occurredOn', M.dateInFuture);
      const reference = trimmed(body.reference);
      const note = trimmed(body.note);
      if (reference && reference.length > LEDGER_REFERENCE_MAX_LENGTH) throw fieldError('reference', `Reference must be at most ${LEDGER_REFERENCE_MAX_LENGTH} characters`);
      if (note && note.length > LEDGER_NOTE_MAX_LENGTH) throw fieldError('note', `Note must be at most ${LEDGER_NOTE_MAX_LENGTH} characters`);
      const done = await store.transaction(async (tx) => {
        const customer = await store.holdCustomer(body.customerId, tx);
        if (!customer) throw new NotFoundError(M.customerNotFound);
        if (!(await store.currenciesOf(customer.id, tx)).includes(body.currency)) throw fieldError('currency', M.currencyNotBilled(body.currency));
        const statementIds = body.kind === 'refund' ? null : body.statementIds && body.statementIds.length > 0 ? [...new Set(body.statementIds)] : null;
        const method = body.kind === 'payment' ? (body.method ?? 'bank_transfer') : null;
        const posted = await postEntry(customer, { kind: body.kind, currency: body.currency, amountMinor, occurredOn: body.occurredOn, method, reference, note, bankLineId: null }, statementIds, context, tx);
        return { ...posted, balance: await balanceNow(customer.id, body.currency, tx) };
      });
      const unblocked = await afterPosting(body.customerId, done.events, done.receipt);
      return { entry: done.entry, balance: unblocked ? await balanceNow(body.customerId, body.currency) : done.balance, unblocked };
    },

    async postBankPayment(posting, context, tx) {
      const customer = await store.holdCustomer(posting.customerId, tx);
      if (!customer) throw new NotFoundError(M.customerNotFound);
      if (!(await store.currenciesOf(customer.id, tx)).includes(posting.currency)) throw fieldError('customerId', M.currencyNotBilled(posting.currency));
      const posted = await postEntry(
        customer,
        { kind: 'payment', currency: posting.currency, amountMinor: posting.amountMinor, occurredOn: posting.occurredOn, method: 'bank_transfer', reference: posting.reference, note: null, bankLineId: posting.bankLineId },
        posting.statementIds,
        context,
        tx,
      );
      return posted;
    },

    async afterBankPostings(posted) {
      for (const customerId of new Set(posted.map((p) => p.entry.customerId))) {
        const own = posted.filter((p) => p.entry.customerId === customerId);
        await afterPosting(customerId, own.reduce((sum, p) => sum + p.events, 0), null);
        for (const p of own) if (p.receipt) void deps.email.deliver(p.receipt, { log: deps.log });
      }
    },

    async reverse(id, reason, context) {
      const why = trimmed(reason);
      if (!why) throw fieldError('reason', 'Give a reason for the reversal');
      if (why.length > LEDGER_NOTE_MAX_LENGTH) throw fieldError('reason', `Reason must be at most ${LEDGER_NOTE_MAX_LENGTH} characters`);
      const done = await store.transaction(async (tx) => {
        const original = await store.entry(id, tx);
        if (!original) throw new NotFoundError(M.entryNotFound);
        const customer = await store.holdCustomer(original.customerId, tx);
        if (!customer) throw new NotFoundError(M.customerNotFound);
        if (original.kind === 'charge' || original.kind === 'reversal') throw new ConflictError(M.notReversible);
        // Read again under the customer's lock: a reversal that committed meanwhile is seen here.
        if ((await store.entry(id, tx))!.reversedById) throw new ConflictError(M.alreadyReversed);
        const taken = await store.allocationsOf(id, tx);
        if (original.kind !== 'refund') {
          // The unused part of a payment may since have paid a newer statement or a refund: the
          // customer's credit must still hold it, or the reversal would leave a debt on no statement.
          const unused = -original.amountMinor - taken.reduce((sum, a) => sum + a.amountMinor, 0);
          const credit = (await balanceNow(customer.id, original.currency, tx)).creditMinor;
          if (unused > credit) throw new ConflictError(`Its unused ${formatMoney(unused, original.currency)} has since paid other statements or a refund: reverse those first`);
        }
        const at = now();
        const reversal = await store.insertEntry(
          { customerId: customer.id, currency: original.currency, kind: 'reversal', amountMinor: -original.amountMinor, occurredOn: isoDay(at), method: null, reference: original.reference, note: why, statementId: null, reversesId: id, bankLineId: null, createdBy: context.actor.type === 'user' ? context.actor.id : null },
          at,
          tx,
        );
        await store.insertAllocations(reversal, taken.map((a) => ({ statementId: a.statementId, amountMinor: -a.amountMinor })), at, tx);
        const wire = (await store.entry(reversal, tx))!;
        await audit.record({ ...context, action: 'billing.entry_reversed', targetType: 'customer', targetId: customer.id, before: { entryId: id, kind: original.kind, amountMinor: original.amountMinor }, after: { entryId: reversal, reason: why } }, tx);
        const events = await publish('payment.reversed', { entry: wire, reverses: original }, tx);
        return { entry: wire, events, balance: await balanceNow(customer.id, original.currency, tx) };
      });
      if (done.events > 0) deps.webhooks()?.wake();
      return { entry: done.entry, balance: done.balance, unblocked: false };
    },

    async list(query) {
      const { rows, total } = await store.list(
        { customerId: query.customer ?? null, currency: query.currency ?? null, kinds: query.kind ? [query.kind] : ['payment', 'credit_note', 'refund', 'reversal'] },
        { offset: (query.page - 1) * query.limit, limit: query.limit },
      );
      return { items: rows, pagination: paginationOf(total, query.page, query.limit) };
    },

    async account(customerId) {
      const terms = await store.terms(customerId);
      if (!terms) throw new NotFoundError(M.customerNotFound);
      const day = today();
      const [currencies, balances, open, entries, dunning] = await Promise.all([
        store.currenciesOf(customerId),
        store.balances(customerId),
        store.openStatements(customerId, null),
        store.list({ customerId, currency: null, kinds: null }, { offset: 0, limit: 100 }),
        repos.dunning.stepsOf(customerId),
      ]);
      return {
        customerId,
        currencies,
        balances: currencies.map((c) => balanceOf(c, balances.get(c) ?? 0, open, day)),
        open: open.map((o) => openWire(o, day)),
        entries: entries.rows,
        terms,
        dunning,
      };
    },

    async mine(customerId) {
      const terms = await store.terms(customerId);
      if (!terms) throw new NotFoundError(M.customerNotFound);
      const day = today();
      const [currencies, balances, open, entries] = await Promise.all([
        store.currenciesOf(customerId),
        store.balances(customerId),
        store.openStatements(customerId, null),
        store.list({ customerId, currency: null, kinds: ['payment', 'credit_note', 'refund', 'reversal'] }, { offset: 0, limit: 100 }),
      ]);
      return {
        balances: currencies.map((c) => balanceOf(c, balances.get(c) ?? 0, open, day)),
        open: open.map((o) => openWire(o, day)),
        payments: entries.rows.map(({ customerName: _n, createdBy: _b, note: _o, bankLineId: _l, ...own }) => own),
        paymentTermsDays: terms.paymentTermsDays,
      };
    },

    async setTerms(customerId, body, context) {
      const promiseNote = trimmed(body.promiseNote);
      const promiseToPayUntil = body.promiseToPayUntil ?? null;
      if (promiseNote && promiseNote.length > LEDGER_NOTE_MAX_LENGTH) throw fieldError('promiseNote', `Note must be at most ${LEDGER_NOTE_MAX_LENGTH} characters`);
      if (promiseToPayUntil !== null && promiseToPayUntil < today()) throw fieldError('promiseToPayUntil', 'A promise to pay must be for today or a later day');
      return store.transaction(async (tx) => {
        const before = await store.terms(customerId, tx);
        if (!before) throw new NotFoundError(M.customerNotFound);
        const after = { paymentTermsDays: body.paymentTermsDays, promiseToPayUntil, promiseNote: promiseToPayUntil ? promiseNote : null };
        await store.setTerms(customerId, after, tx);
        await audit.record({ ...context, action: 'billing.terms_changed', targetType: 'customer', targetId: customerId, before, after }, tx);
        return { ...after, blockedForNonPayment: before.blockedForNonPayment };
      });
    },

    async ageing(filter) {
      const asOf = today();
      const rows = await store.ageing(asOf, { currency: filter.currency ?? null, search: filter.search?.trim() || null });
      const totals = new Map<string, AgeingFigures & { currency: string; totalMinor: number; customers: number }>();
      for (const row of rows) {
        const total = totals.get(row.currency) ?? { currency: row.currency, current: 0, days1to30: 0, days31to60: 0, days61to90: 0, days90plus: 0, totalMinor: 0, customers: 0 };
        for (const bucket of AGEING_BUCKETS) total[bucket] += row[bucket];
        total.totalMinor += row.totalMinor;
        total.customers += row.totalMinor > 0 ? 1 : 0;
        totals.set(row.currency, total);
      }
      return { asOf, rows, totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)) };
    },

    async *ageingCsv(filter) {
      const { rows } = await this.ageing(filter);
      yield csvRow([...AGEING_CSV_COLUMNS]);
      for (const r of rows) {
        yield csvRow([r.customerName, r.currency, ...AGEING_BUCKETS.map((b) => formatMinor(r[b], r.currency)), formatMinor(r.totalMinor, r.currency), formatMinor(r.creditMinor, r.currency), r.oldestDueOn]);
      }
    },
  };
}

