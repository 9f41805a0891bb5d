// Portal users (the admin portal's own accounts): the list's wire shape, statuses, the forms'
// rules and the texts of the users page and the settings page (spec sections 2 "Users" and
// "Settings", 3 "User in the users list", 4 "User status", 5, 7 "Users", 8 "Users and settings").
// Shared by the server (answers, validation) and the client.
import type { UserRole } from './auth';
import type { RoleRef } from './permissions';
import { isEmailAddress } from './customers';

// ---- Limits --------------------------------------------------------------------------------

/** The users page asks for this many (spec 9). */
export const USERS_FETCH_LIMIT = 100;
export const USERS_MAX_PAGE_SIZE = 100;
export const USER_SEARCH_MAX_LENGTH = 100;
export const USER_FIELD_LIMITS = { name: 120, email: 254, blockedReason: 500 } as const;
export const USER_ROLES = ['admin', 'user'] as const satisfies readonly UserRole[];
/** extend-expiration: days added, from the later of now and the current expiry. */
export const USER_EXTENSION_DAY_CHOICES = [30, 90, 180, 365] as const;
export const DEFAULT_USER_EXTENSION_DAYS = 90;
export const MIN_USER_EXTENSION_DAYS = 1;
export const MAX_USER_EXTENSION_DAYS = 3650;

// ---- Wire shapes (spec 3 "User in the users list", snake_case) -----------------------------

/** One user of `GET /users` (and every user answer), snake_case as spec 3 gives it. */
export interface UserWire {
  uuid: string;
  name: string;
  email: string;
  role: UserRole;
  is_active: boolean;
  blocked_enabled: boolean;
  blocked_reason: string | null;
  mfa_enabled: boolean;
  last_login: string | null;
  created_at: string;
  updated_at: string;
  account_expires_at: string | null;
  failed_login_attempts: number;
  /** Set while sign-in is locked after failed attempts. */
  locked_until: string | null;
  /** Soft-deleted users are listed only with `include_deleted=true`; restore brings them back. */
  deleted_at: string | null;
  /** False until the user has chosen a password (created with a setup link). */
  has_password: boolean;
  /** The roles the user holds (role above is the Owner badge: 'admin' when one of them is Owner). */
  roles: RoleRef[];
}

/** Figures of the three stat cards, over every live user (not only the page). */
export interface UserStats {
  total: number;
  /** Active and not blocked (spec 2). */
  active: number;
  mfaEnabled: number;
}

/** `GET /users` data. */
export interface UserListWire {
  users: UserWire[];
  pagination: { total: number; page: number; limit: number; pages: number };
  stats: UserStats;
}

/** A user as the client holds it (camelCase). */
export interface PortalUser {
  uuid: string;
  name: string;
  email: string;
  role: UserRole;
  isActive: boolean;
  blockedEnabled: boolean;
  blockedReason: string | null;
  mfaEnabled: boolean;
  lastLogin: string | null;
  createdAt: string | null;
  updatedAt: string | null;
  accountExpiresAt: string | null;
  failedLoginAttempts: number;
  lockedUntil: string | null;
  deletedAt: string | null;
  hasPassword: boolean;
  /** The roles the user holds; `role` stays the Owner badge. */
  roles: RoleRef[];
}

// ---- Status (spec 4 "User status") ---------------------------------------------------------

export type UserStatus = 'Blocked' | 'Active' | 'Inactive';

/** Blocked if blocked; else Active if active; else Inactive. */
export function userStatus(u: Pick<PortalUser, 'blockedEnabled' | 'isActive'>): UserStatus {
  if (u.blockedEnabled) return 'Blocked';
  return u.isActive ? 'Active' : 'Inactive';
}

/** Spec 4: the Suspend/Activate button is disabled for admin-role users (the server refuses it too). */
export const canToggleActive = (u: Pick<PortalUser, 'role'>) => u.role !== 'admin';

// ---- Payloads --------------------------------------------------------------------------------

/** `POST /users`: with `password` the user can sign in at once; without, a setup link is emailed. */
export interface CreateUserPayload {
  name: string;
  email: string;
  /** The two-role form of earlier releases: admin = Owner, user = Admin (read-only). */
  role?: UserRole;
  /** The roles to hold; wins over `role`. No wider than the creator's own permissions. */
  role_ids?: string[];
  password?: string;
}

/** `PUT /users/{uuid}`: any of these (the users page's Suspend/Activate sends only is_active). */
export interface UpdateUserPayload {
  name?: string;
  email?: string;
  role?: UserRole;
  role_ids?: string[];
  is_active?: boolean;
}

/** `PUT /users/change-password` and `PUT /customers/change-password`. */
export interface ChangePasswordPayload {
  currentPassword: string;
  newPassword: string;
}

/** `PUT /users/profile` (and `PUT /customers/profile` with the customer's own fields). */
export interface ProfilePayload {
  name: string;
}

/** `PUT /customers/profile`: the customer's own fields (email stays as the administrator set it). */
export interface CustomerProfilePayload extends ProfilePayload {
  company?: string;
  phone?: string | null;
  address?: string | null;
}

export type UserFormField = 'name' | 'email' | 'roles' | 'password';

/** Add User / Edit dialogs: the first problem of each field (password only when given). */
export function validateUserForm(
  form: { name: string; email: string; roleIds: readonly string[]; password?: string },
  mode: 'create' | 'edit',
): Partial<Record<UserFormField, string>> {
  const errors: Partial<Record<UserFormField, string>> = {};
  const name = form.name.trim();
  const email = form.email.trim();
  if (!name) errors.name = USER_MESSAGES.nameRequired;
  else if (name.length > USER_FIELD_LIMITS.name) errors.name = USER_MESSAGES.nameTooLong;
  if (!email) errors.email = USER_MESSAGES.emailRequired;
  else if (!isEmailAddress(email) || email.length > USER_FIELD_LIMITS.email) errors.email = USER_MESSAGES.emailInvalid;
  if (form.roleIds.length === 0) errors.roles = USER_MESSAGES.rolesRequired;
  if (mode === 'create' && form.password !== undefined && form.password !== '' && form.password.length < 8) errors.password = USER_MESSAGES.passwordTooShort;
  return errors;
}

// ---- Texts (spec sections 2 and 8) ---------------------------------------------------------

export const USER_MESSAGES = {
  title: 'Users',
  loading: 'Loading users...',
  fetchFailed: 'Failed to fetch users',
  unexpected: 'An unexpected error occurred',
  statusFailed: 'Failed to update user status',
  nameRequired: 'Name is required',
  nameTooLong: 'Name is too long',
  emailRequired: 'Email address is required',
  emailInvalid: 'Please enter a valid email address',
  roleInvalid: 'Choose a role: admin or user',
  rolesRequired: 'Choose at least one role',
  passwordTooShort: 'Password must be at least 8 characters long',
  duplicateEmail: 'A user with this email address already exists',
  notFound: 'User not found',
  selfRefused: 'You cannot suspend, block or delete your own account',
  lastAdminRefused: 'The last active Owner cannot be suspended, blocked, lose the Owner role or be deleted',
  adminSuspendRefused: 'Owners cannot be suspended from the users page',
  blockReasonRequired: 'A reason is required to block a user',
  created: (email: string) => `User ${email} created`,
  createdWithLink: (email: string) => `User ${email} created. A password setup link was sent to ${email}`,
  updated: 'User updated',
  activated: (name: string) => `${name} activated`,
  suspended: (name: string) => `${name} suspended`,
  blocked: (name: string) => `${name} blocked`,
  unblocked: (name: string) => `${name} unblocked`,
  deleted: (name: string) => `${name} deleted`,
  hardDeleted: (name: string) => `${name} permanently deleted`,
  restored: (name: string) => `${name} restored`,
  mfaDisabled: (name: string) => `Multi-factor authentication disabled for ${name}`,
  extended: (name: string, days: number) => `${name}'s account extended by ${days} day${days === 1 ? '' : 's'}`,
  attemptsReset: (name: string) => `Login attempts reset for ${name}`,
} as const;

export const SETTINGS_MESSAGES = {
  passwordChanged: 'Password changed successfully',
  passwordFailed: 'Failed to change password. Please try again.',
  wrongCurrentPassword: 'Current password is incorrect',
  samePassword: 'The new password must differ from the current one',
  profileUpdated: 'Profile updated successfully',
  notAvailable: 'N/A',
  copied: 'Copied to clipboard',
} as const;
