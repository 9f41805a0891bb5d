// Team roles and permissions. A permission is read or manage on one area of the portal; manage
// includes read. A role is a named set of permissions; a portal user holds one or more roles and
// may do what any of them allows. Every /api/v1 route names the permission it needs
// (server/plugins/auth.ts), and the UI shows only what the session's permissions allow.
// Shared by the server (the authority) and the client (which follows it).

export const AREAS = [
  'customers',
  'terminals',
  'lifecycle',
  'subscriptions',
  'billing',
  'alerts',
  'bulk',
  'provider',
  'users',
  'audit',
] as const;
export type Area = (typeof AREAS)[number];

export type Level = 'read' | 'manage';
export type Permission = `${Area}:${Level}`;

export const AREA_LABELS: Record<Area, string> = {
  customers: 'Customers',
  terminals: 'Terminals and lines',
  lifecycle: 'Lifecycle and top-ups',
  subscriptions: 'Subscriptions',
  billing: 'Billing and prices',
  alerts: 'Alerts and webhooks',
  bulk: 'Bulk actions',
  provider: 'Provider console',
  users: 'Users and roles',
  audit: 'Audit log',
};

/** What each area's two levels allow, as the roles matrix explains them. */
export const AREA_HELP: Record<Area, string> = {
  customers: 'Customer accounts, their members, password links and previews',
  terminals: 'Terminals, service-line settings, assignments and the inventory sync',
  lifecycle: 'Activations, deactivations, top-ups, reboots and customer requests',
  subscriptions: 'Data plans per service line',
  billing: 'Statements, prices, corrections, provider invoices and reconciliation',
  alerts: 'Alerts, alert rules and webhook endpoints',
  bulk: 'Bulk actions from a CSV file',
  provider: "The provider's console and API simulator",
  users: 'Portal users, roles and API keys',
  audit: 'The audit log (read only)',
};

/** Areas with nothing to manage: the audit log is written by the portal, never by hand. */
export const READ_ONLY_AREAS: readonly Area[] = ['audit'];

export const PERMISSIONS: readonly Permission[] = AREAS.flatMap((area) =>
  READ_ONLY_AREAS.includes(area) ? [`${area}:read` as const] : [`${area}:read` as const, `${area}:manage` as const],
);

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

export const areaOf = (permission: Permission): Area => permission.split(':')[0] as Area;
export const levelOf = (permission: Permission): Level => permission.split(':')[1] as Level;

/** A set of permissions with what they imply: manage on an area includes read on it. */
export function withImplied(permissions: Iterable<Permission>): Permission[] {
  const out = new Set<Permission>();
  for (const permission of permissions) {
    out.add(permission);
    if (levelOf(permission) === 'manage') out.add(`${areaOf(permission)}:read`);
  }
  return PERMISSIONS.filter((p) => out.has(p));
}

/** Whether a holder of `held` may do what `needed` asks. */
export function allows(held: Iterable<Permission>, needed: Permission): boolean {
  for (const permission of held) {
    if (permission === needed) return true;
    if (levelOf(needed) === 'read' && permission === `${areaOf(needed)}:manage`) return true;
  }
  return false;
}

// ---- Built-in roles ------------------------------------------------------------------------

/**
 * The provider's own five roles (Admin, Billing, Technical, Support, User Management), each with a
 * read-only twin, and Owner, who may do everything. Built-in roles cannot be changed or deleted;
 * custom roles are composed from the same permissions.
 */
export const BUILT_IN_ROLE_KEYS = [
  'owner',
  'admin',
  'admin_read_only',
  'billing',
  'billing_read_only',
  'technical',
  'technical_read_only',
  'support',
  'support_read_only',
  'user_management',
  'user_management_read_only',
] as const;
export type BuiltInRoleKey = (typeof BUILT_IN_ROLE_KEYS)[number];

export interface BuiltInRole {
  key: BuiltInRoleKey;
  name: string;
  description: string;
  permissions: readonly Permission[];
}

const manage = (...areas: Area[]): Permission[] => areas.map((a) => `${a}:manage` as const);
const read = (...areas: Area[]): Permission[] => areas.map((a) => `${a}:read` as const);
const OPERATIONAL: Area[] = ['customers', 'terminals', 'lifecycle', 'subscriptions', 'billing', 'alerts', 'bulk', 'provider'];

/** A role's read-only twin: the same areas, read only. */
const readOnly = (permissions: readonly Permission[]): Permission[] => withImplied(permissions).filter((p) => levelOf(p) === 'read');

const OWNER: Permission[] = withImplied(PERMISSIONS);
const ADMIN: Permission[] = [...manage(...OPERATIONAL)];
const BILLING: Permission[] = [...manage('billing', 'subscriptions'), ...read('customers', 'terminals', 'lifecycle')];
const TECHNICAL: Permission[] = [...manage('terminals', 'lifecycle', 'alerts', 'provider', 'bulk'), ...read('customers', 'subscriptions')];
// Support reads everything a customer's question can be about, and refreshes or reports a terminal.
const SUPPORT: Permission[] = [...manage('terminals'), ...read('customers', 'lifecycle', 'subscriptions', 'billing', 'alerts', 'provider', 'bulk')];
const USER_MANAGEMENT: Permission[] = [...manage('users'), ...read('audit')];

export const BUILT_IN_ROLES: readonly BuiltInRole[] = [
  { key: 'owner', name: 'Owner', description: 'Everything, including users, roles and API keys', permissions: OWNER },
  { key: 'admin', name: 'Admin', description: 'Runs the business: every area except users and the audit log', permissions: withImplied(ADMIN) },
  { key: 'admin_read_only', name: 'Admin (read-only)', description: 'Reads every area except users and the audit log', permissions: readOnly(ADMIN) },
  { key: 'billing', name: 'Billing', description: 'Statements, prices and data plans', permissions: withImplied(BILLING) },
  { key: 'billing_read_only', name: 'Billing (read-only)', description: 'Reads statements, prices and data plans', permissions: readOnly(BILLING) },
  { key: 'technical', name: 'Technical', description: 'The network operations centre: terminals, lines, lifecycle and alerts', permissions: withImplied(TECHNICAL) },
  { key: 'technical_read_only', name: 'Technical (read-only)', description: 'Watches terminals, lines and alerts', permissions: readOnly(TECHNICAL) },
  { key: 'support', name: 'Support', description: 'Reads what customers ask about; refreshes and reports terminals', permissions: withImplied(SUPPORT) },
  { key: 'support_read_only', name: 'Support (read-only)', description: 'Reads what customers ask about', permissions: readOnly(SUPPORT) },
  { key: 'user_management', name: 'User Management', description: 'Portal users, roles and API keys; reads the audit log', permissions: withImplied(USER_MANAGEMENT) },
  { key: 'user_management_read_only', name: 'User Management (read-only)', description: 'Reads portal users, roles, API keys and the audit log', permissions: readOnly(USER_MANAGEMENT) },
];

export const builtInRole = (key: BuiltInRoleKey): BuiltInRole => BUILT_IN_ROLES.find((r) => r.key === key)!;

/** What an upgrade gives each portal user of the two-role days, so that nobody's reach grows. */
export const LEGACY_ROLE_MAPPING = { admin: 'owner', user: 'admin_read_only' } as const satisfies Record<'admin' | 'user', BuiltInRoleKey>;

// ---- Wire shapes -----------------------------------------------------------------------------

/** One role as `GET /roles` answers it. */
export interface RoleWire {
  id: string;
  /** The built-in role's key; null for a custom role. */
  key: BuiltInRoleKey | null;
  name: string;
  description: string;
  permissions: Permission[];
  builtIn: boolean;
  /** Live portal users holding it. */
  userCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A role as a user's answer names it. */
export interface RoleRef {
  id: string;
  key: BuiltInRoleKey | null;
  name: string;
}

export interface RoleInput {
  name: string;
  description?: string;
  permissions: Permission[];
}

export const ROLE_LIMITS = { name: 60, description: 300 } as const;

export const ROLE_MESSAGES = {
  listed: 'Roles retrieved successfully',
  created: 'Role created successfully',
  updated: 'Role updated successfully',
  deleted: 'Role deleted successfully',
  userRolesUpdated: 'Roles updated successfully',
  notFound: 'Role not found',
  nameRequired: 'Role name is required',
  nameTooLong: `Role name must be at most ${ROLE_LIMITS.name} characters`,
  descriptionTooLong: `Description must be at most ${ROLE_LIMITS.description} characters`,
  nameTaken: 'A role with this name already exists',
  permissionsRequired: 'Choose at least one permission',
  unknownPermission: 'Unknown permission',
  builtInReadOnly: 'Built-in roles cannot be changed or deleted',
  inUse: (count: number) => `This role is held by ${count} user${count === 1 ? '' : 's'}; take it from them first`,
  rolesRequired: 'Choose at least one role',
  escalation: 'You cannot grant permissions you do not hold yourself',
  selfLockout: 'You cannot remove from yourself the role that lets you manage roles',
  forbidden: (permission: Permission) => `You do not have permission to do this (${permission})`,
} as const;
