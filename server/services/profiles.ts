// Rows → the API's profile shapes. Only listed fields leave the server: no hash, no MFA secret.
import type { AdminUser, CustomerProfile } from '../../src/domain/auth';
import type { AccountRow, CustomerRow, UserRow } from '../db/schema';
import { isoOrNull } from '../clock';

function accountFields(row: AccountRow): Omit<AdminUser, 'role'> {
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

export function toAdminUser(row: UserRow): AdminUser {
  return { ...accountFields(row), role: row.role };
}

export function toCustomerProfile(row: CustomerRow): CustomerProfile {
  return { ...accountFields(row), company: row.company, phone: row.phone, address: row.address };
}
