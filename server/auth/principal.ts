import type { MemberRole } from '../../src/domain/members';
import type { Permission } from '../../src/domain/permissions';
import { isPermission } from '../../src/domain/permissions';

/**
 * A portal user acting in person, or one of the reseller's systems through an API key. A key acts
 * with its role's permissions, never more than its creator holds now (`id` is the creator).
 */
export interface StaffPrincipal {
  type: 'admin';
  id: string;
  permissions: readonly Permission[];
  apiKey: { id: string; name: string } | null;
}

/**
 * A customer organisation's person: `id` is the organisation (the customer account). `member` is
 * null for the organisation's original login, which is its owner; otherwise the member who signed
 * in, with the service lines they are limited to (null: all of the organisation's lines).
 */
export interface CustomerPrincipal {
  type: 'customer';
  id: string;
  member: { id: string; role: MemberRole; serviceLines: readonly string[] | null } | null;
}

/** Who a request acts as, once its bearer token checked out against a live account. */
export type Principal = StaffPrincipal | CustomerPrincipal;

/**
 * What a route admits; every /api/v1 route declares one in `config.auth`:
 * - a permission (`customers:read`, `billing:manage`…): portal users and API keys holding it;
 * - 'staff': any signed-in portal user, in person (their own profile, password and MFA);
 * - 'customer': a customer organisation's signed-in person, on the organisation's own records;
 * - 'authenticated': either of the two; 'public': anyone.
 */
export type AccessLevel = 'public' | 'staff' | 'customer' | 'authenticated' | Permission;

export const ACCESS_KINDS = ['public', 'staff', 'customer', 'authenticated'] as const;

export function isAccessLevel(value: unknown): value is AccessLevel {
  return (ACCESS_KINDS as readonly unknown[]).includes(value) || isPermission(value);
}
