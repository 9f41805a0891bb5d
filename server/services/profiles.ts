// Rows → the API's profile shapes. Only listed fields leave the server: no hash, no MFA secret.
import type { AdminUser, CustomerProfile } from '../../src/domain/auth';
import type { AccountRow, CustomerRow, UserRow } from '../db/schema';
import type { MemberAccountRow } from '../db/repositories/customer-members';
import { isoOrNull } from '../clock';
import type { Permission, RoleRef } from '../../src/domain/permissions';

function accountFields(row: AccountRow): Omit<AdminUser, 'role' | 'roles' | 'permissions'> {
  return {
    uuid: row.id,
    email: row.email,
    name: row.name,
    isActive: row.isActive,
    mfaEnabled: row.mfaEnabled,
    accountExpiresAt: isoOrNull(row.accountExpiresAt),
    blockedEnabled: row.blockedEnabled,
    blockedReason: row.blockedReason,
    blockedAt: isoOrNull(row.blockedAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastLogin: isoOrNull(row.lastLogin),
    lastIp: row.lastIp,
  };
}

/** The user with the roles they hold and what those give (the session's permissions). */
export function toAdminUser(row: UserRow, access: { roles: RoleRef[]; permissions: Permission[] }): AdminUser {
  return { ...accountFields(row), role: row.role, roles: access.roles, permissions: access.permissions };
}

/** The organisation's own login: its owner, on all of its lines. */
export function toCustomerProfile(row: CustomerRow): CustomerProfile {
  return { ...accountFields(row), company: row.company, phone: row.phone, address: row.address, organisationRole: 'owner', serviceLines: null };
}

/**
 * A member of the organisation: their own name, email, MFA and sign-ins, the organisation's
 * company, and their seat in it. `uuid` is the member's own id.
 */
export function toMemberProfile(row: MemberAccountRow): CustomerProfile {
  return { ...accountFields(row), company: row.company, phone: null, address: null, organisationRole: row.role, serviceLines: row.serviceLines };
}
