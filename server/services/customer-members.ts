// A customer organisation's team: its members and the invitations that bring them in.
//
// The organisation's own login (the customers row) is its owner and shows as the team's first,
// unremovable row. Others are invited by email: a random token (32 bytes, base64url) mailed to
// them, stored only as its SHA-256, accepted once within INVITATION_VALID_DAYS unless revoked.
// Accepting creates the member with the password chosen then, and marks the invitation used in
// the same transaction, by one conditional statement, so two acceptances cannot both succeed.
// The customer sign-in finds one account per email, so a member's email may belong to no live
// customer login nor other live member. Every change is audited, in its own transaction, against
// the organisation (target 'customer'), under the name of whoever made it.
import { randomBytes } from 'node:crypto';
import {
  INVITATION_VALID_DAYS,
  MAX_TEAM_SIZE,
  MEMBER_MESSAGES as M,
  MEMBER_ROLE_LABELS,
  RECENT_INVITATION_DAYS,
  invitationProblems,
  memberNameProblem,
  serviceLinesProblem,
  type AcceptInvitationPayload,
  type InvitationInfoWire,
  type InvitationStatus,
  type InvitePayload,
  type MemberPatchPayload,
  type TeamInvitationWire,
  type TeamMemberWire,
  type TeamWire,
} from '../../src/domain/members';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { newPasswordProblem, PASSWORD_MESSAGES } from '../../src/domain/password';
import { hashPassword } from '../auth/passwords';
import { isoOrNull, type Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { CustomerInvitationRow, CustomerMemberRow, CustomerRow } from '../db/schema';
import { invitationEmail } from '../email/templates';
import { BadRequestError, ConflictError, NotFoundError, type FieldError } from '../errors';
import { failValidation } from './account-fields';
import type { Actor, AuditService, RequestContext } from './audit';
import { GoneError, hashSetupToken, type LinkContext } from './customers-password-setup';
import type { EmailSender } from './email';

const DAY_MS = 86_400_000;
const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const INVITATION_PATH = '/invitation';

export interface CustomerMembersService {
  team(customerId: string): Promise<TeamWire>;
  /** Answers the new invitation and what to tell whoever invited (sent, or why the email did not go). */
  invite(customerId: string, payload: InvitePayload, context: LinkContext): Promise<{ invitation: TeamInvitationWire; message: string }>;
  revokeInvitation(customerId: string, invitationId: string, context: RequestContext): Promise<TeamInvitationWire>;
  updateMember(customerId: string, memberId: string, patch: MemberPatchPayload, context: RequestContext): Promise<TeamMemberWire>;
  removeMember(customerId: string, memberId: string, context: RequestContext): Promise<void>;
  /** Public: who invites whom, while the invitation can be accepted (404 unknown, 410 used/expired/revoked). */
  describeInvitation(token: string): Promise<InvitationInfoWire>;
  /** Public: the member the invitation makes, with their own name and password. */
  acceptInvitation(token: string, payload: AcceptInvitationPayload, context: Pick<RequestContext, 'ip' | 'requestId'>): Promise<{ email: string }>;
}

/** The invitation page's address for a token: under PUBLIC_URL when set, else the request's origin. */
export function invitationUrl(publicUrl: string | null | undefined, origin: string, token: string): string {
  const base = publicUrl ?? origin.replace(/\/+$/, '');
  return `${base}${INVITATION_PATH}/${encodeURIComponent(token)}`;
}

export function invitationStatus(row: Pick<CustomerInvitationRow, 'usedAt' | 'revokedAt' | 'expiresAt'>, at: Date): InvitationStatus {
  if (row.usedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= at.getTime() ? 'expired' : 'pending';
}

function toInvitationWire(row: CustomerInvitationRow, at: Date): TeamInvitationWire {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    serviceLines: row.serviceLines,
    status: invitationStatus(row, at),
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** A team row from a login: a member's, or the organisation's own with the seat it always has. */
function teamRowWire(
  row: Pick<CustomerMemberRow | CustomerRow, 'id' | 'name' | 'email' | 'mfaEnabled' | 'lastLogin' | 'createdAt'>,
  seat: Pick<TeamMemberWire, 'original' | 'role' | 'serviceLines'>,
): TeamMemberWire {
  return {
    id: row.id,
    original: seat.original,
    name: row.name,
    email: row.email,
    role: seat.role,
    serviceLines: seat.serviceLines,
    mfaEnabled: row.mfaEnabled,
    lastLogin: isoOrNull(row.lastLogin),
    createdAt: row.createdAt.toISOString(),
  };
}

const toMemberWire = (row: CustomerMemberRow): TeamMemberWire => teamRowWire(row, { original: false, role: row.role, serviceLines: row.serviceLines });

/** The organisation's own login, as the team's first row. */
const originalOwnerWire = (row: CustomerRow): TeamMemberWire => teamRowWire(row, { original: true, role: 'owner', serviceLines: null });

/** The lines as stored: in order, each once; null stays null (every line). */
const normaliseLines = (lines: readonly string[] | null): string[] | null => (lines === null ? null : [...new Set(lines.map((l) => l.trim()))].sort());

export function createCustomerMembersService(deps: {
  db: Db;
  repos: Repositories;
  audit: AuditService;
  email: EmailSender;
  config: Pick<Config, 'publicUrl'>;
  now: Clock;
}): CustomerMembersService {
  const { db, repos, audit, email, config, now } = deps;
  const store = repos.customerMembers;

  async function organisation(customerId: string, tx?: Db): Promise<CustomerRow> {
    const row = await repos.customers.findLiveById(customerId, tx);
    if (!row) throw new NotFoundError(CUSTOMER_MESSAGES.notFound);
    return row;
  }

  /** 400 unless every line is one the organisation holds now. */
  async function requireOwnLines(customerId: string, lines: readonly string[] | null): Promise<void> {
    if (lines === null) return;
    const held = new Set((await store.linesOfCustomer(customerId)).map((l) => l.serviceLineNumber));
    const foreign = lines.find((line) => !held.has(line));
    if (foreign !== undefined) failValidation([{ path: 'serviceLines', message: M.lineNotOurs(foreign) }]);
  }

  /** The name the invitation email gives for whoever invited. */
  async function inviterName(actor: Actor, company: string): Promise<string> {
    if (actor.type === 'user') return (await repos.users.findLiveById(actor.id))?.name ?? 'Your provider';
    if (actor.type === 'member') return (await store.findLiveById(actor.id))?.name ?? company;
    if (actor.type === 'customer') return (await repos.customers.findLiveById(actor.id))?.name ?? company;
    return 'Your provider';
  }

  // A rule or a schedule never invites anyone; were one to, the portal itself is the inviter.
  const inviter = (actor: Actor) =>
    'id' in actor && actor.type !== 'rule' && actor.type !== 'schedule' ? { invitedByType: actor.type, invitedById: actor.id } : { invitedByType: 'system' as const, invitedById: null };

  /** The live member of this organisation, or 404; the organisation's own login cannot be changed. */
  async function memberOf(customerId: string, memberId: string): Promise<CustomerMemberRow> {
    if (memberId === customerId) throw new ConflictError(M.originalOwner);
    const row = await store.findOfCustomer(memberId, customerId);
    if (!row) throw new NotFoundError(M.memberNotFound);
    return row;
  }

  /** The invitation a token names, while it can be accepted; otherwise the error saying why not. */
  async function usableInvitation(token: string, at: Date, tx: Db = db): Promise<{ row: CustomerInvitationRow; customer: CustomerRow }> {
    if (!TOKEN_PATTERN.test(token)) throw new NotFoundError(M.invitationInvalid);
    const row = await store.findInvitationByHash(hashSetupToken(token), tx);
    if (!row) throw new NotFoundError(M.invitationInvalid);
    const status = invitationStatus(row, at);
    if (status === 'accepted') throw new GoneError(M.invitationUsed);
    if (status === 'revoked') throw new GoneError(M.invitationRevoked);
    if (status === 'expired') throw new GoneError(M.invitationExpired);
    const customer = await repos.customers.findLiveById(row.customerId, tx);
    // A deleted or blocked organisation takes no one in.
    if (!customer || customer.blockedEnabled) throw new GoneError(M.organisationUnavailable);
    return { row, customer };
  }

  const auditTeam = (context: RequestContext, customerId: string, change: { action: string; before?: unknown; after?: unknown }, tx: Db) =>
    // The callers name their actions as `action: '…'` literals, where the audit-actions check reads them.
    audit.record({ ...context, targetType: 'customer', targetId: customerId, before: null, after: null, ...change }, tx);

  return {
    async team(customerId) {
      const at = now();
      const customer = await organisation(customerId);
      const [members, invitations, lines] = await Promise.all([
        store.ofCustomer(customerId),
        store.invitationsOf(customerId, at, new Date(at.getTime() - RECENT_INVITATION_DAYS * DAY_MS)),
        store.linesOfCustomer(customerId),
      ]);
      const wires = invitations.map((row) => toInvitationWire(row, at));
      return {
        company: customer.company,
        members: [originalOwnerWire(customer), ...members.map(toMemberWire)],
        // Pending first (the ones to act on), each group newest first.
        invitations: [...wires.filter((w) => w.status === 'pending'), ...wires.filter((w) => w.status !== 'pending')],
        lines,
      };
    },

    async invite(customerId, payload, context) {
      const problems = invitationProblems(payload);
      const errors: FieldError[] = Object.entries(problems).map(([path, message]) => ({ path, message }));
      if (errors.length > 0) failValidation(errors);
      const address = payload.email.trim().toLowerCase();
      const name = payload.name.trim();
      const serviceLines = normaliseLines(payload.serviceLines);
      const customer = await organisation(customerId);
      await requireOwnLines(customerId, serviceLines);
      if (await store.emailTaken(address)) throw new ConflictError(M.emailTaken, { errors: [{ path: 'email', message: M.emailTaken }] });
      const who = await inviterName(context.actor, customer.company);

      const token = randomBytes(TOKEN_BYTES).toString('base64url');
      const url = invitationUrl(config.publicUrl, context.origin, token);
      const { row, recorded } = await db.transaction(async (tx) => {
        const at = now();
        // A new invitation to the same person replaces the one still waiting.
        const replaced = await store.revokePendingTo(customerId, address, at, tx);
        if ((await store.teamSize(customerId, at, tx)) >= MAX_TEAM_SIZE) throw new ConflictError(M.teamFull);
        const expiresAt = new Date(at.getTime() + INVITATION_VALID_DAYS * DAY_MS);
        const inserted = await store.insertInvitation(
          { customerId, email: address, name, role: payload.role, serviceLines, tokenHash: hashSetupToken(token), expiresAt, createdAt: at, ...inviter(context.actor) },
          tx,
        );
        await auditTeam(context, customerId, { action: 'member.invited', after: { invitationId: inserted.id, email: address, name, role: payload.role, serviceLines, replaced } }, tx);
        const message = invitationEmail({ name, company: customer.company, inviter: who, role: MEMBER_ROLE_LABELS[payload.role].toLowerCase(), link: url, expiresAt, validDays: INVITATION_VALID_DAYS });
        return { row: inserted, recorded: await email.record({ to: address, ...message }, tx) };
      });
      const delivery = await email.deliver(recorded, { log: context.log, logFields: { link: url, requestId: context.requestId } });
      const message = delivery.status === 'failed' ? M.invitedNotSent(address, delivery.error ?? 'unknown error') : M.invited(address);
      return { invitation: toInvitationWire(row, now()), message };
    },

    async revokeInvitation(customerId, invitationId, context) {
      await organisation(customerId);
      const existing = await store.findInvitationOfCustomer(invitationId, customerId);
      if (!existing) throw new NotFoundError(M.invitationNotFound);
      const revoked = await db.transaction(async (tx) => {
        const row = await store.revokeInvitation(invitationId, customerId, now(), tx);
        if (!row) return null;
        await auditTeam(context, customerId, { action: 'member.invitation_revoked', before: { invitationId, email: row.email, status: 'pending' }, after: { status: 'revoked' } }, tx);
        return row;
      });
      if (!revoked) throw new ConflictError(M.invitationNotPending);
      return toInvitationWire(revoked, now());
    },

    async updateMember(customerId, memberId, patch, context) {
      await organisation(customerId);
      const current = await memberOf(customerId, memberId);
      if (patch.role === undefined && patch.serviceLines === undefined) throw new BadRequestError(M.nothingToChange);
      const change: { role?: CustomerMemberRow['role']; serviceLines?: string[] | null } = {};
      if (patch.role !== undefined) change.role = patch.role;
      if (patch.serviceLines !== undefined) {
        const problem = serviceLinesProblem(patch.serviceLines);
        if (problem) failValidation([{ path: 'serviceLines', message: problem }]);
        change.serviceLines = normaliseLines(patch.serviceLines);
        await requireOwnLines(customerId, change.serviceLines);
      }
      const updated = await db.transaction(async (tx) => {
        const row = await store.updateSeat(memberId, customerId, change, now(), tx);
        if (!row) throw new NotFoundError(M.memberNotFound);
        await auditTeam(
          context,
          customerId,
          {
            action: 'member.updated',
            before: { memberId, email: current.email, role: current.role, serviceLines: current.serviceLines },
            after: { memberId, email: row.email, role: row.role, serviceLines: row.serviceLines },
          },
          tx,
        );
        return row;
      });
      return toMemberWire(updated);
    },

    async removeMember(customerId, memberId, context) {
      await organisation(customerId);
      await memberOf(customerId, memberId);
      await db.transaction(async (tx) => {
        const row = await store.remove(memberId, customerId, now(), tx);
        if (!row) throw new NotFoundError(M.memberNotFound);
        await auditTeam(context, customerId, { action: 'member.removed', before: { memberId, email: row.email, name: row.name, role: row.role, serviceLines: row.serviceLines } }, tx);
      });
    },

    async describeInvitation(token) {
      const { row, customer } = await usableInvitation(token, now());
      return { email: row.email, name: row.name, company: customer.company, role: row.role, expiresAt: row.expiresAt.toISOString() };
    },

    async acceptInvitation(token, payload, context) {
      // The invitation is checked first: a password cannot fix a dead link.
      const { row } = await usableInvitation(token, now());
      const name = payload.name?.trim() ? payload.name.trim() : row.name;
      const errors: FieldError[] = [];
      const nameProblem = memberNameProblem(name);
      if (nameProblem) errors.push({ path: 'name', message: nameProblem });
      const password = payload.password ?? '';
      const confirmPassword = payload.confirmPassword ?? password;
      const problem = newPasswordProblem(password, confirmPassword);
      if (problem) errors.push({ path: problem === PASSWORD_MESSAGES.mismatch ? 'confirmPassword' : 'password', message: problem });
      if (errors.length > 0) failValidation(errors);
      if (await store.emailTaken(row.email)) throw new ConflictError(M.emailTaken);

      // Hash outside the transaction: PGlite has one connection, and nobody should wait on Argon2.
      const passwordHash = await hashPassword(password);
      return db.transaction(async (tx) => {
        const at = now();
        const consumed = await store.consumeInvitation(hashSetupToken(token), at, tx);
        if (!consumed) {
          // Used (or revoked, or expired) since the check above: say which it is now.
          await usableInvitation(token, at, tx);
          throw new GoneError(M.invitationUsed);
        }
        // Throwing from here on rolls the consumption back: the invitation stays usable.
        const customer = await repos.customers.findLiveById(consumed.customerId, tx);
        if (!customer || customer.blockedEnabled) throw new GoneError(M.organisationUnavailable);
        if (await repos.customers.findByEmail(consumed.email, tx)) throw new ConflictError(M.emailTaken);
        const inserted = await store.insert(
          {
            customerId: consumed.customerId,
            role: consumed.role,
            serviceLines: consumed.serviceLines,
            email: consumed.email,
            name,
            passwordHash,
            passwordChangedAt: at,
            createdAt: at,
            updatedAt: at,
          },
          tx,
        );
        if (!inserted.ok) throw new ConflictError(M.emailTaken);
        await store.linkInvitation(consumed.id, inserted.row.id, tx);
        await auditTeam(
          { actor: { type: 'member', id: inserted.row.id }, ip: context.ip, requestId: context.requestId },
          consumed.customerId,
          { action: 'member.joined', after: { invitationId: consumed.id, memberId: inserted.row.id, email: inserted.row.email, name, role: inserted.row.role, serviceLines: inserted.row.serviceLines } },
          tx,
        );
        return { email: inserted.row.email };
      });
    },
  };
}
