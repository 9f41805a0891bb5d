// API keys (GET/POST /api-keys, POST /api-keys/{id}/revoke): the keys of the reseller's own
// systems, each listed with a short prefix, never the key; a new key's secret comes in its create
// answer only. The wire is the shared contract of src/domain/api-keys.ts; a key that cannot be read
// is skipped, an answer whose shape cannot be read at all is a failure (mapResult's null). Refusals
// come back as ok:false with the server's words: 400 with the fields at fault, 403 for a role wider
// than the caller's own permissions, 409 for a name in use or a key already revoked.
//
// `createApiKeyActors` is the page's actors in one place (the route provides them to the machine):
// no answer at all (the network) is data too, in the network message's words.
import { fromPromise } from 'xstate';
import { API_KEY_STATUSES, type ApiKeyCreatedWire, type ApiKeyInput, type ApiKeyPerson, type ApiKeyWire } from '../domain/api-keys';
import { NETWORK_ERROR_MESSAGE } from '../domain/login';
import type { RoleWire } from '../domain/permissions';
import { mapResult, NetworkError, type ApiClient, type ApiResult } from './client';
import { isRecord, present, roleRefsOf, text, withSignal, type Raw } from './normalise';
import type { RolesApi } from './roles';
import { oneOf, strings } from './terminals';

function personOf(raw: unknown): ApiKeyPerson | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  return id ? { id, name: text(raw.name) ?? '', email: text(raw.email) ?? '' } : null;
}

/** One key; null without an id, a name, a prefix, a role or a known status. */
export function normaliseApiKey(raw: unknown): ApiKeyWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const name = text(raw.name);
  const prefix = text(raw.prefix);
  const [role] = roleRefsOf([raw.role]);
  const status = oneOf(API_KEY_STATUSES, raw.status);
  if (!id || !name || !prefix || !role || !status) return null;
  const at = (key: string) => text((raw as Raw)[key]);
  return {
    id,
    name,
    prefix,
    role,
    createdBy: personOf(raw.createdBy),
    createdAt: at('createdAt') ?? '',
    expiresAt: at('expiresAt'),
    allowedIps: strings(raw.allowedIps),
    lastUsedAt: at('lastUsedAt'),
    lastUsedIp: at('lastUsedIp'),
    revokedAt: at('revokedAt'),
    revokedBy: personOf(raw.revokedBy),
    status,
  };
}

export const normaliseApiKeys = (data: unknown): ApiKeyWire[] | null => (Array.isArray(data) ? data.map(normaliseApiKey).filter(present) : null);

/** The key and its secret: both or nothing, as a secret without its key cannot be told apart. */
export function normaliseCreatedApiKey(data: unknown): ApiKeyCreatedWire | null {
  if (!isRecord(data)) return null;
  const key = normaliseApiKey(data.key);
  const secret = text(data.secret);
  return key && secret ? { key, secret } : null;
}

export function createApiKeysApi(client: ApiClient) {
  return {
    list: async (signal?: AbortSignal): Promise<ApiResult<ApiKeyWire[]>> => mapResult(await client.request<unknown>('/api-keys', withSignal(signal)), normaliseApiKeys),
    create: async (input: ApiKeyInput, signal?: AbortSignal): Promise<ApiResult<ApiKeyCreatedWire>> =>
      mapResult(await client.request<unknown>('/api-keys', { method: 'POST', body: input, ...withSignal(signal) }), normaliseCreatedApiKey),
    revoke: async (id: string, signal?: AbortSignal): Promise<ApiResult<ApiKeyWire>> =>
      mapResult(await client.request<unknown>(`/api-keys/${encodeURIComponent(id)}/revoke`, { method: 'POST', ...withSignal(signal) }), normaliseApiKey),
  };
}

export type ApiKeysApi = ReturnType<typeof createApiKeysApi>;

/** A call's answer, with "no answer" (the network) as a refusal in the network message's words. */
async function answered<T>(call: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NetworkError) return { ok: false, status: 0, message: NETWORK_ERROR_MESSAGE };
    throw error;
  }
}

/** Where there is no clipboard (an insecure origin, a refused permission) this fails: the dialog says to copy by hand. */
async function copyToClipboard(secret: string): Promise<void> {
  if (typeof navigator === 'undefined' || !navigator.clipboard?.writeText) throw new Error('No clipboard');
  await navigator.clipboard.writeText(secret);
}

/** The API keys page's actors: the list, the roles a key may have, create, revoke and the clipboard. */
export function createApiKeyActors(api: { apiKeys: ApiKeysApi; roles: Pick<RolesApi, 'list'> }) {
  return {
    // The list's resource machine takes a load outcome: the data, or the words of its failure.
    loadKeys: fromPromise<{ ok: true; data: ApiKeyWire[] } | { ok: false; message: string }>(async ({ signal }) => {
      const result = await answered(() => api.apiKeys.list(signal));
      return result.ok ? { ok: true, data: result.data } : { ok: false, message: result.message };
    }),
    loadRoles: fromPromise<ApiResult<RoleWire[]>>(({ signal }) => answered(() => api.roles.list(signal))),
    createKey: fromPromise<ApiResult<ApiKeyCreatedWire>, ApiKeyInput>(({ input, signal }) => answered(() => api.apiKeys.create(input, signal))),
    revokeKey: fromPromise<ApiResult<ApiKeyWire>, { id: string }>(({ input, signal }) => answered(() => api.apiKeys.revoke(input.id, signal))),
    copySecret: fromPromise<void, { secret: string }>(({ input }) => copyToClipboard(input.secret)),
  };
}
