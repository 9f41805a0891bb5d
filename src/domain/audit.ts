// The audit log: every action the server records, its label, the page's filters, and
// the two pure steps every entry goes through before anyone sees it — secrets taken out, and the
// fields that changed between before and after. Shared by the server (validation, answers, CSV)
// and the client (the /audit page).
//
// AUDIT_ACTIONS is checked against the server's source by tests/unit/audit-actions.test.ts: an
// action the server writes but this list misses fails the build, so the filter offers them all.
import type { Pagination } from './customers';

export const AUDIT_ACTION_LABELS = {
  'activation.failed': 'Activation failed',
  'activation.started': 'Activation started',
  'alert.acknowledge': 'Alert acknowledged',
  'alert_override.delete': 'Alert override removed',
  'alert_override.save': 'Alert override saved',
  'alert_rule.update': 'Alert rule changed',
  'api_key.created': 'API key created',
  'api_key.request': 'API key call',
  'api_key.revoked': 'API key revoked',
  'auth.login': 'Portal user signed in',
  'auth.login_failed': 'Portal user sign-in failed',
  'auth.mfa_challenge': 'Portal user asked for an MFA code',
  'auth.mfa_disable_failed': 'Portal user MFA disable refused',
  'auth.mfa_disabled': 'Portal user turned MFA off',
  'auth.mfa_enable_failed': 'Portal user MFA setup code refused',
  'auth.mfa_enabled': 'Portal user turned MFA on',
  'auth.mfa_setup_started': 'Portal user started MFA setup',
  'auth.password_reset_unknown': 'Password reset for an unknown email',
  'billing.adjustment_added': 'Billing adjustment added',
  'billing.adjustment_deleted': 'Billing adjustment deleted',
  'billing.bank_line_ignored': 'Bank line ignored',
  'billing.bank_line_matched': 'Bank line matched to a customer',
  'billing.bank_statement_imported': 'Bank statement imported',
  'billing.credit_note_recorded': 'Credit note recorded',
  'billing.customer_price_added': 'Customer price added',
  'billing.customer_price_ended': 'Customer price ended',
  'billing.cycle_closed': 'Billing cycle closed',
  'billing.dunning_block': 'Dunning: portal access blocked',
  'billing.dunning_final_notice': 'Dunning: final notice sent',
  'billing.dunning_policy_changed': 'Dunning policy changed',
  'billing.dunning_reminder': 'Dunning: payment reminder sent',
  'billing.dunning_unblock': 'Dunning: portal access restored',
  'billing.entry_reversed': 'Ledger entry reversed',
  'billing.leak_fixed': 'Reconciliation leak fixed',
  'billing.payment_recorded': 'Payment recorded',
  'billing.price_added': 'Price added',
  'billing.price_withdrawn': 'Price withdrawn',
  'billing.provider_invoice_imported': 'Provider invoice imported',
  'billing.provider_invoice_updated': 'Provider invoice updated',
  'billing.refund_recorded': 'Refund recorded',
  'billing.statements_refreshed': 'Statements refreshed',
  'billing.terms_changed': 'Payment terms changed',
  'bulk.started': 'Bulk action started',
  'customer.activated': 'Customer activated',
  'customer.blocked': 'Customer blocked',
  'customer.created': 'Customer created',
  'customer.deactivated': 'Customer deactivated',
  'customer.deleted': 'Customer deleted',
  'customer.extended': 'Customer account extended',
  'customer.login': 'Customer signed in',
  'customer.login_failed': 'Customer sign-in failed',
  'customer.mfa_challenge': 'Customer asked for an MFA code',
  'customer.mfa_disable_failed': 'Customer MFA disable refused',
  'customer.mfa_disabled': 'Customer turned MFA off',
  'customer.mfa_enable_failed': 'Customer MFA setup code refused',
  'customer.mfa_enabled': 'Customer turned MFA on',
  'customer.mfa_setup_started': 'Customer started MFA setup',
  'customer.password_change_failed': 'Customer password change refused',
  'customer.password_changed': 'Customer changed their password',
  'customer.password_link_sent': 'Customer password link sent',
  'customer.password_reset': 'Customer password reset',
  'customer.password_reset_paced': 'Customer password reset held back',
  'customer.password_reset_requested': 'Customer password reset requested',
  'customer.password_set': 'Customer password set',
  'customer.previewed': 'Customer area previewed',
  'customer.profile_updated': 'Customer updated their profile',
  'customer.unblocked': 'Customer unblocked',
  'customer.updated': 'Customer changed',
  'customer_request.approved': 'Customer request approved',
  'customer_request.cancelled': 'Customer request cancelled',
  'customer_request.created': 'Customer request sent',
  'customer_request.declined': 'Customer request declined',
  'member.invitation_revoked': 'Member invitation revoked',
  'member.invited': 'Member invited',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.updated': 'Member changed',
  'router.config_assigned': 'Router configuration assigned',
  'router.rebooted': 'Router rebooted',
  'service_line.activated': 'Service line activated',
  'service_line.deactivated': 'Service line ended',
  'service_line.deactivation_scheduled': 'Service line end scheduled',
  'service_line.priority_data_changed': 'Priority data changed',
  'service_line.public_ip_changed': 'Public IP changed',
  'service_line.recurring_blocks_changed': 'Recurring data blocks changed',
  'service_line.renamed': 'Service line renamed',
  'service_line.topped_up': 'Service line topped up',
  'subscription.plan_changed': 'Plan changed',
  'system.admin_created': 'First administrator created',
  'system.demo_prices_seeded': 'Demo prices seeded',
  'system.demo_seeded': 'Demo data seeded',
  'system.demo_terminals_assigned': 'Demo lines assigned',
  'terminal.assigned': 'Service line assigned',
  'terminal.issue_reported': 'Terminal issue reported',
  'terminal.moved': 'Terminal moved to another line',
  'terminal.rebooted': 'Terminal rebooted',
  'terminal.refreshed': 'Terminal refreshed from the provider',
  'terminal.removed_from_line': 'Terminal removed from its line',
  'terminal.sync_started': 'Sync started',
  'terminal.unassigned': 'Service line unassigned',
  'user.activated': 'Portal user activated',
  'user.blocked': 'Portal user blocked',
  'provider_account.created': 'Provider account added',
  'provider_account.deleted': 'Provider account deleted',
  'provider_account.disabled': 'Provider account disabled',
  'provider_account.enabled': 'Provider account enabled',
  'provider_account.tested': 'Provider account connection tested',
  'provider_account.updated': 'Provider account changed',
  'role.created': 'Role created',
  'role.deleted': 'Role deleted',
  'role.updated': 'Role changed',
  'user.created': 'Portal user created',
  'user.deleted': 'Portal user deleted',
  'user.extended': 'Portal user account extended',
  'user.hard_deleted': 'Portal user deleted for good',
  'user.login_attempts_reset': 'Portal user sign-in attempts reset',
  'user.mfa_disabled': 'Portal user MFA reset',
  'user.password_change_failed': 'Portal user password change refused',
  'user.password_changed': 'Portal user changed their password',
  'user.password_reset': 'Portal user password reset',
  'user.password_reset_paced': 'Portal user password reset held back',
  'user.password_reset_requested': 'Portal user password reset requested',
  'user.password_set': 'Portal user password set',
  'user.profile_updated': 'Portal user updated their profile',
  'user.restored': 'Portal user restored',
  'user.suspended': 'Portal user suspended',
  'user.unblocked': 'Portal user unblocked',
  'user.updated': 'Portal user changed',
  'webhook.created': 'Webhook created',
  'webhook.deleted': 'Webhook deleted',
  'webhook.delivery_replayed': 'Webhook delivery replayed',
  'webhook.disabled': 'Webhook disabled',
  'scheduled_change.created': 'Change scheduled',
  'scheduled_change.cancelled': 'Scheduled change cancelled',
  'automatic_action.approved': 'Automatic action approved',
  'automatic_action.dismissed': 'Automatic action dismissed',
  'alert_rule.actions_update': 'Alert rule actions changed',
  'webhook.secret_rotated': 'Webhook secret rotated',
  'webhook.test_sent': 'Webhook test sent',
  'webhook.updated': 'Webhook changed',
} as const satisfies Record<string, string>;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
/** Every action the server writes, in name order (the action filter's choices). */
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS).sort() as AuditAction[];

const ACTION_SET = new Set<string>(AUDIT_ACTIONS);
export const isAuditAction = (value: string): value is AuditAction => ACTION_SET.has(value);

/** The label of a stored action; an action no longer written (an old row) shows its name. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTION_LABELS[action] : action;
}

/** Who acted, as the table stores it: a portal user, a customer, the system, or nobody signed in. */
export const AUDIT_ACTOR_KINDS = ['user', 'customer', 'member', 'api_key', 'system', 'anonymous', 'rule', 'schedule'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];
export const AUDIT_ACTOR_KIND_LABELS: Readonly<Record<AuditActorKind, string>> = {
  user: 'Portal user',
  customer: 'Customer',
  member: "Customer's team member",
  api_key: 'API key',
  system: 'System',
  anonymous: 'Not signed in',
  rule: 'Alert rule',
  schedule: 'Scheduled change',
};

export const AUDIT_PAGE_SIZE = 25;
export const AUDIT_MAX_PAGE_SIZE = 100;
/** The CSV export reads the log this many entries at a time. */
export const AUDIT_EXPORT_PAGE = 500;
/** At most this many actions in one filter (more is every action: leave the filter out). */
export const AUDIT_MAX_ACTIONS = 20;
export const AUDIT_ACTOR_MAX_LENGTH = 320;
export const AUDIT_TARGET_TYPE_MAX_LENGTH = 100;
export const AUDIT_TARGET_ID_MAX_LENGTH = 200;
export const AUDIT_DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A UTC day `YYYY-MM-DD` that exists (not 2026-02-30). */
export function isAuditDay(value: string): boolean {
  if (!AUDIT_DAY_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export interface AuditFilter {
  /** Part of the actor's email, name or id. */
  actor?: string;
  actorKind?: AuditActorKind;
  actions?: AuditAction[];
  /** Part of the target's type (customer, service_line…). */
  targetType?: string;
  /** Part of the target's id. */
  targetId?: string;
  /** First UTC day, inclusive. */
  from?: string;
  /** Last UTC day, inclusive. */
  to?: string;
}

export interface AuditEntryWire {
  id: string;
  createdAt: string;
  action: string;
  actor: { kind: AuditActorKind; id: string | null; name: string | null; email: string | null };
  target: { type: string | null; id: string | null };
  /** Secrets already taken out (redactAuditValue). */
  before: unknown;
  after: unknown;
  ip: string | null;
  requestId: string | null;
}

export interface AuditListWire {
  entries: AuditEntryWire[];
  pagination: Pagination;
}

export const AUDIT_CSV_COLUMNS = ['Time (UTC)', 'Actor kind', 'Actor', 'Actor email', 'Actor id', 'Action', 'Action label', 'Target type', 'Target id', 'Changed fields', 'Before', 'After', 'IP', 'Request id'] as const;

export const AUDIT_MESSAGES = {
  pageTitle: 'Audit log',
  listed: 'Audit log',
  loadFailed: 'Could not load the audit log',
  exportFailed: 'Could not export the audit log',
  noEntries: 'No audited actions match these filters',
  action: (name: string) => `action must be one of the audited actions (got ${name.slice(0, 100)})`,
  tooManyActions: `at most ${AUDIT_MAX_ACTIONS} actions at a time`,
  day: (field: string) => `${field} must be a day written YYYY-MM-DD`,
  range: 'from must not be after to',
  actor: `actor must be at most ${AUDIT_ACTOR_MAX_LENGTH} characters`,
  actorKind: `actorKind must be one of ${AUDIT_ACTOR_KINDS.join(', ')}`,
  targetType: `targetType must be at most ${AUDIT_TARGET_TYPE_MAX_LENGTH} characters`,
  targetId: `targetId must be at most ${AUDIT_TARGET_ID_MAX_LENGTH} characters`,
  limit: `limit must be a whole number from 1 to ${AUDIT_MAX_PAGE_SIZE}`,
} as const;

// ---- Secrets never leave the server ----------------------------------------------------------

export const REDACTED = '[redacted]';

/**
 * A key that names a secret: passwords and their hashes, MFA secrets and backup codes, tokens,
 * keys, signatures. Times and hints about them (`passwordSetupExpiresAt`, `secretHint`) are not.
 */
const SECRET_KEY = /passw(or)?d|passphrase|secret|token|hash|api_?key|private_?key|backup_?code|otp|credential|authorization|cookie|signature|salt/i;
const HARMLESS_KEY = /(At|Hint|Count|Enabled|Expires|Expiry)$/;
/** Values that are secrets whatever their key: an Argon2 or bcrypt hash, a JWT. */
const SECRET_VALUE = /^\$(argon2(id|i|d)|2[aby])\$|^eyJ[\w-]+\.[\w-]+\.[\w-]+$/;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !HARMLESS_KEY.test(key);
}

/**
 * An entry's before or after with every secret taken out, at any depth: a field named as a secret
 * is left out whole (its name alone is what the server's leak checks look for in an answer), and
 * a hash or token under any other name reads REDACTED. A number or a flag under a secret's name
 * stays ("backupCodes: 10", "hasPassword: true"): it says what happened without telling the secret.
 */
export function redactAuditValue(value: unknown): unknown {
  if (typeof value === 'string') return SECRET_VALUE.test(value) ? REDACTED : value;
  if (Array.isArray(value)) return value.map(redactAuditValue);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([key, inner]) => !isSecretKey(key) || inner === null || typeof inner === 'number' || typeof inner === 'boolean')
      .map(([key, inner]) => [key, redactAuditValue(inner)]),
  );
}

// ---- Before and after, side by side ----------------------------------------------------------

export interface AuditFieldChange {
  field: string;
  /** Absent: the field is not on that side. */
  before?: unknown;
  after?: unknown;
  changed: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => Object.hasOwn(a, key) === Object.hasOwn(b, key) && sameValue(a[key], b[key]));
  }
  return false;
}

/**
 * Every top-level field of before and after, in the order they first appear, each marked changed
 * when its value differs (deeply) or it is on one side only. A side that is not an object (null,
 * a bare value) counts as one field named "value".
 */
export function auditDiff(before: unknown, after: unknown): AuditFieldChange[] {
  const side = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : value === null || value === undefined ? {} : { value });
  const a = side(before);
  const b = side(after);
  const fields = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return fields.map((field) => {
    const inBefore = Object.hasOwn(a, field);
    const inAfter = Object.hasOwn(b, field);
    return {
      field,
      ...(inBefore ? { before: a[field] } : {}),
      ...(inAfter ? { after: b[field] } : {}),
      changed: inBefore !== inAfter || !sameValue(a[field], b[field]),
    };
  });
}

/** The names of the changed fields (the CSV's "Changed fields", the row's summary). */
export const changedFields = (before: unknown, after: unknown): string[] => auditDiff(before, after).filter((c) => c.changed).map((c) => c.field);

/** A value as the page and the CSV print it: text as is, anything else as JSON. */
export function auditValueText(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}
