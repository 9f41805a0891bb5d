// API keys for the reseller's own systems: made by a portal user who may manage users (shown
// once, stored as a SHA-256), listed with a short prefix only, revoked, and turned back into a
// principal on every request that carries one.
// - A key's role lies within its creator's permissions when it is made (else 403, escalation), and
//   at every call the key acts with its role's permissions intersected with what its creator holds
//   then: a demoted creator narrows their keys at once.
// - A creator who cannot sign in now (blocked, inactive, account expired, deleted) stops their keys
//   until they are restored; a creator removed for good stops them for ever.
// - Unknown, revoked, expired and out-of-range keys are all the same 401, reached by the same
//   work: the lookup by hash and the creator's permissions run whether or not a key was found.
// - A key cannot make keys: a leaked key could otherwise outlive its own revocation.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_LIMITS,
  API_KEY_MESSAGES as M,
  API_KEY_PREFIX,
  API_KEY_RANDOM_BYTES,
  API_KEY_SHOWN_LENGTH,
  allowListProblems,
  ipAllowed,
  type ApiKeyCreatedWire,
  type ApiKeyInput,
  type ApiKeyPerson,
  type ApiKeyStatus,
  type ApiKeyWire,
} from '../../src/domain/api-keys';
import { ROLE_MESSAGES, allows, type BuiltInRoleKey } from '../../src/domain/permissions';
import type { Principal, StaffPrincipal } from '../auth/principal';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { ApiKeyListRow } from '../db/repositories/api-keys';
import { LAST_USED_RESOLUTION_MS } from '../db/repositories/api-keys';
import { isUniqueViolation } from '../db/repositories/unique-violation';
import type { FieldError } from '../errors';
import { ConflictError, ForbiddenError, NotFoundError } from '../errors';
import { accountRefusal } from './account-status';
import { failValidation } from './account-fields';
import { auditSource, type AuditService, type RequestContext } from './audit';
import { grantsOfRole, type RolesService } from './roles';

/** The lookup's stand-in for a key that is not there: the same comparison runs against it. */
const ABSENT_HASH = Buffer.alloc(32);
/** The creator whose permissions are read for a key that is not there (nobody holds this id). */
const NOBODY = '00000000-0000-0000-0000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** `slk_` + 32 random bytes, base64url. */
export const newApiKeySecret = (): string => `${API_KEY_PREFIX}${randomBytes(API_KEY_RANDOM_BYTES).toString('base64url')}`;

type Creator = ApiKeyListRow['creator'];

/** Whether the creator can sign in now: only then may their keys act. */
const creatorStands = (creator: Pick<NonNullable<Creator>, 'deletedAt' | 'blockedEnabled' | 'isActive' | 'accountExpiresAt'> | null, at: Date) =>
  creator !== null && creator.deletedAt === null && accountRefusal(creator, at) === null;

function statusOf(row: ApiKeyListRow, at: Date): ApiKeyStatus {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= at.getTime()) return 'expired';
  return creatorStands(row.creator, at) ? 'active' : 'suspended';
}

const person = (p: { id: string; name: string; email: string } | null): ApiKeyPerson | null => (p ? { id: p.id, name: p.name, email: p.email } : null);

function toWire(row: ApiKeyListRow, at: Date): ApiKeyWire {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: { id: row.role.id, key: row.role.key as BuiltInRoleKey | null, name: row.role.name },
    createdBy: person(row.creator),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    allowedIps: row.allowedIps ?? [],
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    revokedBy: person(row.revoker),
    status: statusOf(row, at),
  };
}

interface ValidInput {
  name: string;
  roleId: string;
  expiresAt: Date | null;
  allowedIps: string[] | null;
}

/** The form's rules, every problem by its field. */
function validInput(input: Partial<ApiKeyInput>, at: Date): ValidInput {
  const errors: FieldError[] = [];
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) errors.push({ path: 'name', message: M.nameRequired });
  else if (name.length > API_KEY_LIMITS.name) errors.push({ path: 'name', message: M.nameTooLong });

  const roleId = typeof input.roleId === 'string' ? input.roleId.trim() : '';
  if (!roleId) errors.push({ path: 'roleId', message: M.roleRequired });
  else if (!UUID.test(roleId)) errors.push({ path: 'roleId', message: M.roleNotFound });

  let expiresAt: Date | null = null;
  if (typeof input.expiresAt === 'string' && input.expiresAt.trim() !== '') {
    const parsed = new Date(input.expiresAt.trim());
    if (Number.isNaN(parsed.getTime())) errors.push({ path: 'expiresAt', message: M.expiryInvalid });
    else if (parsed.getTime() <= at.getTime()) errors.push({ path: 'expiresAt', message: M.expiryPast });
    else expiresAt = parsed;
  }

  const entries = (input.allowedIps ?? []).map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const problem of allowListProblems(entries)) {
    errors.push({ path: problem.index === null ? 'allowedIps' : `allowedIps.${problem.index}`, message: problem.message });
  }
  if (errors.length > 0) failValidation(errors);
  return { name, roleId, expiresAt, allowedIps: entries.length > 0 ? [...new Set(entries)] : null };
}

export interface ApiKeyCall {
  method: string;
  /** The route's pattern (/api/v1/terminals/:id), not the URL: no query text reaches the log. */
  route: string;
  status: number;
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;

export function createApiKeysService(deps: { db: Db; repos: Repositories; audit: AuditService; roles: Pick<RolesService, 'accessOfUser'>; now: Clock }) {
  const { db, repos, audit, roles, now } = deps;

  /** The key behind `key`, if it may act now from `ip`; the same work whatever the answer. */
  async function authenticate(key: string, context: { ip: string }): Promise<StaffPrincipal | null> {
    const at = now();
    const hash = hashApiKey(key);
    const row = await repos.apiKeys.credential(hash);
    // Read even for a key that is not there, so that its absence takes as long as a refusal.
    const creatorAccess = await roles.accessOfUser(row?.createdBy ?? NOBODY);
    const stored = row ? Buffer.from(row.keyHash, 'hex') : ABSENT_HASH;
    const given = Buffer.from(hash, 'hex');
    const matches = stored.length === given.length && timingSafeEqual(stored, given) && row !== null;
    const creator = row && row.creatorActive !== null
      ? { deletedAt: row.creatorDeletedAt, blockedEnabled: row.creatorBlocked ?? true, isActive: row.creatorActive, accountExpiresAt: row.creatorExpiresAt }
      : null;
    const live = row !== null && row.revokedAt === null && (row.expiresAt === null || row.expiresAt.getTime() > at.getTime());
    const fromAllowed = row !== null && (row.allowedIps === null || ipAllowed(context.ip, row.allowedIps));
    if (!matches || !live || !fromAllowed || !creatorStands(creator, at) || !row?.createdBy) return null;

    const permissions = grantsOfRole({ key: row.roleKey, permissions: row.rolePermissions }).filter((p) => allows(creatorAccess.permissions, p));
    if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await repos.apiKeys.touch(row.id, { at, ip: context.ip });
    }
    return { type: 'admin', id: row.createdBy, permissions, apiKey: { id: row.id, name: row.name } };
  }

  return {
    authenticate,

    async list(): Promise<ApiKeyWire[]> {
      const at = now();
      return (await repos.apiKeys.list()).map((row) => toWire(row, at));
    },

    async create(input: Partial<ApiKeyInput>, principal: Principal, context: RequestContext): Promise<ApiKeyCreatedWire> {
      if (principal.type !== 'admin') throw new ForbiddenError(ROLE_MESSAGES.escalation);
      if (principal.apiKey) throw new ForbiddenError(M.keyCreatesKey);
      const at = now();
      const valid = validInput(input, at);
      const role = await repos.roles.findById(valid.roleId);
      if (!role) failValidation([{ path: 'roleId', message: M.roleNotFound }]);
      // Nobody hands a system more than they hold themselves.
      if (grantsOfRole(role).some((p) => !allows(principal.permissions, p))) throw new ForbiddenError(ROLE_MESSAGES.escalation);

      const secret = newApiKeySecret();
      try {
        const row = await db.transaction(async (tx) => {
          const created = await repos.apiKeys.insert(
            {
              name: valid.name,
              prefix: secret.slice(0, API_KEY_SHOWN_LENGTH),
              keyHash: hashApiKey(secret),
              roleId: role.id,
              createdBy: principal.id,
              createdAt: at,
              expiresAt: valid.expiresAt,
              allowedIps: valid.allowedIps,
            },
            tx,
          );
          await audit.record(
            {
              ...auditSource(context),
              action: 'api_key.created',
              targetType: 'api_key',
              targetId: created.id,
              after: {
                name: created.name,
                prefix: created.prefix,
                role: role.name,
                expiresAt: created.expiresAt?.toISOString() ?? null,
                allowedIps: created.allowedIps,
              },
            },
            tx,
          );
          return repos.apiKeys.findListRow(created.id, tx);
        });
        if (!row) throw new Error('a new API key could not be read back');
        return { key: toWire(row, at), secret };
      } catch (error) {
        if (isUniqueViolation(error, 'api_keys_name_uq')) throw new ConflictError(M.nameTaken);
        throw error;
      }
    },

    async revoke(id: string, principal: Principal, context: RequestContext): Promise<ApiKeyWire> {
      const at = now();
      return db.transaction(async (tx) => {
        const before = await repos.apiKeys.findListRow(id, tx);
        if (!before) throw new NotFoundError(M.notFound);
        if (!(await repos.apiKeys.revoke(id, { at, by: principal.id }, tx))) throw new ConflictError(M.alreadyRevoked);
        await audit.record(
          {
            ...auditSource(context),
            action: 'api_key.revoked',
            targetType: 'api_key',
            targetId: id,
            before: { name: before.name, prefix: before.prefix, role: before.role.name },
          },
          tx,
        );
        const after = await repos.apiKeys.findListRow(id, tx);
        return toWire(after ?? before, at);
      });
    },

    /** One audit row per call a key makes: what it called and how that ended. */
    async recordCall(call: ApiKeyCall, context: RequestContext): Promise<void> {
      await audit.record({ ...auditSource(context), action: 'api_key.request', targetType: 'route', targetId: `${call.method} ${call.route}`, after: call });
    },
  };
}
