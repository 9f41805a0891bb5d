// Response and request schemas shared by routes. Profiles list their fields explicitly, and
// serialisation drops anything unlisted, so a password hash or MFA secret cannot leak even if a
// handler passed a whole row.
import { PROVIDER_ACCOUNT_STATUSES } from '../../src/domain/provider-accounts';
import { z } from 'zod';
import { BUILT_IN_ROLE_KEYS, PERMISSIONS, type Permission } from '../../src/domain/permissions';
import { MEMBER_ROLES } from '../../src/domain/members';
import type { AdminUser, CustomerProfile } from '../../src/domain/auth';
import type { DashboardSummary } from '../../src/domain/dashboard';

/** Compile-time proof that a schema's output is exactly the domain type. */
export type Exact<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** `exact<Exact<z.output<typeof schema>, DomainType>>()` fails to compile when the two differ. */
export const exact = <_T extends true>() => undefined;

export const failureSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  requestId: z.string().optional(),
});

/** The paging object of every list answer (src/domain/customers.ts `Pagination`). */
export const paginationSchema = z.object({ total: z.number().int(), page: z.number().int(), limit: z.number().int(), pages: z.number().int() });

export const successSchema = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data, message: z.string() });

/** The failure statuses any route may answer with, plus the route's own. */
export const failures = <const S extends readonly number[]>(...statuses: S) =>
  Object.fromEntries([400, 500, ...statuses].map((s) => [s, failureSchema])) as Record<400 | 500 | S[number], typeof failureSchema>;

/**
 * The edge's cap on any text a request carries. The services check each field's own limit
 * (names 120, passwords 1024, …) with the spec's messages; this cap sits above all of them and only
 * keeps megabyte strings — and what hashing or searching them would cost — out at the door.
 */
export const INPUT_TEXT_MAX = 4096;
export const INPUT_TEXT_TOO_LONG = `Text must be at most ${INPUT_TEXT_MAX} characters`;

/** A request's text field: `z.string(params)` with the edge's cap. */
export const inputText = (params?: Parameters<typeof z.string>[0]) => z.string(params).max(INPUT_TEXT_MAX, { error: INPUT_TEXT_TOO_LONG });

export const isoDate = z.string();

const accountShape = {
  uuid: z.uuid(),
  email: z.string(),
  name: z.string(),
  isActive: z.boolean(),
  mfaEnabled: z.boolean(),
  accountExpiresAt: isoDate.nullable(),
  blockedEnabled: z.boolean(),
  blockedReason: z.string().nullable(),
  blockedAt: isoDate.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
  lastLogin: isoDate.nullable(),
  lastIp: z.string().nullable(),
};

export const permissionSchema = z.enum(PERMISSIONS as [Permission, ...Permission[]]);
export const roleRefSchema = z.object({ id: z.uuid(), key: z.enum(BUILT_IN_ROLE_KEYS).nullable(), name: z.string() });

export const adminUserSchema = z.object({
  ...accountShape,
  role: z.enum(['admin', 'user']),
  roles: z.array(roleRefSchema),
  permissions: z.array(permissionSchema),
});
export const customerProfileSchema = z.object({
  ...accountShape,
  phone: z.string().nullable(),
  company: z.string(),
  address: z.string().nullable(),
  organisationRole: z.enum(MEMBER_ROLES),
  serviceLines: z.array(z.string()).nullable(),
});

export const PROVIDER_ACCOUNT_ID_MESSAGE = 'account_id must be a provider account id';
const MAX_ACCOUNT_ID = 2_147_483_647;

/**
 * `?account_id=`: the provider account a page or list reads (absent: the first enabled one, or a
 * list's every account). An id the portal does not have is the service's to answer.
 */
export const providerAccountParam = z.coerce
  .number({ error: PROVIDER_ACCOUNT_ID_MESSAGE })
  .int({ error: PROVIDER_ACCOUNT_ID_MESSAGE })
  .min(1, { error: PROVIDER_ACCOUNT_ID_MESSAGE })
  .max(MAX_ACCOUNT_ID, { error: PROVIDER_ACCOUNT_ID_MESSAGE })
  .optional();

/** A provider account id in a JSON body (a number, never coerced from text), with the body field's own words. */
export const providerAccountIdField = (message: string) =>
  z.number({ error: message }).int({ error: message }).min(1, { error: message }).max(MAX_ACCOUNT_ID, { error: message });

export const dashboardSummarySchema = z.object({
  totalCustomers: z.number().int(),
  activeTerminals: z.number().int().nullable(),
  systemUsers: z.number().int(),
  providerHealth: z.object({
    status: z.enum(['Healthy', 'Degraded', 'Down', 'Not connected']),
    checkedAt: isoDate.nullable(),
    detail: z.string().nullable(),
  }),
  recentActivity: z.array(
    z.object({
      id: z.string(),
      action: z.string(),
      description: z.string(),
      actorName: z.string().nullable(),
      createdAt: isoDate,
    }),
  ),
  accounts: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      status: z.enum(PROVIDER_ACCOUNT_STATUSES),
      currency: z.string().nullable(),
      terminals: z.number().int(),
      activeTerminals: z.number().int(),
    }),
  ),
});

exact<Exact<z.output<typeof adminUserSchema>, AdminUser>>();
exact<Exact<z.output<typeof customerProfileSchema>, CustomerProfile>>();
exact<Exact<z.output<typeof dashboardSummarySchema>, DashboardSummary>>();

export const credentialsSchema = z.object({
  email: z
    .string({ error: 'Email is required' })
    .trim()
    .min(1, 'Email is required')
    .max(320, 'Email is too long'),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024, 'Password is too long'),
});
