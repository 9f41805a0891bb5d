// Who signs in, and the shapes the server answers with (spec section 3 and 7).

import type { Permission, RoleRef } from './permissions';
import type { MemberRole } from './members';

export type UserType = 'admin' | 'customer';
export type UserRole = 'admin' | 'user';

/** Admin-portal user as `/auth/login` and `/auth/me` return it (camelCase, ISO dates or null). */
export interface AdminUser {
  uuid: string;
  email: string;
  name: string;
  role: UserRole;
  isActive: boolean;
  mfaEnabled: boolean;
  accountExpiresAt: string | null;
  blockedEnabled: boolean;
  blockedReason: string | null;
  blockedAt: string | null;
  createdAt: string;
  updatedAt: string;
  lastLogin: string | null;
  lastIp: string | null;
  /** The roles the user holds, and every permission they give (manage includes read). */
  roles: RoleRef[];
  permissions: Permission[];
}

/** Customer login profile: the admin fields plus phone, company, address (role is absent). */
export interface CustomerProfile extends Omit<AdminUser, 'role' | 'roles' | 'permissions'> {
  phone: string | null;
  company: string;
  address: string | null;
  /** The signed-in person's place in their organisation: the original login is its owner. */
  organisationRole: MemberRole;
  /** The service lines a limited member sees; null: all of the organisation's. */
  serviceLines: string[] | null;
}

export type Profile = AdminUser | CustomerProfile;

/** `POST /api/v1/auth/login` → data; `GET /api/v1/auth/me` → `{ user }`. */
export interface AdminLoginData {
  user: AdminUser;
  token: string;
}

/** `POST /api/v1/customers/auth/login` → data; `GET /api/v1/customers/auth/me` → `{ customer }`. */
export interface CustomerLoginData {
  customer: CustomerProfile;
  token: string;
}

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

/** Failed sign-ins in a row that lock an account, and for how long. */
export const MAX_FAILED_LOGINS = 5;
export const LOCKOUT_MINUTES = 15;

/** Expected-failure messages the server sends (and the login view shows as they come). */
export const ACCOUNT_MESSAGES = {
  blocked: 'Your account has been blocked. Contact your administrator.',
  inactive: 'Your account is inactive. Contact your administrator.',
  expired: 'Your account has expired. Contact your administrator.',
  locked: (minutes: number) =>
    `Too many failed sign-in attempts. Your account is locked; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
  adminsOnly: 'This area is for administrators only.',
} as const;
