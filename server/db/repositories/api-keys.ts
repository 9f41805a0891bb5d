// API keys: the rows behind the API keys page, and the one read every API-key request makes. A key
// is found by the SHA-256 of the whole key through its unique index, with its role and its
// creator's standing in the same statement (prepared once): the caller runs it whether or not the
// key exists, so unknown, revoked and expired keys cost the same.
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import { apiKeys, roles, users, type ApiKeyRow } from '../schema';

/** What deciding whether a key may act needs, in one row. */
export interface ApiKeyCredential {
  id: string;
  name: string;
  keyHash: string;
  roleKey: string | null;
  rolePermissions: string[];
  expiresAt: Date | null;
  allowedIps: string[] | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdBy: string | null;
  /** The creator's standing (null fields: the creator was removed for good). */
  creatorDeletedAt: Date | null;
  creatorBlocked: boolean | null;
  creatorActive: boolean | null;
  creatorExpiresAt: Date | null;
}

export interface ApiKeyPersonRow {
  id: string;
  name: string;
  email: string;
}

/** A key as the list shows it: its role, its creator (and whether they can sign in now), who revoked it. */
export interface ApiKeyListRow extends Omit<ApiKeyRow, 'keyHash'> {
  role: { id: string; key: string | null; name: string };
  creator: (ApiKeyPersonRow & { deletedAt: Date | null; blockedEnabled: boolean; isActive: boolean; accountExpiresAt: Date | null }) | null;
  revoker: ApiKeyPersonRow | null;
}

export interface NewApiKey {
  name: string;
  prefix: string;
  keyHash: string;
  roleId: string;
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  allowedIps: string[] | null;
}

/** A busy key's last use is written at most this often. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;

export function createApiKeysRepository(db: Db) {
  const credential = db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      keyHash: apiKeys.keyHash,
      roleKey: roles.key,
      rolePermissions: roles.permissions,
      expiresAt: apiKeys.expiresAt,
      allowedIps: apiKeys.allowedIps,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
      createdBy: apiKeys.createdBy,
      creatorDeletedAt: users.deletedAt,
      creatorBlocked: users.blockedEnabled,
      creatorActive: users.isActive,
      creatorExpiresAt: users.accountExpiresAt,
    })
    .from(apiKeys)
    .innerJoin(roles, eq(roles.id, apiKeys.roleId))
    .leftJoin(users, eq(users.id, apiKeys.createdBy))
    .where(eq(apiKeys.keyHash, sql.placeholder('hash')))
    .prepare('api_key_credential');

  const creator = alias(users, 'api_key_creator');
  const revoker = alias(users, 'api_key_revoker');
  const listSelect = (tx: Db) =>
    tx
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        prefix: apiKeys.prefix,
        roleId: apiKeys.roleId,
        createdBy: apiKeys.createdBy,
        createdAt: apiKeys.createdAt,
        expiresAt: apiKeys.expiresAt,
        allowedIps: apiKeys.allowedIps,
        lastUsedAt: apiKeys.lastUsedAt,
        lastUsedIp: apiKeys.lastUsedIp,
        revokedAt: apiKeys.revokedAt,
        revokedBy: apiKeys.revokedBy,
        roleKey: roles.key,
        roleName: roles.name,
        creatorId: creator.id,
        creatorName: creator.name,
        creatorEmail: creator.email,
        creatorDeletedAt: creator.deletedAt,
        creatorBlocked: creator.blockedEnabled,
        creatorActive: creator.isActive,
        creatorExpiresAt: creator.accountExpiresAt,
        revokerId: revoker.id,
        revokerName: revoker.name,
        revokerEmail: revoker.email,
      })
      .from(apiKeys)
      .innerJoin(roles, eq(roles.id, apiKeys.roleId))
      .leftJoin(creator, eq(creator.id, apiKeys.createdBy))
      .leftJoin(revoker, eq(revoker.id, apiKeys.revokedBy));
  type Selected = Awaited<ReturnType<ReturnType<typeof listSelect>['execute']>>[number];
  const toListRow = (r: Selected): ApiKeyListRow => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    roleId: r.roleId,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    allowedIps: r.allowedIps,
    lastUsedAt: r.lastUsedAt,
    lastUsedIp: r.lastUsedIp,
    revokedAt: r.revokedAt,
    revokedBy: r.revokedBy,
    role: { id: r.roleId, key: r.roleKey, name: r.roleName },
    creator:
      r.creatorId === null
        ? null
        : {
            id: r.creatorId,
            name: r.creatorName ?? '',
            email: r.creatorEmail ?? '',
            deletedAt: r.creatorDeletedAt,
            blockedEnabled: r.creatorBlocked ?? false,
            isActive: r.creatorActive ?? false,
            accountExpiresAt: r.creatorExpiresAt,
          },
    revoker: r.revokerId === null ? null : { id: r.revokerId, name: r.revokerName ?? '', email: r.revokerEmail ?? '' },
  });

  return {
    /** The key whose hash this is, with its role and its creator's standing; null when there is none. */
    async credential(hash: string): Promise<ApiKeyCredential | null> {
      const [row] = await credential.execute({ hash });
      return row ?? null;
    },
    /** Every key, newest first (revoked ones too: the page shows what was revoked, by whom). */
    async list(tx: Db = db): Promise<ApiKeyListRow[]> {
      const rows = await listSelect(tx).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
      return rows.map(toListRow);
    },
    async findListRow(id: string, tx: Db = db): Promise<ApiKeyListRow | null> {
      const [row] = await listSelect(tx).where(eq(apiKeys.id, id)).limit(1);
      return row ? toListRow(row) : null;
    },
    async insert(row: NewApiKey, tx: Db = db): Promise<ApiKeyRow> {
      const [created] = await tx.insert(apiKeys).values(row).returning();
      if (!created) throw new Error('insert into api_keys returned no row');
      return created;
    },
    /** Revokes a key not yet revoked; false when it was already (or does not exist). */
    async revoke(id: string, input: { at: Date; by: string }, tx: Db = db): Promise<boolean> {
      const rows = await tx
        .update(apiKeys)
        .set({ revokedAt: input.at, revokedBy: input.by })
        .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      return rows.length > 0;
    },
    /**
     * Records a use, unless one was recorded within the last minute: a key called hundreds of
     * times a minute writes its row about once a minute (the caller skips the call on the same
     * grounds; this condition settles races between requests and processes).
     */
    async touch(id: string, input: { at: Date; ip: string }): Promise<void> {
      const stale = new Date(input.at.getTime() - LAST_USED_RESOLUTION_MS);
      await db
        .update(apiKeys)
        .set({ lastUsedAt: input.at, lastUsedIp: input.ip })
        .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))));
    },
  };
}
