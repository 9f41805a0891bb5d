// Roles (GET/POST /roles, PUT/DELETE /roles/{id}): the built-in roles and the reseller's own, each
// with the permissions it gives and how many users hold it. The wire is the shared contract of
// src/domain/permissions.ts; a role that cannot be read is skipped, an answer whose shape cannot be
// read at all is a failure (mapResult's null). Refusals come back as ok:false with the server's
// words: 403 for a permission the caller does not hold or a built-in role, 409 for a name taken or
// a role still held, 400 with the fields at fault.
import { mapResult, type ApiClient, type ApiResult } from './client';
import { bool, int, isRecord, present, str, text, withSignal } from './normalise';
import { BUILT_IN_ROLE_KEYS, isPermission, type BuiltInRoleKey, type RoleInput, type RoleWire } from '../domain/permissions';

/** One role; null without an id or a name. */
export function normaliseRole(raw: unknown): RoleWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const name = text(raw.name);
  if (!id || !name) return null;
  const key = (BUILT_IN_ROLE_KEYS as readonly unknown[]).includes(raw.key) ? (raw.key as BuiltInRoleKey) : null;
  return {
    id,
    key,
    name,
    description: str(raw.description) ?? '',
    permissions: Array.isArray(raw.permissions) ? raw.permissions.filter(isPermission) : [],
    builtIn: bool(raw.builtIn, key !== null),
    userCount: Math.max(0, int(raw.userCount, 0)),
    createdAt: str(raw.createdAt) ?? '',
    updatedAt: str(raw.updatedAt) ?? '',
  };
}

export function normaliseRoles(data: unknown): RoleWire[] | null {
  const list = isRecord(data) ? data.roles : data;
  return Array.isArray(list) ? list.map(normaliseRole).filter(present) : null;
}

const roleOf = (data: unknown) => normaliseRole(isRecord(data) && 'role' in data ? data.role : data);

export function createRolesApi(client: ApiClient) {
  const path = (id: string) => `/roles/${encodeURIComponent(id)}`;
  return {
    list: async (signal?: AbortSignal): Promise<ApiResult<RoleWire[]>> => mapResult(await client.request<unknown>('/roles', withSignal(signal)), normaliseRoles),
    create: async (input: RoleInput, signal?: AbortSignal): Promise<ApiResult<RoleWire>> =>
      mapResult(await client.request<unknown>('/roles', { method: 'POST', body: input, ...withSignal(signal) }), roleOf),
    update: async (id: string, input: RoleInput, signal?: AbortSignal): Promise<ApiResult<RoleWire>> =>
      mapResult(await client.request<unknown>(path(id), { method: 'PUT', body: input, ...withSignal(signal) }), roleOf),
    /** A delete answers no role: success carries nothing. */
    remove: async (id: string, signal?: AbortSignal): Promise<ApiResult<null>> => {
      const result = await client.request<unknown>(path(id), { method: 'DELETE', ...withSignal(signal) });
      return result.ok ? { ...result, data: null } : result;
    },
  };
}

export type RolesApi = ReturnType<typeof createRolesApi>;
