// Drizzle's view of the tables. The SQL files in ./migrations are the source of truth for the
// database; this file mirrors them (tests/server/migrations.test.ts checks the two agree).
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { RuleActionWire, ScheduleParameters } from '../../src/domain/automation';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Columns every sign-in account has, portal user or customer. */
const accountColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash'),
  isActive: boolean('is_active').notNull().default(true),
  mfaEnabled: boolean('mfa_enabled').notNull().default(false),
  /** Encrypted (`v1:<iv>:<tag>:<ciphertext>`, server/auth/secret-box.ts). */
  mfaSecret: text('mfa_secret'),
  /** 0006: the secret shown at set-up, encrypted, until its first code is verified. */
  mfaPendingSecret: text('mfa_pending_secret'),
  /** 0006: the last TOTP time step accepted; codes of it and earlier ones are refused (replay). */
  mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
  accountExpiresAt: ts('account_expires_at'),
  blockedEnabled: boolean('blocked_enabled').notNull().default(false),
  blockedReason: text('blocked_reason'),
  blockedAt: ts('blocked_at'),
  failedLoginAttempts: integer('failed_login_attempts').notNull().default(0),
  lockedUntil: ts('locked_until'),
  lastLogin: ts('last_login'),
  lastIp: text('last_ip'),
  /** 0007: when the password last changed; session tokens issued before it no longer hold. */
  passwordChangedAt: ts('password_changed_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

export const users = pgTable(
  'users',
  {
    ...accountColumns(),
    role: text('role', { enum: ['admin', 'user'] }).notNull().default('user'),
  },
  (t) => [
    uniqueIndex('users_email_live_uq').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} IS NULL`),
    index('users_created_at_idx').on(t.createdAt.desc()),
  ],
);

export const customers = pgTable(
  'customers',
  {
    ...accountColumns(),
    company: text('company').notNull().default(''),
    phone: text('phone'),
    address: text('address'),
    /** 0028: statements are due this many days after they close (net 30). */
    paymentTermsDays: integer('payment_terms_days').notNull().default(30),
    /** 0028: dunning holds every step until this day (a promise to pay). */
    promiseToPayUntil: date('promise_to_pay_until', { mode: 'string' }),
    promiseNote: text('promise_note'),
    /** 0028: the block is dunning's (any other change of the block clears it, in the database). */
    blockedForNonPayment: boolean('blocked_for_non_payment').notNull().default(false),
    /** 0002: lower(name) U+001F lower(email) U+001F lower(company), for the list's search. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(sql`lower(name) || chr(31) || lower(email) || chr(31) || lower(company)`),
  },
  (t) => [
    uniqueIndex('customers_email_live_uq').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} IS NULL`),
    index('customers_created_at_idx').on(t.createdAt.desc()),
    // 0002: trigram search and the newest-first list order.
    index('customers_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')).with({ fastupdate: false }),
    index('customers_live_created_idx').on(t.createdAt.desc(), t.id.desc()).where(sql`${t.deletedAt} IS NULL`),
  ],
);

export const passwordSetupTokens = pgTable(
  'password_setup_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 0007: a link belongs to a customer or (user_id) a portal user, never both. */
    customerId: uuid('customer_id').references(() => customers.id),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** 0022: a customer organisation's member's reset link; exactly one of the three owners is set. */
    memberId: uuid('member_id').references(() => customerMembers.id, { onDelete: 'cascade' }),
    /** SHA-256 of the token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** 0015: 'setup' sets the first password (the emailed link); 'reset' a forgotten one. */
    purpose: text('purpose', { enum: ['setup', 'reset'] }).notNull().default('setup'),
  },
  (t) => [
    uniqueIndex('password_setup_tokens_hash_uq').on(t.tokenHash),
    index('password_setup_tokens_customer_idx').on(t.customerId, t.createdAt.desc()),
    index('password_setup_tokens_user_idx').on(t.userId, t.createdAt.desc()).where(sql`${t.userId} IS NOT NULL`),
    index('password_setup_tokens_member_idx').on(t.memberId, t.createdAt.desc()).where(sql`${t.memberId} IS NOT NULL`),
  ],
);

/** 0015: a customer's request about one of their lines, decided by an admin. */
export const customerRequests = pgTable(
  'customer_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    serviceLineNumber: text('service_line_number').notNull(),
    kind: text('kind', { enum: ['plan_change', 'top_up'] }).notNull(),
    /** The plan asked for (plan_change) or the top-up product (top_up). */
    productId: text('product_id').notNull(),
    /** Top-up blocks asked for; null for a plan change. */
    blockCount: integer('block_count'),
    note: text('note'),
    status: text('status', { enum: ['pending', 'approved', 'declined', 'cancelled'] }).notNull().default('pending'),
    decisionReason: text('decision_reason'),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customer_requests_one_pending_uq').on(t.serviceLineNumber, t.kind).where(sql`${t.status} = 'pending'`),
    index('customer_requests_customer_idx').on(t.customerId, t.createdAt.desc()),
    index('customer_requests_status_idx').on(t.status, t.createdAt.desc()),
  ],
);

/** 0015: every reboot a customer asked for that went to the provider; the pace is read from here. */
export const terminalReboots = pgTable(
  'terminal_reboots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userTerminalId: text('user_terminal_id').notNull(),
    customerId: uuid('customer_id').references(() => customers.id),
    requestedAt: ts('requested_at').notNull(),
  },
  (t) => [
    index('terminal_reboots_terminal_idx').on(t.userTerminalId, t.requestedAt.desc()),
    index('terminal_reboots_customer_idx').on(t.customerId, t.requestedAt.desc()),
  ],
);

/** 0006: single-use MFA recovery codes of a portal user or (customer_id) a customer, never both. */
export const mfaBackupCodes = pgTable(
  'mfa_backup_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    /** 0022: a customer organisation's member's code; exactly one of the three owners is set. */
    memberId: uuid('member_id').references(() => customerMembers.id, { onDelete: 'cascade' }),
    /** HMAC-SHA-256 (server MFA key) of the normalised code, hex. */
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('mfa_backup_codes_user_uq').on(t.userId, t.codeHash).where(sql`${t.userId} IS NOT NULL`),
    uniqueIndex('mfa_backup_codes_customer_uq').on(t.customerId, t.codeHash).where(sql`${t.customerId} IS NOT NULL`),
    uniqueIndex('mfa_backup_codes_member_uq').on(t.memberId, t.codeHash).where(sql`${t.memberId} IS NOT NULL`),
  ],
);

export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    bodyText: text('body_text').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    error: text('error'),
  },
  (t) => [
    index('email_outbox_recipient_idx').on(sql`lower(${t.recipient})`, t.createdAt.desc()),
    index('email_outbox_created_at_idx').on(t.createdAt.desc()),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorType: text('actor_type', { enum: ['user', 'customer', 'member', 'api_key', 'system', 'anonymous', 'rule', 'schedule'] }).notNull(),
    actorId: uuid('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    requestId: text('request_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('audit_log_created_at_idx').on(t.createdAt.desc()),
    index('audit_log_target_idx').on(t.targetType, t.targetId),
    index('audit_log_actor_idx').on(t.actorId),
    // 0018: the audit log page's action filter, newest first.
    index('audit_log_action_created_at_idx').on(t.action, t.createdAt.desc(), t.id.desc()),
  ],
);

export const appMeta = pgTable('app_meta', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

export const schemaMigrations = pgTable('schema_migrations', {
  version: integer('version').primaryKey(),
  name: text('name').notNull(),
  checksum: text('checksum').notNull(),
  appliedAt: ts('applied_at').notNull().defaultNow(),
});

// ---- 0003: the terminal inventory and its sync -----------------------------------------------

/** numeric columns read as JS numbers (provider GB figures and prices have 2 decimals). */
const num = (name: string) => numeric(name, { mode: 'number' });

export const providerProducts = pgTable(
  'provider_products',
  {
  productReferenceId: text('product_reference_id').notNull(),
  accountId: integer('account_id').notNull(),
  accountNumber: text('account_number').notNull(),
  name: text('name').notNull(),
  price: num('price'),
  isoCurrencyCode: text('iso_currency_code'),
  isSla: boolean('is_sla').notNull().default(false),
  raw: jsonb('raw').notNull(),
  syncedAt: ts('synced_at').notNull(),
  removedAt: ts('removed_at'),
  },
  // 0024: two accounts may list the same product reference, each at its own price and currency.
  (t) => [primaryKey({ columns: [t.accountId, t.productReferenceId] })],
);

export const providerAddresses = pgTable('provider_addresses', {
  addressReferenceId: text('address_reference_id').primaryKey(),
  accountId: integer('account_id').notNull(),
  accountNumber: text('account_number').notNull(),
  formattedAddress: text('formatted_address'),
  locality: text('locality'),
  region: text('region'),
  regionCode: text('region_code'),
  latitude: doublePrecision('latitude'),
  longitude: doublePrecision('longitude'),
  syncedAt: ts('synced_at').notNull(),
  removedAt: ts('removed_at'),
});

export const serviceLines = pgTable('service_lines', {
  serviceLineNumber: text('service_line_number').primaryKey(),
  accountId: integer('account_id').notNull(),
  accountNumber: text('account_number').notNull(),
  nickname: text('nickname'),
  productReferenceId: text('product_reference_id'),
  addressReferenceId: text('address_reference_id'),
  active: boolean('active').notNull(),
  startDate: ts('start_date'),
  endDate: ts('end_date'),
  publicIp: boolean('public_ip'),
  dataBlocks: jsonb('data_blocks'),
  syncedAt: ts('synced_at').notNull(),
  removedAt: ts('removed_at'),
});

export const terminals = pgTable(
  'terminals',
  {
    userTerminalId: text('user_terminal_id').primaryKey(),
    accountId: integer('account_id').notNull(),
    accountNumber: text('account_number').notNull(),
    kitSerialNumber: text('kit_serial_number').notNull(),
    dishSerialNumber: text('dish_serial_number'),
    serviceLineNumber: text('service_line_number'),
    nickname: text('nickname'),
    active: boolean('active').notNull().default(false),
    condition: text('condition', { enum: ['active', 'warning', 'maintenance', 'inactive'] }).notNull().default('inactive'),
    isPriority: boolean('is_priority').notNull().default(false),
    assignedCustomerId: uuid('assigned_customer_id').references(() => customers.id),
    assignedAt: ts('assigned_at'),
    syncStatus: text('sync_status', { enum: ['synced', 'pending', 'error'] }).notNull().default('pending'),
    syncError: text('sync_error'),
    lastSyncedAt: ts('last_synced_at'),
    lastSyncRunId: uuid('last_sync_run_id'),
    contentHash: text('content_hash'),
    dataCapAmount: num('data_cap_amount'),
    dataCapUnit: text('data_cap_unit'),
    dataCapUpdatedAt: ts('data_cap_updated_at'),
    plan: text('plan'),
    productReferenceId: text('product_reference_id'),
    terminalType: text('terminal_type'),
    model: text('model'),
    location: text('location'),
    region: text('region'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    removedAt: ts('removed_at'),
    /** 0029: the terminal's small key in the telemetry history tables. */
    telemetryKey: integer('telemetry_key').generatedAlwaysAsIdentity(),
    /** 0003: the four provider ids and the assigned customer id, lower-cased, for the list's search. */
    searchText: text('search_text')
      .notNull()
      .generatedAlwaysAs(
        sql`lower(user_terminal_id) || chr(31) || lower(kit_serial_number) || chr(31) || lower(coalesce(dish_serial_number, '')) || chr(31) || lower(coalesce(service_line_number, '')) || chr(31) || coalesce(assigned_customer_id::text, '')`,
      ),
  },
  (t) => [
    // 0004: fastupdate on (the sync flushes the pending list after each apply), and the table has
    // fillfactor 70 (not expressible here); terminals_sync_status_idx was dropped.
    index('terminals_search_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')).with({ fastupdate: true }),
    index('terminals_live_line_idx').on(t.serviceLineNumber, t.userTerminalId).where(sql`${t.removedAt} IS NULL`),
    index('terminals_customer_idx').on(t.assignedCustomerId).where(sql`${t.assignedCustomerId} IS NOT NULL`),
    // 0013: a customer's live terminals in list order; it also INCLUDEs kit_serial_number, active
    // and assigned_at (not expressible here), so the assigned list is an index-only scan.
    index('terminals_customer_live_idx')
      .on(t.assignedCustomerId, t.serviceLineNumber, t.userTerminalId)
      .where(sql`${t.removedAt} IS NULL AND ${t.assignedCustomerId} IS NOT NULL`),
    // 0005: the lines removed terminals were on (assignment's "no longer listed" reason).
    index('terminals_removed_line_idx').on(t.serviceLineNumber).where(sql`${t.removedAt} IS NOT NULL`),
    // 0024: the lists' account filter and the dashboard's split by account; one account's terminals in line order.
    index('terminals_account_live_idx').on(t.accountId, t.active).where(sql`${t.removedAt} IS NULL`),
    index('terminals_account_line_idx').on(t.accountId, t.serviceLineNumber, t.userTerminalId).where(sql`${t.removedAt} IS NULL`),
  ],
);

export const terminalTelemetry = pgTable('terminal_telemetry', {
  userTerminalId: text('user_terminal_id')
    .primaryKey()
    .references(() => terminals.userTerminalId),
  reportedAt: ts('reported_at'),
  uptimeSeconds: doublePrecision('uptime_seconds'),
  signalQuality: doublePrecision('signal_quality'),
  downlinkMbps: doublePrecision('downlink_mbps'),
  uplinkMbps: doublePrecision('uplink_mbps'),
  latencyMs: doublePrecision('latency_ms'),
  pingDropRate: doublePrecision('ping_drop_rate'),
  obstructionPercent: doublePrecision('obstruction_percent'),
  softwareVersion: text('software_version'),
  hardwareVersion: text('hardware_version'),
  alerts: text('alerts').array().notNull().default(sql`'{}'`),
  syncedAt: ts('synced_at').notNull(),
});

export const serviceLineUsageCycles = pgTable(
  'service_line_usage_cycles',
  {
    serviceLineNumber: text('service_line_number').notNull(),
    cycleStart: date('cycle_start', { mode: 'string' }).notNull(),
    cycleEnd: date('cycle_end', { mode: 'string' }).notNull(),
    priorityGb: num('priority_gb').notNull().default(0),
    standardGb: num('standard_gb').notNull().default(0),
    optInPriorityGb: num('opt_in_priority_gb').notNull().default(0),
    nonBillableGb: num('non_billable_gb').notNull().default(0),
    usageLimitGb: num('usage_limit_gb'),
    overageGb: num('overage_gb'),
    productId: text('product_id'),
    lastUpdated: ts('last_updated'),
    syncedAt: ts('synced_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.serviceLineNumber, t.cycleStart] }), index('service_line_usage_cycles_start_idx').on(t.cycleStart)],
);

export const serviceLineUsageDaily = pgTable(
  'service_line_usage_daily',
  {
    serviceLineNumber: text('service_line_number').notNull(),
    usageDate: date('usage_date', { mode: 'string' }).notNull(),
    priorityGb: num('priority_gb').notNull().default(0),
    standardGb: num('standard_gb').notNull().default(0),
    optInPriorityGb: num('opt_in_priority_gb').notNull().default(0),
    nonBillableGb: num('non_billable_gb').notNull().default(0),
    syncedAt: ts('synced_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.serviceLineNumber, t.usageDate] })],
);

/**
 * 0009/0011: the fleet's counts as last folded (fleet_figures_now adds the deltas writers appended
 * since); telemetry and usage recounted on read when marked (fleet_figures_current).
 */
export const fleetFigures = pgTable('fleet_figures', {
  id: smallint('id').primaryKey().default(1),
  total: integer('total').notNull(),
  priority: integer('priority').notNull(),
  active: integer('active').notNull(),
  warning: integer('warning').notNull(),
  maintenance: integer('maintenance').notNull(),
  inactive: integer('inactive').notNull(),
  assigned: integer('assigned').notNull(),
  synced: integer('synced').notNull(),
  pending: integer('pending').notNull(),
  error: integer('error').notNull(),
  onActiveLine: integer('on_active_line').notNull(),
  telemetryCount: integer('telemetry_count').notNull(),
  onlineCount: integer('online_count').notNull(),
  meanSignalQuality: doublePrecision('mean_signal_quality'),
  usageDay: date('usage_day', { mode: 'string' }),
  usageLines: integer('usage_lines').notNull(),
  priorityGb: num('priority_gb').notNull(),
  standardGb: num('standard_gb').notNull(),
  recountedAt: ts('recounted_at'),
});

/** 0009: the subscriptions page's rows, computed by the server, kept current through subscription_dirty. */
export const subscriptionRows = pgTable('subscription_rows', {
  userTerminalId: text('user_terminal_id').primaryKey(),
  serviceLineNumber: text('service_line_number').notNull(),
  monthlyDataGb: num('monthly_data_gb').notNull(),
  overageGb: num('overage_gb').notNull(),
  searchText: text('search_text').notNull(),
  wire: jsonb('wire').notNull(),
  /** 0025: the terminal's provider account (the page's Account filter). */
  accountId: integer('account_id'),
});

/**
 * 0014: each customer's usage table for the month of subscription_totals.day (the cycle that
 * started in it), a row per live assigned terminal on a line: the columns of the usage page's base
 * row, computed in SQL by the same refresh as subscription_rows.
 */
export const customerUsageRows = pgTable(
  'customer_usage_rows',
  {
    userTerminalId: text('user_terminal_id').primaryKey(),
    customerId: uuid('customer_id').notNull(),
    serviceLineNumber: text('service_line_number').notNull(),
    location: text('location'),
    terminalType: text('terminal_type'),
    plan: text('plan'),
    active: boolean('active').notNull(),
    condition: text('condition').notNull(),
    syncStatus: text('sync_status').notNull(),
    dataCapAmount: num('data_cap_amount'),
    dataCapUnit: text('data_cap_unit'),
    lineActive: boolean('line_active'),
    cycleStart: date('cycle_start', { mode: 'string' }),
    cycleEnd: date('cycle_end', { mode: 'string' }),
    priorityGb: num('priority_gb'),
    standardGb: num('standard_gb'),
    cycleLimitGb: num('cycle_limit_gb'),
    status: text('status').notNull(),
    allowanceGb: num('allowance_gb').notNull(),
  },
  (t) => [
    // It also INCLUDEs every other column (not expressible here): the page reads the index alone.
    index('customer_usage_rows_customer_idx').on(t.customerId, t.serviceLineNumber, t.userTerminalId),
    index('customer_usage_rows_line_idx').on(t.serviceLineNumber),
  ],
);

export const subscriptionTotals = pgTable('subscription_totals', {
  id: smallint('id').primaryKey().default(1),
  day: date('day', { mode: 'string' }),
  total: integer('total').notNull(),
  plans50gb: integer('plans_50gb').notNull(),
  plans1tb: integer('plans_1tb').notNull(),
  overageTerminals: integer('overage_terminals').notNull(),
  totalOverageGb: num('total_overage_gb').notNull(),
});

/** 0011: a line may be marked several times; the refresh takes all of its marks. */
export const subscriptionDirty = pgTable('subscription_dirty', {
  serviceLineNumber: text('service_line_number').notNull(),
});

export const syncRuns = pgTable(
  'sync_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['inventory', 'usage'] }).notNull(),
    accountId: integer('account_id').notNull(),
    trigger: text('trigger', { enum: ['manual', 'schedule', 'startup'] }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    phase: text('phase'),
    progress: integer('progress'),
    added: integer('added').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    removed: integer('removed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    providerCalls: integer('provider_calls').notNull().default(0),
    message: text('message'),
    requestedBy: uuid('requested_by'),
    attempts: integer('attempts').notNull().default(0),
    workerId: text('worker_id'),
    queuedAt: ts('queued_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    heartbeatAt: ts('heartbeat_at'),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('sync_runs_one_active_uq').on(t.accountId, t.kind).where(sql`${t.status} IN ('queued', 'running')`),
    index('sync_runs_queued_at_idx').on(t.queuedAt.desc()),
  ],
);

export type TerminalRow = typeof terminals.$inferSelect;
export type NewTerminalRow = typeof terminals.$inferInsert;
export type ServiceLineRow = typeof serviceLines.$inferSelect;
export type SyncRunRow = typeof syncRuns.$inferSelect;
export type TerminalTelemetryRow = typeof terminalTelemetry.$inferSelect;
export type UsageCycleRow = typeof serviceLineUsageCycles.$inferSelect;
export type UsageDailyRow = typeof serviceLineUsageDaily.$inferSelect;

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomerRow = typeof customers.$inferInsert;
export type PasswordSetupTokenRow = typeof passwordSetupTokens.$inferSelect;
export type NewPasswordSetupTokenRow = typeof passwordSetupTokens.$inferInsert;
export type CustomerRequestRow = typeof customerRequests.$inferSelect;
export type TerminalRebootRow = typeof terminalReboots.$inferSelect;
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;
export type NewEmailOutboxRow = typeof emailOutbox.$inferInsert;
export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;
/** The columns a portal user and a customer share: what signing in works with. */
export type AccountRow = Omit<UserRow, 'role'>;

/** 0008: a kit taken to an active line step by step, resumable (server/services/activations.ts). */
export const activations = pgTable(
  'activations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deviceId: text('device_id').notNull(),
    accountId: integer('account_id').notNull(),
    deviceKey: text('device_key').notNull(),
    customerId: uuid('customer_id').references(() => customers.id),
    addressReferenceId: text('address_reference_id'),
    newAddress: jsonb('new_address'),
    addressKey: text('address_key').notNull(),
    productReferenceId: text('product_reference_id').notNull(),
    nickname: text('nickname'),
    status: text('status', { enum: ['running', 'failed', 'completed'] }).notNull(),
    steps: jsonb('steps').notNull().default({}),
    userTerminalId: text('user_terminal_id'),
    serviceLineNumber: text('service_line_number'),
    error: text('error'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('activations_device_open_uq').on(t.deviceKey).where(sql`${t.status} <> 'completed'`),
    index('activations_created_idx').on(t.createdAt.desc()),
  ],
);

/** 0010: every provider call's start, per account and lane, kept an hour (server/services/provider-call-budget.ts). */
export const providerCallStarts = pgTable(
  'provider_call_starts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountKey: text('account_key').notNull(),
    lane: text('lane', { enum: ['person', 'sync'] }).notNull(),
    startedAt: ts('started_at').notNull(),
  },
  (t) => [index('provider_call_starts_account_time_idx').on(t.accountKey, t.startedAt)],
);

/** 0010: what a provider account's whole budget respects besides the count: a 429's pause, people waiting. */
export const providerCallBudgets = pgTable('provider_call_budgets', {
  accountKey: text('account_key').primaryKey(),
  pausedUntil: ts('paused_until'),
  peopleWaitingUntil: ts('people_waiting_until'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

// ---- 0016: alerts and webhooks ------------------------------------------------------------------

const ALERT_KIND_ENUM = ['usage', 'overage_forecast', 'offline', 'sync_failed', 'account_expiring', 'change_failed'] as const;

/** 0016: one row per kind of rule, with its default threshold. */
export const alertRules = pgTable('alert_rules', {
  kind: text('kind', { enum: ALERT_KIND_ENUM }).primaryKey(),
  enabled: boolean('enabled').notNull().default(true),
  usageLevels: integer('usage_levels').array(),
  threshold: num('threshold'),
  notifyCustomer: boolean('notify_customer').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  /** 0027: what the rule does at its levels besides notifying. */
  actions: jsonb('actions').$type<RuleActionWire[]>().notNull().default([]),
  /** 0027: who last saved the actions (named as the one who set them up). */
  actionsBy: uuid('actions_by').references(() => users.id, { onDelete: 'set null' }),
});

/** 0016: a customer's or a line's own settings of a rule. */
export const alertOverrides = pgTable(
  'alert_overrides',
  {
    kind: text('kind', { enum: ALERT_KIND_ENUM })
      .notNull()
      .references(() => alertRules.kind),
    scope: text('scope', { enum: ['customer', 'line'] }).notNull(),
    scopeKey: text('scope_key').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    usageLevels: integer('usage_levels').array(),
    threshold: num('threshold'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    /** 0027: this customer's or line's own actions; null: the rule's. */
    actions: jsonb('actions').$type<RuleActionWire[]>(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.scope, t.scopeKey] })],
);

/** 0016: admins emailed when a rule of the kind opens an alert. */
export const alertSubscriptions = pgTable(
  'alert_subscriptions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ALERT_KIND_ENUM })
      .notNull()
      .references(() => alertRules.kind),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** 0016: an alert, open → acknowledged → resolved; unique per kind, target, period, level and customer. */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ALERT_KIND_ENUM })
      .notNull()
      .references(() => alertRules.kind),
    level: integer('level').notNull().default(0),
    severity: text('severity', { enum: ['warning', 'critical'] }).notNull(),
    targetType: text('target_type', { enum: ['line', 'terminal', 'customer', 'sync'] }).notNull(),
    targetKey: text('target_key').notNull(),
    periodKey: text('period_key').notNull(),
    serviceLineNumber: text('service_line_number'),
    userTerminalId: text('user_terminal_id'),
    customerId: uuid('customer_id').references(() => customers.id),
    status: text('status', { enum: ['open', 'acknowledged', 'resolved'] }).notNull().default('open'),
    message: text('message').notNull(),
    figures: jsonb('figures').notNull().default({}),
    openedAt: ts('opened_at').notNull(),
    acknowledgedAt: ts('acknowledged_at'),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: ts('resolved_at'),
    resolvedReason: text('resolved_reason'),
  },
  (t) => [
    uniqueIndex('alerts_once_uq').on(
      t.kind,
      t.targetKey,
      t.periodKey,
      t.level,
      sql`coalesce(${t.customerId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
    index('alerts_unresolved_idx').on(t.kind, t.targetKey).where(sql`${t.status} <> 'resolved'`),
    index('alerts_unresolved_line_idx').on(t.serviceLineNumber).where(sql`${t.status} <> 'resolved'`),
    index('alerts_status_opened_idx').on(t.status, t.openedAt.desc()),
    index('alerts_opened_idx').on(t.openedAt.desc()),
    index('alerts_customer_idx').on(t.customerId, t.openedAt.desc()).where(sql`${t.customerId} IS NOT NULL`),
  ],
);

/** 0016: when each user last opened the bell. */
export const alertReads = pgTable('alert_reads', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  seenAt: ts('seen_at').notNull(),
});

/** 0016: lines whose figures changed since the last evaluation (written by triggers). */
export const alertDirtyLines = pgTable('alert_dirty_lines', {
  serviceLineNumber: text('service_line_number').primaryKey(),
});

/** 0016: an endpoint an admin registered; the secret is sealed. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey().defaultRandom(),
  url: text('url').notNull(),
  description: text('description').notNull().default(''),
  secretSealed: text('secret_sealed').notNull(),
  secretHint: text('secret_hint').notNull(),
  eventTypes: text('event_types').array().notNull().default(sql`'{}'`),
  status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
  disabledReason: text('disabled_reason'),
  disabledAt: ts('disabled_at'),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  createdAt: ts('created_at').notNull().defaultNow(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  deletedAt: ts('deleted_at'),
});

/** 0016: one event; its id is the payload's id. */
export const webhookEvents = pgTable('webhook_events', {
  id: uuid('id').primaryKey().defaultRandom(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  createdAt: ts('created_at').notNull(),
});

/** 0016: one event to one endpoint, retried with back-off for 24 hours. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    status: text('status', { enum: ['pending', 'succeeded', 'abandoned'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    nextAttemptAt: ts('next_attempt_at'),
    lockedUntil: ts('locked_until'),
    lastAttemptAt: ts('last_attempt_at'),
    responseStatus: integer('response_status'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
    replayOf: uuid('replay_of'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt.desc()),
  ],
);

/** 0016: every attempt of a delivery. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id),
    attemptedAt: ts('attempted_at').notNull(),
    responseStatus: integer('response_status'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt.desc())],
);

export type AlertRow = typeof alerts.$inferSelect;
export type AlertRuleRow = typeof alertRules.$inferSelect;
export type AlertOverrideRow = typeof alertOverrides.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;

// ---- 0017: billing ------------------------------------------------------------------------------

const minor = (name: string) => bigint(name, { mode: 'number' });
const CYCLE_STATUS = ['open', 'closed'] as const;

/** 0017: the price list, one row per product and date it applies from (rows never change). */
export const billingPrices = pgTable('billing_prices', {
  id: uuid('id').primaryKey().defaultRandom(),
  productReferenceId: text('product_reference_id').notNull(),
  currency: text('currency').notNull(),
  monthlyMinor: minor('monthly_minor').notNull(),
  overagePerGbMinor: minor('overage_per_gb_minor').notNull(),
  topUpMinor: minor('top_up_minor').notNull(),
  effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
  note: text('note'),
  createdAt: ts('created_at').notNull().defaultNow(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
});

/** 0017: a customer's negotiated prices and/or discount, for a product or every product. */
export const billingCustomerPrices = pgTable(
  'billing_customer_prices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    productReferenceId: text('product_reference_id'),
    effectiveFrom: date('effective_from', { mode: 'string' }).notNull(),
    effectiveUntil: date('effective_until', { mode: 'string' }),
    discountBp: integer('discount_bp'),
    monthlyMinor: minor('monthly_minor'),
    overagePerGbMinor: minor('overage_per_gb_minor'),
    topUpMinor: minor('top_up_minor'),
    note: text('note'),
    createdAt: ts('created_at').notNull().defaultNow(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('billing_customer_prices_customer_idx').on(t.customerId, t.effectiveFrom)],
);

/** 0017: a cycle the billing worked on, open until its statements are closed. */
export const billingCycles = pgTable('billing_cycles', {
  cycle: text('cycle').primaryKey(),
  status: text('status', { enum: CYCLE_STATUS }).notNull().default('open'),
  refreshedAt: ts('refreshed_at'),
  closedAt: ts('closed_at'),
});

/** 0017: a customer's statement of one cycle in one currency; closed ones never change. */
export const billingStatements = pgTable(
  'billing_statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    cycle: text('cycle').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: ['draft', 'closed'] }).notNull().default('draft'),
    number: text('number').unique(),
    serviceLines: integer('service_lines').notNull().default(0),
    subtotalMinor: minor('subtotal_minor').notNull().default(0),
    discountMinor: minor('discount_minor').notNull().default(0),
    adjustmentMinor: minor('adjustment_minor').notNull().default(0),
    totalMinor: minor('total_minor').notNull().default(0),
    contentHash: text('content_hash').notNull().default(''),
    customerName: text('customer_name'),
    customerEmail: text('customer_email'),
    customerCompany: text('customer_company'),
    customerAddress: text('customer_address'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    closedAt: ts('closed_at'),
    /** 0028: the close day plus the customer's payment terms. */
    dueOn: date('due_on', { mode: 'string' }),
  },
  (t) => [uniqueIndex('billing_statements_customer_id_cycle_currency_key').on(t.customerId, t.cycle, t.currency), index('billing_statements_cycle_idx').on(t.cycle, t.status)],
);

/** 0017: a statement's lines in order. */
export const billingStatementItems = pgTable(
  'billing_statement_items',
  {
    statementId: uuid('statement_id')
      .notNull()
      .references(() => billingStatements.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    kind: text('kind', { enum: ['plan', 'overage', 'top_up', 'discount', 'adjustment'] }).notNull(),
    serviceLineNumber: text('service_line_number'),
    productReferenceId: text('product_reference_id'),
    description: text('description').notNull(),
    periodStart: date('period_start', { mode: 'string' }),
    periodEnd: date('period_end', { mode: 'string' }),
    quantity: numeric('quantity').notNull(),
    unitMinor: minor('unit_minor'),
    amountMinor: minor('amount_minor').notNull(),
    adjustmentId: uuid('adjustment_id'),
  },
  (t) => [primaryKey({ columns: [t.statementId, t.position] })],
);

/** 0017: a credit (negative) or charge (positive) carried onto the customer's next statement. */
export const billingAdjustments = pgTable('billing_adjustments', {
  id: uuid('id').primaryKey().defaultRandom(),
  customerId: uuid('customer_id')
    .notNull()
    .references(() => customers.id),
  currency: text('currency').notNull(),
  amountMinor: minor('amount_minor').notNull(),
  reason: text('reason').notNull(),
  source: text('source', { enum: ['manual', 'reconciliation'] }).notNull().default('manual'),
  againstStatementId: uuid('against_statement_id').references(() => billingStatements.id),
  appliedStatementId: uuid('applied_statement_id').references(() => billingStatements.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
});

/** 0017: the top-up blocks a line bought in a cycle, copied while the cycle ran. */
export const billingLineTopUps = pgTable(
  'billing_line_top_ups',
  {
    serviceLineNumber: text('service_line_number').notNull(),
    cycle: text('cycle').notNull(),
    oneTimeBlocks: integer('one_time_blocks').notNull().default(0),
    optInBlocks: integer('opt_in_blocks').notNull().default(0),
    recordedAt: ts('recorded_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.serviceLineNumber, t.cycle] })],
);

/** 0017: the provider's partial periods of a line. */
export const serviceLinePeriods = pgTable(
  'service_line_periods',
  {
    serviceLineNumber: text('service_line_number').notNull(),
    periodStart: ts('period_start').notNull(),
    periodEnd: ts('period_end').notNull(),
    productReferenceId: text('product_reference_id').notNull(),
    fetchedAt: ts('fetched_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.serviceLineNumber, t.periodStart] })],
);

/** 0017: lines whose partial periods are to be fetched (written by a trigger on service_lines). */
export const billingPeriodChecks = pgTable('billing_period_checks', {
  serviceLineNumber: text('service_line_number').primaryKey(),
  markedAt: ts('marked_at').notNull().defaultNow(),
});

/** 0017: a provider invoice as imported. */
export const providerInvoices = pgTable(
  'provider_invoices',
  {
    invoiceId: text('invoice_id').primaryKey(),
    accountId: integer('account_id').notNull(),
    cycle: text('cycle').notNull(),
    currency: text('currency').notNull(),
    amountMinor: minor('amount_minor').notNull(),
    invoiceDate: ts('invoice_date'),
    dueDate: ts('due_date'),
    status: text('status'),
    importedAt: ts('imported_at').notNull().defaultNow(),
  },
  (t) => [index('provider_invoices_cycle_idx').on(t.cycle)],
);

/** 0017: one row per invoice line and service line it names. */
export const providerInvoiceLines = pgTable(
  'provider_invoice_lines',
  {
    invoiceId: text('invoice_id')
      .notNull()
      .references(() => providerInvoices.invoiceId, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productReferenceId: text('product_reference_id'),
    description: text('description'),
    serviceLineNumber: text('service_line_number'),
    quantity: numeric('quantity'),
    unitPrice: numeric('unit_price'),
    amountMinor: minor('amount_minor').notNull(),
    periodStart: ts('period_start'),
    periodEnd: ts('period_end'),
  },
  (t) => [primaryKey({ columns: [t.invoiceId, t.position] }), index('provider_invoice_lines_line_idx').on(t.serviceLineNumber)],
);

/** 0017: what was done about a leak the reconciliation board listed. */
export const billingLeakResolutions = pgTable(
  'billing_leak_resolutions',
  {
    cycle: text('cycle').notNull(),
    kind: text('kind').notNull(),
    leakKey: text('leak_key').notNull(),
    action: text('action').notNull(),
    note: text('note'),
    resolvedAt: ts('resolved_at').notNull().defaultNow(),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.cycle, t.kind, t.leakKey] })],
);

export type BillingPriceRow = typeof billingPrices.$inferSelect;
export type BillingCustomerPriceRow = typeof billingCustomerPrices.$inferSelect;
export type BillingStatementRow = typeof billingStatements.$inferSelect;
export type BillingStatementItemRow = typeof billingStatementItems.$inferSelect;
export type BillingAdjustmentRow = typeof billingAdjustments.$inferSelect;

/** 0019: one bulk action over an operator's CSV. */
export const bulkOperations = pgTable(
  'bulk_operations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['assign', 'block', 'unblock', 'extend', 'change-plan'] }).notNull(),
    status: text('status', { enum: ['running', 'done'] }).notNull().default('running'),
    total: integer('total').notNull(),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdIp: text('created_ip'),
    requestId: text('request_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [index('bulk_operations_created_at_idx').on(t.createdAt.desc())],
);

/** 0019: one row of a bulk action: its input and, once run, its outcome. */
export const bulkOperationRows = pgTable(
  'bulk_operation_rows',
  {
    operationId: uuid('operation_id')
      .notNull()
      .references(() => bulkOperations.id, { onDelete: 'cascade' }),
    line: integer('line').notNull(),
    input: jsonb('input').notNull(),
    status: text('status', { enum: ['pending', 'running', 'ok', 'failed', 'skipped'] }).notNull(),
    message: text('message'),
    claimedAt: ts('claimed_at'),
    doneAt: ts('done_at'),
  },
  (t) => [primaryKey({ columns: [t.operationId, t.line] }), index('bulk_operation_rows_status_idx').on(t.operationId, t.status, t.line)],
);

export type BulkOperationRow = typeof bulkOperations.$inferSelect;
export type BulkOperationRowRow = typeof bulkOperationRows.$inferSelect;

// ---- 0021: team roles ------------------------------------------------------------------------

/** Built-in roles have a key and take their permissions from the code; custom roles keep theirs. */
export const roles = pgTable(
  'roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').unique(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    permissions: text('permissions').array().notNull().default(sql`'{}'`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_name_uq').on(sql`lower(${t.name})`)],
);
export type RoleRow = typeof roles.$inferSelect;

export const userRoles = pgTable(
  'user_roles',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

// ---- 0022: customer organisations' members and invitations -------------------------------

/**
 * A customer organisation's person other than its original login (the customers row, its owner):
 * the account columns, the organisation, a role, and the lines they are limited to (null: all).
 */
export const customerMembers = pgTable(
  'customer_members',
  {
    ...accountColumns(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'manager', 'viewer'] }).notNull(),
    serviceLines: text('service_lines').array(),
  },
  (t) => [
    uniqueIndex('customer_members_email_live_uq').on(sql`lower(${t.email})`).where(sql`${t.deletedAt} IS NULL`),
    index('customer_members_customer_idx').on(t.customerId, t.createdAt),
  ],
);
export type CustomerMemberRow = typeof customerMembers.$inferSelect;
export type NewCustomerMemberRow = typeof customerMembers.$inferInsert;

/** An emailed, single-use invitation into an organisation; the token is stored as its SHA-256. */
export const customerInvitations = pgTable(
  'customer_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    role: text('role', { enum: ['owner', 'manager', 'viewer'] }).notNull(),
    serviceLines: text('service_lines').array(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
    invitedByType: text('invited_by_type', { enum: ['user', 'api_key', 'customer', 'member', 'system'] }).notNull(),
    invitedById: uuid('invited_by_id'),
    /** The member the invitation made, once accepted. */
    memberId: uuid('member_id').references(() => customerMembers.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('customer_invitations_hash_uq').on(t.tokenHash), index('customer_invitations_customer_idx').on(t.customerId, t.createdAt.desc())],
);
export type CustomerInvitationRow = typeof customerInvitations.$inferSelect;

// ---- 0023: API keys --------------------------------------------------------------------------

/** A key for the reseller's own systems: stored as the SHA-256 of the whole key, with a prefix to tell keys apart. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    roleId: uuid('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    /** Null: any address. */
    allowedIps: text('allowed_ips').array(),
    lastUsedAt: ts('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    revokedAt: ts('revoked_at'),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_uq').on(t.keyHash),
    uniqueIndex('api_keys_name_uq').on(sql`lower(${t.name})`).where(sql`revoked_at IS NULL`),
    index('api_keys_role_idx').on(t.roleId),
  ],
);
export type ApiKeyRow = typeof apiKeys.$inferSelect;

// ---- 0024: provider accounts ---------------------------------------------------------------------

/** 0024: the reseller's service accounts at the provider; every provider record names one. */
export const providerAccounts = pgTable('provider_accounts', {
  id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
  name: text('name').notNull(),
  kind: text('kind', { enum: ['pending', 'starlink', 'simulator'] }).notNull(),
  simulatorAccount: text('simulator_account'),
  apiUrl: text('api_url'),
  tokenUrl: text('token_url'),
  clientId: text('client_id'),
  /** Sealed with the server's secret box, bound to the account's id; never returned. */
  clientSecretSealed: text('client_secret_sealed'),
  /** Null: the provider client's default. */
  requestsPerMinute: integer('requests_per_minute'),
  syncIntervalMinutes: integer('sync_interval_minutes'),
  enabled: boolean('enabled').notNull().default(true),
  authFailedAt: ts('auth_failed_at'),
  statusMessage: text('status_message'),
  accountNumber: text('account_number'),
  currency: text('currency'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type ProviderAccountRow = typeof providerAccounts.$inferSelect;

/**
 * 0026: a provider write that changes money or service, recorded before it is sent; a pending one
 * is looked up at the provider before anything is sent again (server/services/provider-intents.ts).
 */
export const providerIntents = pgTable(
  'provider_intents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull().unique(),
    operation: text('operation', { enum: ['top_up', 'plan_change', 'priority_data', 'recurring_blocks', 'deactivate'] }).notNull(),
    serviceLineNumber: text('service_line_number').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'uncertain'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    outcome: text('outcome'),
    createdAt: ts('created_at').notNull().defaultNow(),
    sentAt: ts('sent_at'),
    settledAt: ts('settled_at'),
  },
  (t) => [index('provider_intents_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`)],
);
export type ProviderIntentRow = typeof providerIntents.$inferSelect;

/** 0027: an action a rule's level proposed or took on a line, once per line, rule, level and cycle. */
export const automaticActions = pgTable(
  'automatic_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ruleKind: text('rule_kind', { enum: ['usage', 'overage_forecast', 'dunning'] }).notNull(),
    level: integer('level').notNull(),
    action: text('action', { enum: ['opt_out', 'stop_recurring_blocks', 'change_plan', 'block_sign_in', 'end_at_cycle_end'] }).notNull(),
    mode: text('mode', { enum: ['propose', 'act'] }).notNull(),
    status: text('status', { enum: ['proposed', 'queued', 'running', 'executed', 'failed', 'dismissed', 'undone', 'skipped'] }).notNull(),
    serviceLineNumber: text('service_line_number').notNull(),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'set null' }),
    alertId: uuid('alert_id').references(() => alerts.id, { onDelete: 'set null' }),
    cycleStart: text('cycle_start').notNull(),
    productReferenceId: text('product_reference_id'),
    projectedSaving: num('projected_saving'),
    currency: text('currency'),
    setUpBy: uuid('set_up_by').references(() => users.id, { onDelete: 'set null' }),
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: ts('decided_at'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    claimedUntil: ts('claimed_until'),
    executedAt: ts('executed_at'),
    outcome: text('outcome'),
    undoState: jsonb('undo_state').$type<Record<string, unknown>>(),
    undoneAt: ts('undone_at'),
    undoneBy: uuid('undone_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('automatic_actions_once_uq').on(t.serviceLineNumber, t.ruleKind, t.level, t.cycleStart, t.action),
    index('automatic_actions_due_idx').on(t.nextAttemptAt).where(sql`${t.status} IN ('queued', 'running')`),
    index('automatic_actions_waiting_idx').on(t.createdAt).where(sql`${t.status} = 'proposed'`),
    index('automatic_actions_alert_idx').on(t.alertId),
    index('automatic_actions_created_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);
export type AutomaticActionRow = typeof automaticActions.$inferSelect;

/** 0027: a line's or customer's change set for a later moment, run once when due. */
export const scheduledChanges = pgTable(
  'scheduled_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operation: text('operation', { enum: ['change_plan', 'opt_in', 'opt_out', 'recurring_blocks', 'deactivate', 'block', 'unblock', 'extend'] }).notNull(),
    targetType: text('target_type', { enum: ['line', 'customer'] }).notNull(),
    targetKey: text('target_key').notNull(),
    parameters: jsonb('parameters').$type<ScheduleParameters>().notNull().default({}),
    runAt: ts('run_at').notNull(),
    atNextCycle: boolean('at_next_cycle').notNull().default(false),
    status: text('status', { enum: ['scheduled', 'running', 'done', 'failed', 'skipped', 'cancelled'] }).notNull().default('scheduled'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at'),
    claimedUntil: ts('claimed_until'),
    outcome: text('outcome'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    executedAt: ts('executed_at'),
    cancelledBy: uuid('cancelled_by').references(() => users.id, { onDelete: 'set null' }),
    cancelledAt: ts('cancelled_at'),
  },
  (t) => [
    index('scheduled_changes_due_idx').on(t.runAt).where(sql`${t.status} IN ('scheduled', 'running')`),
    index('scheduled_changes_target_idx').on(t.targetKey, t.runAt),
    index('scheduled_changes_created_idx').on(t.runAt.desc(), t.id.desc()),
  ],
);
export type ScheduledChangeRow = typeof scheduledChanges.$inferSelect;
