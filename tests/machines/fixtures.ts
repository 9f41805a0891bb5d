import type { AdminUser, CustomerProfile } from '../../src/domain/auth';
import { withImplied, type BuiltInRoleKey, type Permission } from '../../src/domain/permissions';
import { withRoles } from '../fixtures/roles';

const portalUser = {
  uuid: '3f0c2a9e-1111-4222-8333-944455556666',
  email: 'ana.lima@example.com',
  name: 'Ana Lima',
  role: 'admin' as AdminUser['role'],
  isActive: true,
  mfaEnabled: false,
  accountExpiresAt: null,
  blockedEnabled: false,
  blockedReason: null,
  blockedAt: null,
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  lastLogin: '2026-11-20T10:00:00.000Z',
  lastIp: '127.0.0.1',
};

/** An Owner: every permission. */
export const adminProfile: AdminUser = withRoles(portalUser, 'owner');
/** A portal user of the two-role days: the read-only Admin (reads every business area, changes nothing). */
export const userProfile: AdminUser = withRoles(portalUser, 'admin_read_only');
/** A portal user holding the given built-in roles. */
export const profileWithRoles = (...keys: BuiltInRoleKey[]): AdminUser => withRoles(portalUser, ...keys);
/** A portal user of a custom role giving exactly these permissions (with what they imply). */
export const profileWith = (permissions: Permission[]): AdminUser => ({
  ...portalUser,
  role: 'user',
  roles: [{ id: 'role-custom', key: null, name: 'Custom' }],
  permissions: withImplied(permissions),
});

export const customerProfile: CustomerProfile = {
  ...(({ role: _role, roles: _roles, permissions: _permissions, ...rest }) => rest)(adminProfile),
  uuid: '9a8b7c6d-2222-4333-8444-955566667777',
  email: 'ops@northwind.example',
  name: 'Nina Park',
  phone: null,
  company: 'Northwind Shipping',
  address: null,
  // The organisation's original login: its owner, seeing all of its lines.
  organisationRole: 'owner',
  serviceLines: null,
};
