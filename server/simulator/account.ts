// The simulated account's money and people: invoices and balance (derived from the fleet's plans,
// blocks, top-ups and overage, one invoice per complete billing cycle), contacts, managed customer
// accounts under this one, and the shared data pool. State lives per fleet, so every mount of the
// simulator over one fleet sees the same contacts and accounts.
//
// Invoices are built from `fleet.cycleCharges`, one invoice line per line and product, with two
// seeded discrepancies the portal's reconciliation is meant to find: each carries one charge for a
// service line the account no longer has (the provider still billing a line that left the
// inventory), and each leaves off every charge of one line that had service in the cycle (the
// line in the middle of the cycle's charges, in their order; see `leftOffLine`), a line the
// provider forgot to bill. One-time top-ups of a past cycle need no seed: they are on its invoice,
// while the portal, which only copies a line's top-ups while a cycle runs, never saw them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { providerOperations as op, PAGE_SIZE, type ProviderOperation } from '../provider/operations';
import type { Fleet, IndexList, LineCharge } from './fleet/index';
import { answer, boolParam, intParam, lastValue, listParam, parseBody, stringParam, WireError, type Query } from './params';
import { digits, hashString, hex, mix } from './random';
import { DAY_MS, cycleContaining, iso, previousCycle, round2, type Cycle } from './usage';
import { ok, type Paginated } from './wire';

type Serve = (operation: ProviderOperation, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => void;
type Page = <T>(list: IndexList, pageIndex: number, limit: number, render: (index: number) => T) => Paginated<T>;

/** Complete billing cycles invoiced, newest first. */
export const INVOICE_MONTHS = 12;
/** Days from an invoice to its due date. */
export const INVOICE_TERMS_DAYS = 30;
const DUE_SOON_DAYS = 7;

interface Contact {
  subjectId: string;
  email: string;
  roles: string[];
  firstName: string;
  lastName: string;
  phoneNumber: string;
  locale: string;
}

interface ManagedAccount {
  accountNumber: string;
  accountName: string;
  regionCode: string;
  managerAccountNumber: string;
}

interface InvoiceLine {
  productReferenceId: string;
  productDescription: string;
  serviceName: string | null;
  serviceLineNumbers: string[];
  quantity: number;
  unitPrice: number;
  taxAmount: number;
  subTotal: number;
  servicePeriodStartDate: string | null;
  servicePeriodEndDate: string | null;
}

interface Invoice {
  invoiceId: string;
  cycle: Cycle;
  amount: number;
  lines: InvoiceLine[];
}

interface AccountState {
  contacts: Contact[];
  managed: ManagedAccount[];
  /** Complete cycles never change: each invoice is built once. */
  invoices: Map<number, Invoice>;
}

const states = new WeakMap<Fleet, AccountState>();

function stateOf(fleet: Fleet): AccountState {
  let state = states.get(fleet);
  if (!state) {
    const key = hashString(fleet.seed);
    const domain = `${(fleet.account().accountName ?? 'account').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}.example`;
    state = {
      contacts: [
        { subjectId: subjectId(key, 1), email: `admin@${domain}`, roles: ['Admin'], firstName: 'Account', lastName: 'Administrator', phoneNumber: '+1 310 555 0100', locale: 'en-US' },
        { subjectId: subjectId(key, 2), email: `billing@${domain}`, roles: ['Billing'], firstName: 'Accounts', lastName: 'Payable', phoneNumber: '+1 310 555 0101', locale: 'en-US' },
      ],
      managed: [],
      invoices: new Map(),
    };
    states.set(fleet, state);
  }
  return state;
}

function subjectId(key: number, n: number): string {
  const a = mix(key, 0x73756264, n);
  const b = mix(key, 0x73756265, n);
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b >>> 4, 3)}-a${hex(a >>> 20, 3)}-${hex(b, 8)}${hex(a >>> 8, 4)}`;
}

// ---- Invoices ----------------------------------------------------------------------------------

/** A line number of this account that is on no line: the provider bills it, the inventory has none. */
function orphanLineNumber(fleet: Fleet): string {
  const account = /^ACC-(\d{6})-/.exec(fleet.accountNumber)?.[1] ?? '000000';
  for (let code = 9_999_999; ; code--) {
    const number = `AST-${account}-${digits(Math.floor(code / 100), 5)}-${digits(code % 100, 2)}`;
    if (fleet.serviceLineIndex(number) === undefined) return number;
  }
}

/**
 * The line whose charges an invoice leaves off: the middle one of the distinct lines charged in
 * the cycle, in the charges' order (never the first, the fleet's known line); none when fewer than
 * three lines were charged.
 */
export function leftOffLine(charges: readonly LineCharge[]): string | null {
  const numbers = [...new Set(charges.map((charge) => charge.serviceLineNumber))];
  return numbers.length < 3 ? null : numbers[Math.floor(numbers.length / 2)]!;
}

function invoiceFor(fleet: Fleet, cycle: Cycle): Invoice {
  const state = stateOf(fleet);
  const cached = state.invoices.get(cycle.startMs);
  if (cached) return cached;
  const month = new Date(cycle.startMs);
  const invoiceId = `INV-DF-${fleet.account().regionCode}-${hex(mix(hashString(fleet.seed), month.getUTCFullYear(), month.getUTCMonth()), 8).toUpperCase()}`;
  const charges = fleet.cycleCharges(cycle.startMs);
  const leftOff = leftOffLine(charges);
  const lines: InvoiceLine[] = charges.filter((charge) => charge.serviceLineNumber !== leftOff).map((charge) => ({
    productReferenceId: charge.productReferenceId,
    productDescription: charge.description,
    serviceName: 'Starlink',
    serviceLineNumbers: [charge.serviceLineNumber],
    quantity: charge.quantity,
    unitPrice: charge.unitPrice,
    taxAmount: 0,
    subTotal: round2(charge.quantity * charge.unitPrice),
    servicePeriodStartDate: iso(charge.periodStartMs),
    servicePeriodEndDate: iso(charge.periodEndMs),
  }));
  const plan = fleet.products()[0]!;
  lines.push({
    productReferenceId: plan.productReferenceId,
    productDescription: plan.name,
    serviceName: 'Starlink',
    serviceLineNumbers: [orphanLineNumber(fleet)],
    quantity: 1,
    unitPrice: plan.price,
    taxAmount: 0,
    subTotal: plan.price,
    servicePeriodStartDate: iso(cycle.startMs),
    servicePeriodEndDate: iso(cycle.endMs),
  });
  const invoice = { invoiceId, cycle, amount: round2(lines.reduce((sum, line) => sum + line.subTotal + line.taxAmount, 0)), lines };
  state.invoices.set(cycle.startMs, invoice);
  return invoice;
}

/** The complete cycles invoiced, newest first: the last twelve. */
function invoicedCycles(nowMs: number): Cycle[] {
  const cycles = [previousCycle(cycleContaining(nowMs))];
  while (cycles.length < INVOICE_MONTHS) cycles.push(previousCycle(cycles[cycles.length - 1]!));
  return cycles;
}

function invoiceStatus(invoice: Invoice, nowMs: number) {
  const invoiceDateMs = invoice.cycle.endMs;
  const dueMs = invoiceDateMs + INVOICE_TERMS_DAYS * DAY_MS;
  // Invoices are paid on their due date; only the newest is still open before then.
  const open = nowMs < dueMs;
  const status = !open ? 'Paid' : dueMs - nowMs <= DUE_SOON_DAYS * DAY_MS ? 'DueSoon' : 'Outstanding';
  return { invoiceDate: iso(invoiceDateMs), dueDate: iso(dueMs), status, dueAmount: open ? invoice.amount : 0, paidAmount: open ? 0 : invoice.amount };
}

// ---- Managed accounts --------------------------------------------------------------------------

function managedAccountNumber(fleet: Fleet, n: number): string {
  const h = mix(hashString(fleet.seed), 0x6d616e61, n);
  return `ACC-${digits(100_000 + (h % 900_000), 6)}-${digits((h >>> 8) % 100_000, 5)}-${digits(n % 100, 2)}`;
}

/** Accounts under `ancestor`, at most `maxDepth` levels down, in creation order. */
function descendants(state: AccountState, ancestor: string, maxDepth: number): ManagedAccount[] {
  const found: ManagedAccount[] = [];
  let level = [ancestor];
  for (let depth = 1; depth <= maxDepth && level.length > 0; depth++) {
    const next = state.managed.filter((a) => level.includes(a.managerAccountNumber));
    found.push(...next);
    level = next.map((a) => a.accountNumber);
  }
  return state.managed.filter((a) => found.includes(a));
}

// ---- Routes ------------------------------------------------------------------------------------

export function registerAccountRoutes({ serve, page, fleet, now }: { serve: Serve; page: Page; fleet: Fleet; now: () => Date }) {
  const whole = <T>(items: T[]): IndexList => ({ length: items.length, at: (k) => k });
  const pageIndexOf = (request: FastifyRequest) => intParam(request.query as Query, 'page', 0, 0);

  serve(op.listInvoices, async (request) => {
    const nowMs = now().getTime();
    const invoices = invoicedCycles(nowMs).map((cycle) => invoiceFor(fleet, cycle));
    return ok(
      page(whole(invoices), pageIndexOf(request), PAGE_SIZE, (k) => {
        const invoice = invoices[k]!;
        const { invoiceDate, dueDate, status, dueAmount } = invoiceStatus(invoice, nowMs);
        return { invoiceId: invoice.invoiceId, description: `Starlink service ${iso(invoice.cycle.startMs).slice(0, 7)}`, currency: fleet.currency, amount: invoice.amount, dueAmount, invoiceDate, dueDate, status };
      }),
    );
  });

  serve(op.getInvoice, async (request) => {
    const { invoiceId } = request.params as { invoiceId: string };
    const nowMs = now().getTime();
    const invoice = invoicedCycles(nowMs)
      .map((cycle) => invoiceFor(fleet, cycle))
      .find((candidate) => candidate.invoiceId === invoiceId.trim().toUpperCase());
    if (!invoice) throw new WireError(404, `Invoice ${invoiceId} was not found on this account`, ['invoiceId']);
    const { invoiceDate, dueDate, dueAmount, paidAmount } = invoiceStatus(invoice, nowMs);
    return ok({
      invoiceId: invoice.invoiceId,
      orderReferenceId: `ORD-${invoice.invoiceId.slice(-8)}`,
      currency: fleet.currency,
      dueAmount,
      paidAmount,
      invoiceDate,
      dueDate,
      invoiceLines: invoice.lines,
    });
  });

  serve(op.getBalance, async () => {
    const nowMs = now().getTime();
    const due = invoicedCycles(nowMs).reduce((sum, cycle) => sum + invoiceStatus(invoiceFor(fleet, cycle), nowMs).dueAmount, 0);
    return ok({ balances: [{ currency: fleet.currency, dueAmount: round2(due) }] });
  });

  // ---- Contacts ----

  const contactView = (contact: Contact) => ({ subjectId: contact.subjectId, email: contact.email, roles: [...contact.roles] });
  const findContact = (subject: string) => {
    const contact = stateOf(fleet).contacts.find((c) => c.subjectId === subject.trim().toLowerCase());
    if (!contact) throw new WireError(404, `Contact ${subject} was not found on this account`, ['subjectId']);
    return contact;
  };

  serve(op.listContacts, async (request) => {
    const { contacts } = stateOf(fleet);
    return ok(page(whole(contacts), pageIndexOf(request), PAGE_SIZE, (k) => contactView(contacts[k]!)));
  });

  serve(op.createContact, async (request) => {
    const body = parseBody(op.createContact.body, request.body);
    const state = stateOf(fleet);
    if (state.contacts.some((c) => c.email.toLowerCase() === body.email.toLowerCase())) {
      throw new WireError(422, `A contact with email ${body.email} is already on this account`, ['email']);
    }
    const contact: Contact = { ...body, roles: [...new Set(body.roles)], subjectId: subjectId(hashString(fleet.seed), state.contacts.length + 1 + state.managed.length * 1000) };
    while (state.contacts.some((c) => c.subjectId === contact.subjectId)) contact.subjectId = subjectId(hashString(contact.subjectId), 1);
    state.contacts.push(contact);
    return ok(contactView(contact));
  });

  serve(op.updateContact, async (request) => {
    const { subjectId: subject } = request.params as { subjectId: string };
    const body = parseBody(op.updateContact.body, request.body);
    if (!body.roles && !body.phoneNumber) throw new WireError(400, 'Give roles or phoneNumber to change', ['roles', 'phoneNumber']);
    const contact = findContact(subject);
    if (body.roles && !body.roles.includes('Admin') && contact.roles.includes('Admin') && lastAdmin(contact)) {
      throw new WireError(422, 'The account must keep at least one contact with the Admin role', ['roles']);
    }
    if (body.roles) contact.roles = [...new Set(body.roles)];
    if (body.phoneNumber) contact.phoneNumber = body.phoneNumber;
    return ok(contactView(contact));
  });

  const lastAdmin = (contact: Contact) => !stateOf(fleet).contacts.some((c) => c !== contact && c.roles.includes('Admin'));

  serve(op.deleteContact, async (request) => {
    const { subjectId: subject } = request.params as { subjectId: string };
    const contact = findContact(subject);
    if (contact.roles.includes('Admin') && lastAdmin(contact)) {
      throw new WireError(422, 'The account must keep at least one contact with the Admin role', ['subjectId']);
    }
    const state = stateOf(fleet);
    state.contacts = state.contacts.filter((c) => c !== contact);
    return answer({ ok: true, value: undefined });
  });

  // ---- Managed accounts ----

  serve(op.createManagedCustomer, async (request) => {
    const body = parseBody(op.createManagedCustomer.body, request.body);
    const state = stateOf(fleet);
    const n = state.managed.length + 1;
    const account: ManagedAccount = {
      accountNumber: managedAccountNumber(fleet, n),
      accountName: body.businessName?.trim() || `${body.firstName} ${body.lastName}`,
      regionCode: fleet.account().regionCode,
      managerAccountNumber: fleet.accountNumber,
    };
    state.managed.push(account);
    const secret = hex(mix(hashString(fleet.seed), 0x73656372, n), 8) + hex(mix(hashString(account.accountNumber), 0x73656373), 8);
    return ok({ accountNumber: account.accountNumber, serviceAccountClientId: `${account.accountNumber.toLowerCase()}-api`, serviceAccountSecret: secret });
  });

  const ancestorOf = (query: Query) => {
    const ancestor = stringParam(query, 'ancestorAccountNumber') ?? fleet.accountNumber;
    if (ancestor !== fleet.accountNumber && !stateOf(fleet).managed.some((a) => a.accountNumber === ancestor)) {
      throw new WireError(404, `Account ${ancestor} is not in this account's hierarchy`, ['ancestorAccountNumber']);
    }
    return ancestor;
  };

  serve(op.getManagedAccountTree, async (request) => {
    const state = stateOf(fleet);
    const root = ancestorOf(request.query as Query);
    const nodes = [root, ...descendants(state, root, Number.MAX_SAFE_INTEGER).map((a) => a.accountNumber)];
    const tree: Record<string, { accountNumber: string; accountName: string; managerAccountNumber: string | null; children: string[] }> = {};
    for (const number of nodes) {
      const account = state.managed.find((a) => a.accountNumber === number);
      tree[number] = {
        accountNumber: number,
        accountName: account?.accountName ?? fleet.account().accountName ?? number,
        managerAccountNumber: number === root ? (account?.managerAccountNumber ?? null) : account!.managerAccountNumber,
        children: state.managed.filter((a) => a.managerAccountNumber === number).map((a) => a.accountNumber),
      };
    }
    return ok({ rootAccountNumber: root, tree });
  });

  serve(op.listManagedAccounts, async (request) => {
    const query = request.query as Query;
    const state = stateOf(fleet);
    const ancestor = ancestorOf(query);
    const maxDepth = intParam(query, 'maxDepth', Number.MAX_SAFE_INTEGER, 1);
    const needle = stringParam(query, 'searchString')?.toLowerCase();
    const numbers = listParam(query, 'accountNumbers');
    const cursor = lastValue(query.cursor);
    let start = 0;
    if (cursor !== undefined && cursor !== '') {
      const decoded = /^k(\d{1,9})$/.exec(cursor);
      if (!decoded) throw new WireError(400, `The cursor '${cursor}' is not one this API gave`, ['cursor']);
      start = Number(decoded[1]);
    }
    const matches = descendants(state, ancestor, maxDepth).filter(
      (a) => (!needle || a.accountName.toLowerCase().includes(needle) || a.accountNumber.toLowerCase().includes(needle)) && (!numbers || numbers.includes(a.accountNumber)),
    );
    const slice = matches.slice(start, start + PAGE_SIZE);
    return ok({
      nextKey: start + PAGE_SIZE < matches.length ? `k${start + PAGE_SIZE}` : null,
      results: slice.map((a) => ({ accountNumber: a.accountNumber, regionCode: a.regionCode, accountName: a.accountName })),
    });
  });

  // ---- Data pools ----

  const poolView = (pool: ReturnType<Fleet['dataPools']>[number]) => {
    const cycle = cycleContaining(now().getTime());
    const used = fleet.poolUsage(pool.dataPoolId).reduce((sum, line) => sum + line.consumedGB, 0);
    const totalGB = pool.blocks.count * (pool.blocks.product.dataUnit === 'TB' ? pool.blocks.product.dataAmount * 1000 : pool.blocks.product.dataAmount);
    return {
      dataPoolId: pool.dataPoolId,
      nickname: pool.nickname,
      automaticTopUpEnabled: pool.automaticTopUpEnabled,
      // Lines on a pool without automatic top-up stop at its limit.
      restricted: !pool.automaticTopUpEnabled && used >= totalGB,
      dataProductType: 'Land',
      dataBlocks: [
        {
          productId: pool.blocks.product.productId,
          startDate: iso(cycle.startMs),
          endDate: iso(cycle.endMs),
          isPrepaid: false,
          blocksCount: pool.blocks.count,
          type: 'RecurringPerBillingCycle',
          dataAmountGB: totalGB / pool.blocks.count,
        },
      ],
      productId: pool.productId,
    };
  };

  const poolsAsked = (query: Query) => {
    const ids = listParam(query, 'dataPoolIds');
    const product = stringParam(query, 'productReferenceId');
    return fleet.dataPools().filter((pool) => (!ids || ids.includes(pool.dataPoolId)) && (!product || pool.productId === product));
  };

  serve(op.listDataPools, async (request) => {
    const pools = poolsAsked(request.query as Query);
    return ok(page(whole(pools), pageIndexOf(request), PAGE_SIZE, (k) => poolView(pools[k]!)));
  });

  serve(op.queryDataPoolUsage, async (request) => {
    const query = request.query as Query;
    const limit = intParam(query, 'limit', 50, 1, 100);
    const asOf = stringParam(query, 'asOfTimestamp');
    if (asOf !== undefined && Number.isNaN(Date.parse(asOf))) throw new WireError(400, `The value '${asOf}' is not valid for asOfTimestamp.`, ['asOfTimestamp']);
    if (asOf !== undefined && Date.parse(asOf) > now().getTime()) throw new WireError(400, 'asOfTimestamp must not be in the future', ['asOfTimestamp']);
    const pools = fleet.dataPools().filter((pool) => !listParam(query, 'dataPoolIds') || listParam(query, 'dataPoolIds')!.includes(pool.dataPoolId));
    const cycle = cycleContaining(now().getTime());
    return ok(
      page(whole(pools), pageIndexOf(request), limit, (k) => {
        const pool = pools[k]!;
        const view = poolView(pool);
        const block = view.dataBlocks[0]!;
        const lines = fleet.poolUsage(pool.dataPoolId).map((line) => ({ serviceLineNumber: line.serviceLineNumber, consumedAmountGB: line.consumedGB }));
        const total = block.dataAmountGB * block.blocksCount;
        return {
          dataPoolId: pool.dataPoolId,
          dataBlocks: [
            {
              startDate: block.startDate,
              endDate: block.endDate,
              totalAmountGB: total,
              consumedAmountGB: round2(Math.min(total, lines.reduce((sum, line) => sum + line.consumedAmountGB, 0))),
              perBlockAmountGB: block.dataAmountGB,
              dataBlockType: block.type,
              productId: block.productId,
              blocksCount: block.blocksCount,
              serviceLineUsage: lines,
              monthlyUsage: [{ startDate: iso(cycle.startMs), endDate: iso(cycle.endMs), serviceLineUsage: lines }],
            },
          ],
        };
      }),
    );
  });

  serve(op.setDataPoolAutomaticTopUp, async (request) => {
    const { dataPoolId } = request.params as { dataPoolId: string };
    return answer(fleet.setPoolAutomaticTopUp(dataPoolId, boolParam(request.query as Query, 'enabled') ?? true));
  });

  serve(op.setConsumeFromPool, async (request) => {
    const { serviceLineNumber } = request.params as { serviceLineNumber: string };
    return answer(fleet.setConsumeFromPool(serviceLineNumber, boolParam(request.query as Query, 'consumeFromPool') ?? true));
  });
}
