// Enterprise customers for administrators: list (search, status filters, paging), stats, detail,
// activity, create (with a password-setup link), edit, block/unblock, activate, extend, delete.
// Every change runs in one transaction with its audit row (before/after, never a hash or token).
// A block may also end the customer's service lines at the end of their cycles: after the block
// is committed, line by line through the service-lines service, each line's outcome in the answer.
import type { FastifyBaseLogger } from 'fastify';
import {
  CUSTOMER_FIELD_LIMITS,
  CUSTOMER_MESSAGES,
  isEmailAddress,
  paginationOf,
  validateCreateCustomer,
  type CreateCustomerPayload,
  type CustomerLineEnding,
  type CustomerListData,
  type CustomerListItem,
  type CustomerStats,
  type CustomerStatusFilter,
  type UpdateCustomerPayload,
} from '../../src/domain/customers';
import type { ActivityEntry } from '../../src/domain/dashboard';
import { DEACTIVATION_REASON_MAX_LENGTH, SERVICE_LINE_MESSAGES } from '../../src/domain/service-lines';
import { isoOrNull, type Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { CustomerRow, NewCustomerRow } from '../db/schema';
import { AppError, ConflictError, NotFoundError, type FieldError } from '../errors';
import { auditSource, type AuditService, type RequestContext } from './audit';
import { contactFieldsPatch, extendedExpiry, failValidation, optionalText } from './account-fields';
import type { LinkContext, PasswordSetupService } from './customers-password-setup';
import { describeActivity } from './dashboard-service';
import type { ServiceLinesService } from './service-lines';

/** Server-side messages the domain module does not carry (the client shows them as sent). */
export const CUSTOMER_SERVER_MESSAGES = {
  reasonWithoutBlock: 'Set blocked_enabled to true to block a customer; blocked_reason alone only edits the reason of a blocked customer',
  endLinesWithoutBlock: "end_lines_at_cycle_end goes with blocked_enabled true only: a customer's lines are ended as part of blocking them",
  lineEndingFailed: 'The line could not be set to end; check it on its Settings tab',
  blockedNoLink: 'This customer is blocked. Unblock the customer before sending a password setup link.',
  createdEmailFailed: (email: string, error: string) =>
    `Customer created, but the password setup email to ${email} could not be sent (${error}). Send a new link from the customer's actions.`,
  updated: 'Customer updated successfully',
  deleted: 'Customer deleted successfully',
  extended: (days: number) => `Account extended by ${days} day${days === 1 ? '' : 's'}`,
  linkSent: (email: string) => `Password setup link sent to ${email}`,
  linkFailed: (email: string, error: string) => `A new password setup link was created, but the email to ${email} could not be sent (${error})`,
} as const;

export interface CustomerListParams {
  page: number;
  limit: number;
  search?: string | undefined;
  isActive?: boolean | undefined;
  status?: CustomerStatusFilter | undefined;
}

/** Create input as received: strings may be missing (they then read as empty). */
export type CreateCustomerInput = Partial<Pick<CreateCustomerPayload, 'email' | 'name' | 'company'>> & { expirationDays: number };

export interface CustomerChange {
  customer: CustomerListItem;
  message: string;
}

/** An edit's answer: the change, and what became of each line a block asked to end (none otherwise). */
export interface CustomerUpdate extends CustomerChange {
  lineEndings: CustomerLineEnding[];
}

/** Who edits, from where, and where an unexpected failure on one line is logged. */
export type UpdateContext = RequestContext & { log?: Pick<FastifyBaseLogger, 'error'> };

/** The reason a blocked customer's line ends with, cut to the length the provider takes. */
export function blockedLineReason(blockReason: string): string {
  const reason = `Customer blocked: ${blockReason.trim()}`;
  return reason.length <= DEACTIVATION_REASON_MAX_LENGTH ? reason : `${reason.slice(0, DEACTIVATION_REASON_MAX_LENGTH - 1)}…`;
}

export interface CustomersService {
  list(params: CustomerListParams): Promise<CustomerListData>;
  stats(): Promise<CustomerStats>;
  get(id: string): Promise<CustomerListItem>;
  activity(id: string, limit: number): Promise<ActivityEntry[]>;
  create(input: CreateCustomerInput, context: LinkContext): Promise<CustomerChange>;
  update(id: string, payload: UpdateCustomerPayload, context: UpdateContext): Promise<CustomerUpdate>;
  remove(id: string, context: RequestContext): Promise<{ uuid: string }>;
  extend(id: string, days: number, context: RequestContext): Promise<CustomerChange>;
  sendPasswordLink(id: string, context: LinkContext): Promise<{ data: { email: string; expiresAt: string }; message: string }>;
}

/** Row → the API's customer. Only listed fields leave the server: no hash, no MFA secret. */
export function toCustomerListItem(row: CustomerRow): CustomerListItem {
  return {
    uuid: row.id,
    name: row.name,
    email: row.email,
    company: row.company,
    phone: row.phone,
    address: row.address,
    isActive: row.isActive,
    blockedEnabled: row.blockedEnabled,
    blockedReason: row.blockedReason,
    blockedAt: isoOrNull(row.blockedAt),
    mfaEnabled: row.mfaEnabled,
    accountExpiresAt: isoOrNull(row.accountExpiresAt),
    lastLogin: isoOrNull(row.lastLogin),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    hasPassword: row.passwordHash !== null,
  };
}

/** What the audit log keeps of a customer: the visible fields, never the hash or MFA secret. */
type AuditFields = Pick<
  CustomerListItem,
  'email' | 'name' | 'company' | 'phone' | 'address' | 'isActive' | 'blockedEnabled' | 'blockedReason' | 'accountExpiresAt'
>;
const AUDIT_KEYS = ['email', 'name', 'company', 'phone', 'address', 'isActive', 'blockedEnabled', 'blockedReason', 'accountExpiresAt'] as const;

function auditFields(row: CustomerRow): AuditFields {
  const item = toCustomerListItem(row);
  return Object.fromEntries(AUDIT_KEYS.map((k) => [k, item[k]])) as AuditFields;
}

/** The fields that differ, before and after; `email` is always there to say whose change it is. */
function auditDiff(before: CustomerRow, after: CustomerRow): { before: Record<string, unknown>; after: Record<string, unknown>; changed: string[] } {
  const a = auditFields(before);
  const b = auditFields(after);
  const changed = AUDIT_KEYS.filter((k) => a[k] !== b[k]);
  return {
    before: { email: a.email, ...Object.fromEntries(changed.map((k) => [k, a[k]])) },
    after: { email: b.email, ...Object.fromEntries(changed.map((k) => [k, b[k]])) },
    changed,
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return a === b;
}

export function createCustomersService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  passwordSetup: PasswordSetupService;
  now: Clock;
  /** A getter: the service-lines service is built after this one. */
  serviceLines: () => Pick<ServiceLinesService, 'deactivate'>;
}): CustomersService {
  const { db, repos, audit, passwordSetup, now } = deps;

  async function liveOr404(id: string, tx?: Db): Promise<CustomerRow> {
    const row = tx ? await repos.customers.findLiveByIdForUpdate(id, tx) : await repos.customers.findLiveById(id);
    if (!row) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
    return row;
  }

  /** Validates an edit; returns the column patch (before the blocked state is resolved). */
  function validateUpdate(payload: UpdateCustomerPayload): { patch: Partial<NewCustomerRow>; blockedReason: string | null | undefined } {
    const errors: FieldError[] = [];
    const patch: Partial<NewCustomerRow> = {};
    const L = CUSTOMER_FIELD_LIMITS;
    if (payload.name !== undefined) {
      const name = payload.name.trim();
      if (!name) errors.push({ path: 'name', message: CUSTOMER_MESSAGES.nameRequired });
      else if (name.length > L.name) errors.push({ path: 'name', message: CUSTOMER_MESSAGES.tooLong('Name', L.name) });
      else patch.name = name;
    }
    if (payload.company !== undefined) {
      const company = payload.company.trim();
      if (!company) errors.push({ path: 'company', message: CUSTOMER_MESSAGES.companyRequired });
      else if (company.length > L.company) errors.push({ path: 'company', message: CUSTOMER_MESSAGES.tooLong('Company name', L.company) });
      else patch.company = company;
    }
    if (payload.email !== undefined) {
      const email = payload.email.trim();
      if (!email) errors.push({ path: 'email', message: CUSTOMER_MESSAGES.emailRequired });
      else if (!isEmailAddress(email) || email.length > L.email) errors.push({ path: 'email', message: CUSTOMER_MESSAGES.emailInvalid });
      else patch.email = email.toLowerCase();
    }
    Object.assign(patch, contactFieldsPatch(payload, errors));
    const blockedReason = optionalText(payload.blocked_reason);
    if (blockedReason && blockedReason.length > L.blockedReason) {
      errors.push({ path: 'blocked_reason', message: CUSTOMER_MESSAGES.tooLong('Block reason', L.blockedReason) });
    } else if (payload.blocked_enabled === true && !blockedReason) {
      errors.push({ path: 'blocked_reason', message: CUSTOMER_MESSAGES.blockReasonRequired });
    }
    if (payload.end_lines_at_cycle_end === true && payload.blocked_enabled !== true) {
      errors.push({ path: 'end_lines_at_cycle_end', message: CUSTOMER_SERVER_MESSAGES.endLinesWithoutBlock });
    }
    if (payload.is_active !== undefined) patch.isActive = payload.is_active;
    if (errors.length > 0) failValidation(errors);
    return { patch, blockedReason };
  }

  /** Block, unblock, or edit the reason of a blocked customer. */
  function blockPatch(current: CustomerRow, payload: UpdateCustomerPayload, reason: string | null | undefined, at: Date): Partial<NewCustomerRow> {
    if (payload.blocked_enabled === true) {
      // Blocking again only replaces the reason; blocked_at keeps the first moment.
      return { blockedEnabled: true, blockedReason: reason ?? null, blockedAt: current.blockedEnabled ? current.blockedAt : at };
    }
    if (payload.blocked_enabled === false) return { blockedEnabled: false, blockedReason: null, blockedAt: null };
    if (payload.blocked_reason === undefined) return {};
    if (!current.blockedEnabled) failValidation([{ path: 'blocked_reason', message: CUSTOMER_SERVER_MESSAGES.reasonWithoutBlock }]);
    if (!reason) failValidation([{ path: 'blocked_reason', message: CUSTOMER_MESSAGES.blockReasonRequired }]);
    return { blockedReason: reason };
  }

  /** One line set to end at the end of its cycle; any failure is this line's outcome, never the request's. */
  async function endLine(serviceLineNumber: string, reason: string, context: UpdateContext): Promise<CustomerLineEnding | null> {
    try {
      await deps.serviceLines().deactivate(serviceLineNumber, { when: 'end_of_cycle', reason }, auditSource(context));
      return { serviceLineNumber, outcome: 'scheduled' };
    } catch (error) {
      if (error instanceof ConflictError && error.message === SERVICE_LINE_MESSAGES.alreadyEnding) return { serviceLineNumber, outcome: 'already_ending' };
      // The inventory was behind: the provider has the line ended already, so there is nothing to end.
      if (error instanceof ConflictError && error.message === SERVICE_LINE_MESSAGES.inactive) return null;
      if (error instanceof AppError) return { serviceLineNumber, outcome: 'failed', message: error.message };
      context.log?.error({ err: error, serviceLineNumber }, 'Ending a blocked customer’s service line failed');
      return { serviceLineNumber, outcome: 'failed', message: CUSTOMER_SERVER_MESSAGES.lineEndingFailed };
    }
  }

  /**
   * The customer's active lines set to end, one after another (the provider's rate limit is the
   * account's, and the answer keeps the lines' order); one line's failure does not stop the rest.
   */
  async function endLinesOf(customerId: string, blockReason: string, context: UpdateContext): Promise<CustomerLineEnding[]> {
    const reason = blockedLineReason(blockReason);
    const endings: CustomerLineEnding[] = [];
    for (const serviceLineNumber of await repos.serviceLines.activeLinesOfCustomer(customerId)) {
      const ending = await endLine(serviceLineNumber, reason, context);
      if (ending) endings.push(ending);
    }
    return endings;
  }

  function updateAction(before: CustomerRow, after: CustomerRow): string {
    if (before.blockedEnabled !== after.blockedEnabled) return after.blockedEnabled ? 'customer.blocked' : 'customer.unblocked';
    if (before.isActive !== after.isActive) return after.isActive ? 'customer.activated' : 'customer.deactivated';
    return 'customer.updated';
  }

  return {
    async list({ page, limit, search, isActive, status }) {
      const filter = { search: search ?? null, isActive: isActive ?? null, status: status ?? null, now: now() };
      const offset = (page - 1) * limit;
      const rows = await repos.customers.list(filter, { limit, offset });
      // A partly filled page (or an empty first page) already tells the total: no count needed.
      const total =
        (rows.length > 0 && rows.length < limit) || (rows.length === 0 && offset === 0)
          ? offset + rows.length
          : await repos.customers.count(filter);
      return {
        customers: rows.map(toCustomerListItem),
        pagination: paginationOf(total, page, limit),
      };
    },

    stats() {
      return repos.customers.stats(now());
    },

    async get(id) {
      return toCustomerListItem(await liveOr404(id));
    },

    async activity(id, limit) {
      await liveOr404(id);
      const entries = await repos.audit.listRecent(limit, { aboutCustomer: id });
      return entries.map((entry) => ({
        id: String(entry.id),
        action: entry.action,
        description: describeActivity(entry),
        actorName: entry.actorName,
        createdAt: entry.createdAt.toISOString(),
      }));
    },

    async create(input, context) {
      const payload = {
        email: input.email ?? '',
        name: input.name ?? '',
        company: input.company ?? '',
        expirationDays: input.expirationDays,
      };
      const fieldErrors = validateCreateCustomer(payload);
      const errors = (['company', 'name', 'email', 'expirationDays'] as const).flatMap((path) =>
        fieldErrors[path] ? [{ path, message: fieldErrors[path] }] : [],
      );
      if (errors.length > 0) failValidation(errors);

      const email = payload.email.trim().toLowerCase();
      const { row, mail } = await db.transaction(async (tx) => {
        const at = now();
        // The customer sign-in finds one account per email: an organisation's member's is taken too.
        if ((await repos.customers.emailTaken(email, null, tx)) || (await repos.customerMembers.memberEmailTaken(email, tx))) {
          throw new ConflictError(CUSTOMER_MESSAGES.duplicateEmail);
        }
        const created = await repos.customers.create(
          {
            email,
            name: payload.name.trim(),
            company: payload.company.trim(),
            passwordHash: null,
            // Pending until the customer chooses a password through the link.
            isActive: false,
            accountExpiresAt: extendedExpiry(null, at, payload.expirationDays),
            createdAt: at,
            updatedAt: at,
          },
          tx,
        );
        if (!created.ok) throw new ConflictError(CUSTOMER_MESSAGES.duplicateEmail);
        const issued = await passwordSetup.issue(created.row.id, tx);
        await audit.record(
          {
            ...auditSource(context),
            action: 'customer.created',
            targetType: 'customer',
            targetId: created.row.id,
            after: { ...auditFields(created.row), expirationDays: payload.expirationDays, passwordSetupExpiresAt: issued.expiresAt.toISOString() },
          },
          tx,
        );
        return { row: created.row, mail: await passwordSetup.recordLink(created.row, issued, 'created', context, tx) };
      });

      const message = await passwordSetup.deliverLink(mail, context, {
        sent: CUSTOMER_MESSAGES.created(row.email),
        failed: (error) => CUSTOMER_SERVER_MESSAGES.createdEmailFailed(row.email, error),
      });
      return { customer: toCustomerListItem(row), message };
    },

    async update(id, payload, context) {
      const { patch, blockedReason } = validateUpdate(payload);
      const change = await db.transaction(async (tx): Promise<CustomerChange> => {
        const at = now();
        const current = await liveOr404(id, tx);
        Object.assign(patch, blockPatch(current, payload, blockedReason, at));
        const newEmail = patch.email !== undefined && patch.email !== current.email ? patch.email : null;
        if (newEmail !== null && ((await repos.customers.emailTaken(newEmail, id, tx)) || (await repos.customerMembers.memberEmailTaken(newEmail, tx)))) {
          throw new ConflictError(CUSTOMER_MESSAGES.duplicateEmail);
        }
        const changes = Object.entries(patch).filter(([key, value]) => !sameValue(current[key as keyof CustomerRow], value));
        // Nothing changed: leave updated_at and the audit log alone.
        if (changes.length === 0) return { customer: toCustomerListItem(current), message: CUSTOMER_SERVER_MESSAGES.updated };
        const written = await repos.customers.updateLive(id, { ...Object.fromEntries(changes), updatedAt: at }, tx);
        if (!written) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
        if (!written.ok) throw new ConflictError(CUSTOMER_MESSAGES.duplicateEmail);
        const diff = auditDiff(current, written.row);
        // A link mailed to the old address must not keep working for whoever reads that mailbox.
        if (diff.changed.includes('email')) await repos.passwordSetupTokens.revokeUnused(id, at, tx);
        await audit.record(
          { ...auditSource(context), action: updateAction(current, written.row), targetType: 'customer', targetId: id, before: diff.before, after: diff.after },
          tx,
        );
        return { customer: toCustomerListItem(written.row), message: CUSTOMER_SERVER_MESSAGES.updated };
      });
      // Only once the block is committed: what the provider then does to a line cannot undo it.
      const lineEndings = payload.end_lines_at_cycle_end === true && blockedReason ? await endLinesOf(id, blockedReason, context) : [];
      return { ...change, lineEndings };
    },

    async remove(id, context) {
      return db.transaction(async (tx) => {
        const at = now();
        const current = await liveOr404(id, tx);
        // The row stays for the audit trail; the live-email index no longer counts it.
        await repos.customers.update(id, { deletedAt: at, updatedAt: at }, tx);
        await repos.passwordSetupTokens.revokeUnused(id, at, tx);
        await audit.record(
          {
            ...auditSource(context),
            action: 'customer.deleted',
            targetType: 'customer',
            targetId: id,
            before: auditFields(current),
            after: { email: current.email, deletedAt: at.toISOString() },
          },
          tx,
        );
        return { uuid: id };
      });
    },

    async extend(id, days, context) {
      return db.transaction(async (tx) => {
        const at = now();
        const current = await liveOr404(id, tx);
        const accountExpiresAt = extendedExpiry(current.accountExpiresAt, at, days);
        const written = await repos.customers.update(id, { accountExpiresAt, updatedAt: at }, tx);
        if (!written) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
        await audit.record(
          {
            ...auditSource(context),
            action: 'customer.extended',
            targetType: 'customer',
            targetId: id,
            before: { email: current.email, accountExpiresAt: isoOrNull(current.accountExpiresAt) },
            after: { email: written.email, accountExpiresAt: isoOrNull(written.accountExpiresAt), days },
          },
          tx,
        );
        return { customer: toCustomerListItem(written), message: CUSTOMER_SERVER_MESSAGES.extended(days) };
      });
    },

    async sendPasswordLink(id, context) {
      const { row, link, mail } = await db.transaction(async (tx) => {
        const current = await liveOr404(id, tx);
        if (current.blockedEnabled) throw new ConflictError(CUSTOMER_SERVER_MESSAGES.blockedNoLink);
        const issued = await passwordSetup.issue(id, tx);
        await audit.record(
          {
            ...auditSource(context),
            action: 'customer.password_link_sent',
            targetType: 'customer',
            targetId: id,
            after: { email: current.email, expiresAt: issued.expiresAt.toISOString() },
          },
          tx,
        );
        return { row: current, link: issued, mail: await passwordSetup.recordLink(current, issued, 'reissued', context, tx) };
      });
      const message = await passwordSetup.deliverLink(mail, context, {
        sent: CUSTOMER_SERVER_MESSAGES.linkSent(row.email),
        failed: (error) => CUSTOMER_SERVER_MESSAGES.linkFailed(row.email, error),
      });
      return { data: { email: row.email, expiresAt: link.expiresAt.toISOString() }, message };
    },
  };
}
