// Drizzle's view of the tables. The SQL files in ./migrations are the source of truth for the
// database; this file mirrors them (tests/server/migrations.test.ts checks the two agree).
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Columns every sign-in account has, portal user or customer. */
const accountColumns = () => ({
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull(),
  name: text('name').notNull(),
  passwordHash: text('password_hash'),
  isActive: boolean('is_active').notNull().default(true),
  mfaEnabled: boolean('mfa_enabled').notNull().default(false),
  mfaSecret: text('mfa_secret'),
  accountExpiresAt: ts('account_expires_at'),
  blockedEnabled: boolean('blocked_enabled').notNull().default(false),
  blockedReason: text('blocked_reason'),
  blockedAt: ts('blocked_at'),
  failedLoginAttempts: integer('failed_login_attempts').notNull().default(0),
  lockedUntil: ts('locked_until'),
  lastLogin: ts('last_login'),
  lastIp: text('last_ip'),
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
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id),
    /** SHA-256 of the token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    revokedAt: ts('revoked_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('password_setup_tokens_hash_uq').on(t.tokenHash),
    index('password_setup_tokens_customer_idx').on(t.customerId, t.createdAt.desc()),
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
    actorType: text('actor_type', { enum: ['user', 'customer', 'system', 'anonymous'] }).notNull(),
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

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomerRow = typeof customers.$inferInsert;
export type PasswordSetupTokenRow = typeof passwordSetupTokens.$inferSelect;
export type NewPasswordSetupTokenRow = typeof passwordSetupTokens.$inferInsert;
export type EmailOutboxRow = typeof emailOutbox.$inferSelect;
export type NewEmailOutboxRow = typeof emailOutbox.$inferInsert;
export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;
/** The columns a portal user and a customer share: what signing in works with. */
export type AccountRow = Omit<UserRow, 'role'>;
