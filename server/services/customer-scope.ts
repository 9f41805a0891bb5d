// What a customer organisation's signed-in person may see and do in the customer area: their
// organisation, the lines they are limited to, and their role's reach (src/domain/members.ts).
// The customer-area routes take it from the principal; the admin's "View as customer" preview
// passes a bare customer id, which reads as the organisation's owner on every line.
import { canChangeLines, canManageTeam, canSeeStatements, MEMBER_MESSAGES, type MemberRole } from '../../src/domain/members';
import type { Principal } from '../auth/principal';
import { ForbiddenError } from '../errors';
import { CUSTOMERS_ONLY_MESSAGE } from '../plugins/auth';

export interface CustomerScope {
  customerId: string;
  role: MemberRole;
  /** null: every line of the organisation. */
  serviceLines: readonly string[] | null;
}

/** A customer id (the whole organisation, as its owner) or a person's scope. */
export type CustomerRef = string | CustomerScope;

export function scopeOf(ref: CustomerRef): CustomerScope {
  return typeof ref === 'string' ? { customerId: ref, role: 'owner', serviceLines: null } : ref;
}

/** The signed-in customer-side person's scope; 403 for anyone else. */
export function customerScopeOf(principal: Principal): CustomerScope {
  if (principal.type !== 'customer') throw new ForbiddenError(CUSTOMERS_ONLY_MESSAGE);
  if (!principal.member) return { customerId: principal.id, role: 'owner', serviceLines: null };
  return { customerId: principal.id, role: principal.member.role, serviceLines: principal.member.serviceLines };
}

/** Renames, reboots and requests: a viewer reads only. */
export function requireLineWriter(scope: CustomerScope): void {
  if (!canChangeLines({ organisationRole: scope.role })) throw new ForbiddenError(MEMBER_MESSAGES.viewerReadOnly);
}

/** The team is its owners' to manage. */
export function requireTeamOwner(scope: CustomerScope): void {
  if (!canManageTeam({ organisationRole: scope.role })) throw new ForbiddenError(MEMBER_MESSAGES.ownersOnly);
}

/** Statements are the whole organisation's money: not for a member limited to some lines. */
export function requireWholeOrganisation(scope: CustomerScope): void {
  if (!canSeeStatements(scope)) throw new ForbiddenError(MEMBER_MESSAGES.statementsWholeOrganisation);
}

/** Whether the scope reaches this line (an unassigned terminal's null line only on every line). */
export function reachesLine(scope: CustomerScope, serviceLineNumber: string | null): boolean {
  return scope.serviceLines === null || (serviceLineNumber !== null && scope.serviceLines.includes(serviceLineNumber));
}
