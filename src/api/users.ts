// Portal users (`/users/*`, admin only; spec sections 3 "User in the users list" and 7 "Users").
// Incoming users may be camelCase or snake_case; the app sees one camelCase `PortalUser`.
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { listExportFileName } from '../domain/list-exports';
import { normalisePagination } from './customers';
import { accountFields, bool, int, isRecord, pick, roleRefsOf, str, withSignal } from './normalise';
import type { Pagination } from '../domain/customers';
import {
  USERS_FETCH_LIMIT,
  type CreateUserPayload,
  type PortalUser,
  type UpdateUserPayload,
  type UserStats,
} from '../domain/users';

export interface UserListQuery {
  page?: number;
  limit?: number;
  search?: string;
  /** Omitted: active and inactive alike. */
  isActive?: boolean;
  includeDeleted?: boolean;
}

export interface UserListData {
  users: PortalUser[];
  pagination: Pagination;
  stats: UserStats;
}

/** One user from any endpoint; null when it has no uuid or email (it cannot be shown or acted on). */
export function normalisePortalUser(raw: unknown): PortalUser | null {
  if (!isRecord(raw)) return null;
  // Missing dates stay missing here: the page shows a dash, not the time it was loaded.
  const { blockedAt: _blockedAt, lastIp: _lastIp, ...account } = accountFields(raw, () => '');
  if (!account.uuid || !account.email) return null;
  return {
    ...account,
    role: raw.role === 'admin' ? 'admin' : 'user',
    createdAt: account.createdAt || null,
    updatedAt: account.updatedAt || null,
    failedLoginAttempts: Math.max(0, int(pick(raw, 'failedLoginAttempts', 'failed_login_attempts'), 0)),
    lockedUntil: str(pick(raw, 'lockedUntil', 'locked_until')),
    deletedAt: str(pick(raw, 'deletedAt', 'deleted_at')),
    // Older servers do not say; a user they list has signed in with a password.
    hasPassword: bool(pick(raw, 'hasPassword', 'has_password'), true),
    roles: roleRefsOf(raw.roles),
  };
}

/** The three cards' figures over the live rows, for a server that sends none. */
export function userStatsOf(users: readonly PortalUser[]): UserStats {
  const live = users.filter((u) => u.deletedAt === null);
  return {
    total: live.length,
    active: live.filter((u) => u.isActive && !u.blockedEnabled).length,
    mfaEnabled: live.filter((u) => u.mfaEnabled).length,
  };
}

function normaliseUserStats(raw: unknown, users: readonly PortalUser[]): UserStats {
  if (!isRecord(raw)) return userStatsOf(users);
  const fallback = userStatsOf(users);
  const figure = (value: unknown, otherwise: number) => Math.max(0, int(value, otherwise));
  return {
    total: figure(raw.total, fallback.total),
    active: figure(raw.active, fallback.active),
    mfaEnabled: figure(pick(raw, 'mfaEnabled', 'mfa_enabled'), fallback.mfaEnabled),
  };
}

/** The query string of `GET /users` (spec 7: optional page, limit, search, is_active). */
export function userListSearchParams(query: UserListQuery): Record<string, string | number | boolean | undefined> {
  const search = query.search?.trim();
  return {
    page: query.page ?? 1,
    limit: query.limit ?? USERS_FETCH_LIMIT,
    search: search ? search : undefined,
    is_active: query.isActive,
    include_deleted: query.includeDeleted ? true : undefined,
  };
}

const userOf = (data: unknown) => normalisePortalUser(isRecord(data) && 'user' in data ? data.user : data);

export function createUsersApi(client: ApiClient) {
  const path = (uuid: string, action = '') => `/users/${encodeURIComponent(uuid)}${action}`;
  const call = async (
    target: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    body: unknown,
    signal?: AbortSignal,
  ): Promise<ApiResult<PortalUser>> =>
    mapResult(await client.request<unknown>(target, { method, ...(body === undefined ? {} : { body }), ...withSignal(signal) }), userOf);
  // A delete answers no user: success carries nothing (mapResult would take null data for unreadable).
  const erase = async (target: string, signal?: AbortSignal): Promise<ApiResult<null>> => {
    const result = await client.request<unknown>(target, { method: 'DELETE', ...withSignal(signal) });
    return result.ok ? { ...result, data: null } : result;
  };

  return {
    async list(query: UserListQuery = {}, signal?: AbortSignal): Promise<ApiResult<UserListData>> {
      const result = await client.request<unknown>('/users', { query: userListSearchParams(query), ...withSignal(signal) });
      return mapResult(result, (data) => {
        const raw = isRecord(data) ? data : {};
        const list = Array.isArray(raw.users) ? raw.users : Array.isArray(data) ? data : [];
        // A row that cannot be read is skipped rather than failing the page.
        const users = list.map(normalisePortalUser).filter((u): u is PortalUser => u !== null);
        const limit = query.limit ?? USERS_FETCH_LIMIT;
        return {
          users,
          pagination: normalisePagination(raw.pagination, users.length, { page: query.page ?? 1, limit }),
          stats: normaliseUserStats(raw.stats, users),
        };
      });
    },

    /** The CSV of the list's search and filters: every page of it. */
    exportCsv: (query: UserListQuery = {}, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, '/users/export.csv', userListSearchParams(query), listExportFileName('users', new Date()), signal),

    get: (uuid: string, signal?: AbortSignal) => call(path(uuid), 'GET', undefined, signal),
    /** 201 with the user; 409 for a duplicate email; 400 with field `errors`. */
    create: (payload: CreateUserPayload, signal?: AbortSignal) => call('/users', 'POST', payload, signal),
    update: (uuid: string, payload: UpdateUserPayload, signal?: AbortSignal) => call(path(uuid), 'PUT', payload, signal),
    /** Soft delete: the user is listed again with `includeDeleted` and can be restored. */
    remove: (uuid: string, signal?: AbortSignal) => erase(path(uuid), signal),
    hardDelete: (uuid: string, signal?: AbortSignal) => erase(path(uuid, '/hard-delete'), signal),
    restore: (uuid: string, signal?: AbortSignal) => call(path(uuid, '/restore'), 'POST', {}, signal),
    block: (uuid: string, reason: string, signal?: AbortSignal) => call(path(uuid, '/block'), 'POST', { reason }, signal),
    unblock: (uuid: string, signal?: AbortSignal) => call(path(uuid, '/unblock'), 'POST', {}, signal),
    disableMfa: (uuid: string, signal?: AbortSignal) => call(path(uuid, '/disable-mfa'), 'POST', {}, signal),
    extendExpiration: (uuid: string, days: number, signal?: AbortSignal) =>
      call(path(uuid, '/extend-expiration'), 'PATCH', { days }, signal),
    resetLoginAttempts: (uuid: string, signal?: AbortSignal) => call(path(uuid, '/reset-login-attempts'), 'POST', {}, signal),
  };
}

export type UsersApi = ReturnType<typeof createUsersApi>;
