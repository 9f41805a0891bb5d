// Request and response schemas of the portal users routes and of the profile and change-password
// routes, checked against the domain types. Responses list their fields, so a row's password hash
// or MFA secret cannot leak even if a handler passed a whole row.
import { z } from 'zod';
import { inputText, paginationSchema, exact, type Exact, roleRefSchema } from './schemas';
import {
  MAX_USER_EXTENSION_DAYS,
  MIN_USER_EXTENSION_DAYS,
  USER_ROLES,
  USER_SEARCH_MAX_LENGTH,
  USERS_FETCH_LIMIT,
  USERS_MAX_PAGE_SIZE,
  type CustomerProfilePayload,
  type ProfilePayload,
  type UpdateUserPayload,
  type UserListWire,
  type UserWire,
} from '../../src/domain/users';
import { MAX_PAGE, QUERY_MESSAGES, wholeNumber } from './customers-schemas';

const isoDate = z.string();
const trueOrFalse = (message: string) =>
  z
    .enum(['true', 'false'], { error: message })
    .transform((v) => v === 'true');

export const USER_QUERY_MESSAGES = {
  limit: `limit must be a whole number from 1 to ${USERS_MAX_PAGE_SIZE}`,
  search: `search must be at most ${USER_SEARCH_MAX_LENGTH} characters`,
  includeDeleted: 'include_deleted must be true or false',
  uuid: 'User id must be a UUID',
  days: `days must be a whole number from ${MIN_USER_EXTENSION_DAYS} to ${MAX_USER_EXTENSION_DAYS}`,
  role: `role must be one of ${USER_ROLES.join(', ')}`,
} as const;

export const userListQuerySchema = z.object({
  page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, USERS_MAX_PAGE_SIZE, USER_QUERY_MESSAGES.limit).default(USERS_FETCH_LIMIT),
  search: z.string({ error: USER_QUERY_MESSAGES.search }).trim().max(USER_SEARCH_MAX_LENGTH, { error: USER_QUERY_MESSAGES.search }).optional(),
  is_active: trueOrFalse(QUERY_MESSAGES.isActive).optional(),
  include_deleted: trueOrFalse(USER_QUERY_MESSAGES.includeDeleted).default(false),
});

export const userParamsSchema = z.object({ uuid: z.guid({ error: USER_QUERY_MESSAGES.uuid }) });

/** The roles a user is to hold: role ids, at least one (the service says so in the form's words). */
const roleIdsSchema = z.array(z.guid({ error: 'role_ids must be role ids' }), { error: 'role_ids must be a list of role ids' }).max(20);

/** Strings may be missing (they read as empty, so the form's "is required" message answers). */
export const createUserBodySchema = z
  .object({
    name: inputText().optional(),
    email: inputText().optional(),
    role: inputText().optional(),
    role_ids: roleIdsSchema.optional(),
    password: inputText().optional(),
  })
  .strict();

export const updateUserBodySchema = z
  .object({
    name: inputText().optional(),
    email: inputText().optional(),
    role: z.enum(USER_ROLES, { error: USER_QUERY_MESSAGES.role }).optional(),
    role_ids: roleIdsSchema.optional(),
    is_active: z.boolean().optional(),
  })
  .strict();

export const blockUserBodySchema = z.object({ reason: inputText().optional() }).strict();

export const extendUserBodySchema = z
  .object({ days: wholeNumber(MIN_USER_EXTENSION_DAYS, MAX_USER_EXTENSION_DAYS, USER_QUERY_MESSAGES.days) })
  .strict();

export const profileBodySchema = z.object({ name: inputText() }).strict();

export const customerProfileBodySchema = z
  .object({
    name: inputText(),
    company: inputText().optional(),
    phone: inputText().nullable().optional(),
    address: inputText().nullable().optional(),
  })
  .strict();

/** Missing fields read as empty, so the form's "Please fill in all password fields" answers. */
export const changePasswordBodySchema = z
  .object({
    currentPassword: inputText().optional(),
    newPassword: inputText().optional(),
    confirmPassword: inputText().optional(),
  })
  .strict();

export const userWireSchema = z.object({
  uuid: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(USER_ROLES),
  is_active: z.boolean(),
  blocked_enabled: z.boolean(),
  blocked_reason: z.string().nullable(),
  mfa_enabled: z.boolean(),
  last_login: isoDate.nullable(),
  created_at: isoDate,
  updated_at: isoDate,
  account_expires_at: isoDate.nullable(),
  failed_login_attempts: z.number().int(),
  locked_until: isoDate.nullable(),
  deleted_at: isoDate.nullable(),
  has_password: z.boolean(),
  roles: z.array(roleRefSchema),
});

export const userListSchema = z.object({
  users: z.array(userWireSchema),
  pagination: paginationSchema,
  stats: z.object({ total: z.number().int(), active: z.number().int(), mfaEnabled: z.number().int() }),
});

exact<Exact<z.output<typeof userWireSchema>, UserWire>>();
exact<Exact<z.output<typeof userListSchema>, UserListWire>>();
exact<Exact<z.output<typeof updateUserBodySchema>, UpdateUserPayload>>();
exact<Exact<z.output<typeof profileBodySchema>, ProfilePayload>>();
exact<Exact<z.output<typeof customerProfileBodySchema>, CustomerProfilePayload>>();
