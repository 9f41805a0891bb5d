// Customer requests: a customer asks for a plan change or a top-up on a line of theirs,
// checked against the line as the provider has it now (active, not ending, what its plan sells,
// the top-up blocks this cycle still allows); an admin approves it — the change runs through the
// same services as the admin's own Change Plan and Top-up, with the admin's audit context — or
// declines it with a reason; the customer may cancel it while it waits.
//
// Customer methods take the customer's id from the token and answer 404 for any line or request
// that is not theirs, with the same message as an unknown one.
import { allows, ROLE_MESSAGES, type Permission } from '../../src/domain/permissions';
import {
  REQUEST_MESSAGES as M,
  describeAsked,
  topUpPrice,
  type CustomerRequestWire,
  type MyRequestsWire,
  type NewRequestPayload,
  type QueuedRequestWire,
  type RequestOptionsWire,
  type RequestQueueWire,
  type RequestStatusFilter,
} from '../../src/domain/requests';
import type { DataProductWire, ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { DEFAULT_CURRENCY } from '../../src/domain/subscriptions';
import type { Db } from '../db/client';
import { requestDecidedEmail } from '../email/templates';
import { paginationOf } from '../../src/domain/customers';
import type { Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import type { QueueRow, RequestListRow } from '../db/repositories/customer-requests';
import type { StoredProduct } from '../db/repositories/subscriptions';
import type { CustomerRequestRow } from '../db/schema';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, fieldError } from '../errors';
import type { AuditService, RequestContext } from './audit';
import { reachesLine, requireLineWriter, scopeOf, type CustomerRef, type CustomerScope } from './customer-scope';
import type { EmailLogger, EmailSender, RecordedEmail } from './email';
import type { ServiceLinesService } from './service-lines';
import { planProducts } from './service-lines';
import type { SubscriptionsService } from './subscriptions';
import { productDataGB } from './subscriptions';
import { requestIntentKey } from './provider-intents';

/**
 * How long an approval's claim holds before another admin may take the request again: past the
 * provider client's worst case for one call (15 s attempts, up to 10 retries with back-off capped
 * at 30 s), so a slow call is never run twice; a server that died mid-call frees it after this.
 */
export const APPROVAL_CLAIM_MS = 10 * 60_000;

export interface QueueQuery {
  status: RequestStatusFilter;
  page: number;
  limit: number;
  /** Only the requests about this provider account's lines (the counts too). */
  account_id?: number | undefined;
}

export interface CustomerRequestsService {
  mine(customer: CustomerRef): Promise<MyRequestsWire>;
  options(customer: CustomerRef, serviceLineNumber: string): Promise<RequestOptionsWire>;
  create(customer: CustomerRef, payload: NewRequestPayload, context: RequestContext): Promise<CustomerRequestWire>;
  cancel(customer: CustomerRef, id: string, context: RequestContext): Promise<CustomerRequestWire>;
  queue(query: QueueQuery): Promise<RequestQueueWire>;
  /** `mail.log`: where to log the customer's email when it cannot be sent (the request's log). */
  approve(id: string, approver: { id: string; permissions: readonly Permission[] }, context: RequestContext, mail?: { log: EmailLogger }): Promise<QueuedRequestWire>;
  decline(id: string, approverId: string, reason: string, context: RequestContext, mail?: { log: EmailLogger }): Promise<QueuedRequestWire>;
}

/** What the stored products say about the products requests name: plans by id, top-ups by id. */
interface Catalogue {
  plans: Map<string, StoredProduct>;
  topUps: Map<string, DataProductWire>;
}
/** Each provider account prices its own products: the catalogue of each account asked for. */
type Catalogues = ReadonlyMap<number, Catalogue>;
/** A line the portal no longer knows has no account, and its request no prices. */
const NO_CATALOGUE: Catalogue = { plans: new Map(), topUps: new Map() };

export function createCustomerRequestsService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  subscriptions: Pick<SubscriptionsService, 'plans' | 'changePlan'>;
  serviceLines: Pick<ServiceLinesService, 'settings' | 'topUp'>;
  /** Tells the customer of a decision, through the outbox, in the decision's transaction. */
  email?: EmailSender;
}): CustomerRequestsService {
  const { repos, audit, now } = deps;
  const store = repos.customerRequests;
  const staleBefore = () => new Date(now().getTime() - APPROVAL_CLAIM_MS);

  /** The catalogues of the accounts of these requests' lines. */
  async function catalogue(rows: readonly { lineAccountId: number | null }[], tx?: Db): Promise<Catalogues> {
    const ids = [...new Set(rows.map((row) => row.lineAccountId).filter((id): id is number => id !== null))];
    const entries = await Promise.all(
      ids.map(async (accountId): Promise<[number, Catalogue]> => {
        const products = await repos.subscriptions.liveProducts(accountId, tx);
        const topUps = new Map<string, DataProductWire>();
        for (const product of products) {
          const topUp = planProducts(product).topUpProduct;
          if (topUp && !topUps.has(topUp.productId)) topUps.set(topUp.productId, topUp);
        }
        return [accountId, { plans: new Map(products.map((p) => [p.productReferenceId, p])), topUps }];
      }),
    );
    return new Map(entries);
  }

  /** A claim is an implementation detail: while it holds, the request is still pending to everyone. */
  const decidedAtOf = (row: CustomerRequestRow) => (row.status === 'pending' ? null : (row.decidedAt?.toISOString() ?? null));

  function toWire(row: RequestListRow, catalogues: Catalogues): CustomerRequestWire {
    const known = (row.lineAccountId !== null ? catalogues.get(row.lineAccountId) : undefined) ?? NO_CATALOGUE;
    const plan = row.kind === 'plan_change' ? known.plans.get(row.productId) : undefined;
    const topUp = row.kind === 'top_up' ? known.topUps.get(row.productId) : undefined;
    const count = row.blockCount ?? 1;
    return {
      id: row.id,
      kind: row.kind,
      serviceLineNumber: row.serviceLineNumber,
      terminalNickname: row.terminalNickname,
      plan:
        row.kind === 'plan_change'
          ? {
              productReferenceId: row.productId,
              name: plan?.name ?? null,
              monthlyDataGB: plan ? productDataGB(plan) : null,
              price: plan?.price ?? null,
              currency: plan ? (plan.isoCurrencyCode ?? DEFAULT_CURRENCY) : null,
            }
          : null,
      topUp:
        row.kind === 'top_up'
          ? { productId: row.productId, count, dataGB: topUp ? topUp.dataGB * count : null, price: topUp ? topUpPrice(topUp, count) : null, currency: topUp?.currency ?? null }
          : null,
      note: row.note,
      status: row.status,
      reason: row.decisionReason,
      createdAt: row.createdAt.toISOString(),
      decidedAt: decidedAtOf(row),
    };
  }

  function toQueued(row: QueueRow, known: Catalogues): QueuedRequestWire {
    return {
      ...toWire(row, known),
      customer: { uuid: row.customerId, name: row.customerName, company: row.customerCompany },
      decidedBy: row.decidedByName,
      accountId: row.accountId,
      accountName: row.accountName,
    };
  }

  async function queued(id: string): Promise<QueuedRequestWire> {
    const row = await store.queueRow(id);
    if (!row) throw new NotFoundError(M.requestNotFound);
    return toQueued(row, await catalogue([row]));
  }

  /**
   * The line as the provider has it now, when it is this customer's (and one of the member's lines,
   * for a member limited to some); 404 otherwise, as for an unknown line.
   */
  async function lineOf(scope: CustomerScope, serviceLineNumber: string): Promise<ServiceLineSettingsWire> {
    if (!reachesLine(scope, serviceLineNumber)) throw new NotFoundError(M.lineNotFound);
    if (!(await store.holdsLine(scope.customerId, serviceLineNumber))) throw new NotFoundError(M.lineNotFound);
    return deps.serviceLines.settings(serviceLineNumber);
  }

  function requireOpen(settings: ServiceLineSettingsWire): void {
    if (!settings.active) throw new ConflictError(M.lineInactive);
    if (settings.endDate) throw new ConflictError(M.lineEnding);
  }

  /** Why a pending request could not be taken: decided meanwhile, or an approval has it. */
  async function undecidable(row: CustomerRequestRow): Promise<never> {
    const fresh = await store.findById(row.id);
    if (fresh && fresh.status !== 'pending') throw new ConflictError(M.alreadyDecided(fresh.status));
    throw new ConflictError(M.beingDecided);
  }

  async function pendingOrRefuse(id: string): Promise<CustomerRequestRow> {
    const row = await store.findById(id);
    if (!row) throw new NotFoundError(M.requestNotFound);
    if (row.status !== 'pending') throw new ConflictError(M.alreadyDecided(row.status));
    return row;
  }

  /** Records the customer's email about a decision in `tx`; null when there is no one to tell. */
  async function recordDecisionEmail(row: CustomerRequestRow, decision: 'approved' | 'declined', reason: string | null, tx: Db): Promise<RecordedEmail | null> {
    if (!deps.email) return null;
    const contact = await store.contactOf(row.customerId, tx);
    if (!contact) return null;
    const listed = { ...row, terminalNickname: null, lineAccountId: await store.accountOfLine(row.serviceLineNumber, tx) };
    const asked = describeAsked(toWire(listed, await catalogue([listed], tx)));
    return deps.email.record({ to: contact.email, ...requestDecidedEmail({ name: contact.name, asked, serviceLineNumber: row.serviceLineNumber, decision, reason }) }, tx);
  }

  /** Sends a recorded decision email after the commit; a failure is logged, never the decision's. */
  function deliver(recorded: RecordedEmail | null, mail: { log: EmailLogger } | undefined, context: RequestContext): void {
    if (recorded && mail && deps.email) void deps.email.deliver(recorded, { log: mail.log, logFields: { requestId: context.requestId } });
  }

  return {
    async mine(customer) {
      const { customerId, serviceLines } = scopeOf(customer);
      const [rows, lines] = await Promise.all([store.ofCustomer(customerId, undefined, serviceLines), store.linesOfCustomer(customerId, undefined, serviceLines)]);
      const known = await catalogue(rows);
      return { requests: rows.map((row) => toWire(row, known)), lines };
    },

    async options(customer, serviceLineNumber) {
      const settings = await lineOf(scopeOf(customer), serviceLineNumber);
      requireOpen(settings);
      // The plans of the line's own provider account (each account lists and prices its own).
      const account = await store.accountOfLine(serviceLineNumber);
      const plans = (await deps.subscriptions.plans(account ?? undefined)).filter((p) => p.productReferenceId !== settings.productReferenceId);
      return {
        serviceLineNumber,
        currentPlan: { productReferenceId: settings.productReferenceId, name: settings.planName },
        plans,
        topUp: settings.topUpProduct ? { product: settings.topUpProduct, blocksLeft: settings.topUpBlocksLeft } : null,
      };
    },

    async create(customer, payload, context) {
      const scope = scopeOf(customer);
      requireLineWriter(scope);
      const { customerId } = scope;
      const settings = await lineOf(scope, payload.serviceLineNumber);
      requireOpen(settings);
      if (payload.kind === 'plan_change') {
        if (payload.productId === settings.productReferenceId) throw new ConflictError(M.samePlan);
        const offered = await deps.subscriptions.plans((await store.accountOfLine(payload.serviceLineNumber)) ?? undefined);
        if (!offered.some((p) => p.productReferenceId === payload.productId)) throw fieldError('productId', M.planNotOffered);
      } else {
        if (!settings.topUpProduct) throw fieldError('productId', M.noTopUp);
        if (settings.topUpProduct.productId !== payload.productId) throw fieldError('productId', M.unknownTopUp);
        if (payload.count > settings.topUpBlocksLeft) throw fieldError('count', M.topUpLimit(settings.topUpBlocksLeft));
      }
      const note = payload.note?.trim() || null;
      const at = now();
      const row = await store.transaction(async (tx) => {
        const inserted = await store.insert(
          {
            customerId,
            serviceLineNumber: payload.serviceLineNumber,
            kind: payload.kind,
            productId: payload.productId,
            blockCount: payload.kind === 'top_up' ? payload.count : null,
            note,
          },
          at,
          tx,
        );
        if (!inserted.ok) throw new ConflictError(M.pendingExists(payload.kind));
        await audit.record(
          {
            ...context,
            action: 'customer_request.created',
            targetType: 'customer_request',
            targetId: inserted.row.id,
            after: { serviceLineNumber: payload.serviceLineNumber, kind: payload.kind, productId: payload.productId, count: inserted.row.blockCount, note },
          },
          tx,
        );
        return inserted.row;
      });
      const mine = (await store.findOfCustomer(row.id, customerId))!;
      return toWire(mine, await catalogue([mine]));
    },

    async cancel(customer, id, context) {
      const scope = scopeOf(customer);
      requireLineWriter(scope);
      const { customerId } = scope;
      const row = await store.findOfCustomer(id, customerId);
      if (!row || !reachesLine(scope, row.serviceLineNumber)) throw new NotFoundError(M.requestNotFound);
      if (row.status !== 'pending') throw new ConflictError(M.alreadyDecided(row.status));
      const done = await store.transaction(async (tx) => {
        if (!(await store.cancel(id, customerId, now(), staleBefore(), tx))) return false;
        await audit.record({ ...context, action: 'customer_request.cancelled', targetType: 'customer_request', targetId: id, before: { status: 'pending' }, after: { status: 'cancelled' } }, tx);
        return true;
      });
      if (!done) await undecidable(row);
      const cancelled = (await store.findOfCustomer(id, customerId))!;
      return toWire(cancelled, await catalogue([cancelled]));
    },

    async queue({ status, page, limit, account_id }) {
      const accountId = account_id ?? null;
      const [{ rows, total }, counts] = await Promise.all([store.page({ status, accountId, limit, offset: (page - 1) * limit }), store.counts(accountId)]);
      const known = await catalogue(rows);
      return { requests: rows.map((row) => toQueued(row, known)), pagination: paginationOf(total, page, limit), counts };
    },

    async approve(id, approver, context, mail) {
      const row = await pendingOrRefuse(id);
      // Approving runs the change itself: it needs what the change's own route needs (a top-up is
      // bought under lifecycle:manage, a plan change under subscriptions:manage); a request does not widen that.
      const needed: Permission = row.kind === 'top_up' ? 'lifecycle:manage' : 'subscriptions:manage';
      if (!allows(approver.permissions, needed)) throw new ForbiddenError(ROLE_MESSAGES.forbidden(needed));
      const claimedAt = now();
      const claimed = await store.claim(id, approver.id, claimedAt, staleBefore());
      if (!claimed) return undecidable(row);
      try {
        if (!(await store.holdsLine(row.customerId, row.serviceLineNumber))) throw new ConflictError(M.lineNoLongerTheirs);
        requireOpen(await deps.serviceLines.settings(row.serviceLineNumber));
        // One write per request, whoever approves it and however often: an approval taken again
        // after a server died mid-call looks the first attempt up at the provider before sending.
        const intentKey = requestIntentKey(id);
        if (row.kind === 'plan_change') {
          await deps.subscriptions.changePlan({ serviceLineNumber: row.serviceLineNumber, productReferenceId: row.productId }, context, { intentKey });
        } else {
          await deps.serviceLines.topUp(row.serviceLineNumber, { productId: row.productId, count: row.blockCount ?? 1 }, context, { intentKey });
        }
      } catch (error) {
        // The request waits again, for another try or a decline; the admin reads why.
        await store.release(id, claimedAt);
        // Our own checks on the admin's behalf (the line or the request no longer fit) are about
        // the request's state, not a malformed call: a conflict, in the check's words.
        if (error instanceof BadRequestError || error instanceof NotFoundError) throw new ConflictError(error.message, { cause: error });
        throw error;
      }
      const recorded = await store.transaction(async (tx) => {
        const approved = await store.approve(id, approver.id, claimedAt, now(), tx);
        // Only a claim older than APPROVAL_CLAIM_MS can be lost, and then the change is made: say so.
        if (!approved) throw new ConflictError(M.beingDecided);
        await audit.record(
          {
            ...context,
            action: 'customer_request.approved',
            targetType: 'customer_request',
            targetId: id,
            before: { status: 'pending' },
            after: { status: 'approved', customerId: row.customerId, serviceLineNumber: row.serviceLineNumber, kind: row.kind, productId: row.productId, count: row.blockCount },
          },
          tx,
        );
        return recordDecisionEmail(row, 'approved', null, tx);
      });
      deliver(recorded, mail, context);
      return queued(id);
    },

    async decline(id, approverId, reason, context, mail) {
      const row = await pendingOrRefuse(id);
      const why = reason.trim();
      const done = await store.transaction(async (tx) => {
        if (!(await store.decline(id, approverId, why, now(), staleBefore(), tx))) return false;
        await audit.record(
          {
            ...context,
            action: 'customer_request.declined',
            targetType: 'customer_request',
            targetId: id,
            before: { status: 'pending' },
            after: { status: 'declined', reason: why, customerId: row.customerId, serviceLineNumber: row.serviceLineNumber, kind: row.kind },
          },
          tx,
        );
        return { recorded: await recordDecisionEmail(row, 'declined', why, tx) };
      });
      if (!done) return undecidable(row);
      deliver(done.recorded, mail, context);
      return queued(id);
    },
  };
}
