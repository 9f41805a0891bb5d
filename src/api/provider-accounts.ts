// Provider accounts (GET/POST /provider-accounts, PATCH/DELETE /provider-accounts/{id}, POST …/{id}/
// disable|enable|test, GET /provider-accounts/simulated): the reseller's service accounts at the
// provider. The wire is the shared contract of src/domain/provider-accounts.ts; the secret goes in
// and never comes back (hasSecret says one is stored). An account that cannot be read is skipped, an
// answer whose shape cannot be read at all is a failure (mapResult's null). Refusals come back as
// ok:false with the server's words: 400 with the fields at fault, 409 for a name or a simulated
// account in use, or a delete of an account that still holds service lines.
//
// A connection test answers 200 whether the provider accepted the credentials or refused them: the
// provider's verdict is `ok` in the data, the request's is the ApiResult's.
//
// `createProviderAccountActors` is the page's actors in one place (the route provides them to the
// machines): no answer at all (the network) is data too, in the network message's words.
//
// `loadAccountRefs` reads `GET /provider-accounts/refs` (any signed-in portal user): the id and name
// of every account, for the Account column and filter of the lists that span accounts.
import { fromPromise } from 'xstate';
import type { LoadOutcome } from '../machines/resource';
import { NETWORK_ERROR_MESSAGE } from '../domain/login';
import {
  PROVIDER_ACCOUNT_KINDS,
  PROVIDER_ACCOUNT_STATUSES,
  type ProviderAccountInput,
  type ProviderAccountRef,
  type ProviderAccountWire,
  type ProviderConnectionTestWire,
  type SimulatedAccountWire,
} from '../domain/provider-accounts';
import { mapResult, NetworkError, type ApiClient, type ApiResult } from './client';
import { bool, int, isRecord, present, str, text, withSignal } from './normalise';
import { oneOf } from './terminals';

const count = (value: unknown) => Math.max(0, int(value, 0));
const wholeOrNull = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null);

/** One account; null without a numeric id, a name, a known kind or a known status. */
export function normaliseProviderAccount(raw: unknown): ProviderAccountWire | null {
  if (!isRecord(raw)) return null;
  const id = wholeOrNull(raw.id);
  const name = text(raw.name);
  const kind = oneOf(PROVIDER_ACCOUNT_KINDS, raw.kind);
  const status = oneOf(PROVIDER_ACCOUNT_STATUSES, raw.status);
  if (id === null || !name || !kind || !status) return null;
  return {
    id,
    name,
    kind,
    simulatorAccount: text(raw.simulatorAccount),
    apiUrl: text(raw.apiUrl),
    tokenUrl: text(raw.tokenUrl),
    clientId: text(raw.clientId),
    hasSecret: bool(raw.hasSecret),
    requestsPerMinute: count(raw.requestsPerMinute),
    syncIntervalMinutes: wholeOrNull(raw.syncIntervalMinutes),
    status,
    statusMessage: text(raw.statusMessage),
    accountNumber: text(raw.accountNumber),
    currency: text(raw.currency),
    lineCount: count(raw.lineCount),
    terminalCount: count(raw.terminalCount),
    lastSyncAt: text(raw.lastSyncAt),
    createdAt: str(raw.createdAt) ?? '',
    updatedAt: str(raw.updatedAt) ?? '',
  };
}

export const normaliseProviderAccounts = (data: unknown): ProviderAccountWire[] | null =>
  Array.isArray(data) ? data.map(normaliseProviderAccount).filter(present) : null;

/** One of the built-in simulator's accounts; null without a slug. */
export function normaliseSimulatedAccount(raw: unknown): SimulatedAccountWire | null {
  if (!isRecord(raw)) return null;
  const slug = text(raw.slug);
  if (!slug) return null;
  return { slug, name: text(raw.name) ?? slug, currency: text(raw.currency) ?? '', terminals: count(raw.terminals), usedBy: wholeOrNull(raw.usedBy) };
}

export const normaliseSimulatedAccounts = (data: unknown): SimulatedAccountWire[] | null =>
  Array.isArray(data) ? data.map(normaliseSimulatedAccount).filter(present) : null;

/** The provider's verdict; null without its words. */
export function normaliseConnectionTest(data: unknown): ProviderConnectionTestWire | null {
  if (!isRecord(data) || typeof data.ok !== 'boolean') return null;
  const message = text(data.message);
  return message ? { ok: data.ok, message, accountNumber: text(data.accountNumber), testedAt: str(data.testedAt) ?? '' } : null;
}

/** A delete answers no account: success carries nothing (an empty 204 included). */
const removed = (result: ApiResult<unknown>): ApiResult<null> =>
  result.ok ? { ...result, data: null } : result.status === 204 ? { ok: true, status: 204, data: null, message: '' } : result;

export function createProviderAccountsApi(client: ApiClient) {
  const path = (id: number, tail = '') => `/provider-accounts/${encodeURIComponent(String(id))}${tail}`;
  return {
    list: async (signal?: AbortSignal): Promise<ApiResult<ProviderAccountWire[]>> =>
      mapResult(await client.request<unknown>('/provider-accounts', withSignal(signal)), normaliseProviderAccounts),
    simulated: async (signal?: AbortSignal): Promise<ApiResult<SimulatedAccountWire[]>> =>
      mapResult(await client.request<unknown>('/provider-accounts/simulated', withSignal(signal)), normaliseSimulatedAccounts),
    create: async (input: ProviderAccountInput, signal?: AbortSignal): Promise<ApiResult<ProviderAccountWire>> =>
      mapResult(await client.request<unknown>('/provider-accounts', { method: 'POST', body: input, ...withSignal(signal) }), normaliseProviderAccount),
    update: async (id: number, input: Partial<ProviderAccountInput>, signal?: AbortSignal): Promise<ApiResult<ProviderAccountWire>> =>
      mapResult(await client.request<unknown>(path(id), { method: 'PATCH', body: input, ...withSignal(signal) }), normaliseProviderAccount),
    setEnabled: async (id: number, enabled: boolean, signal?: AbortSignal): Promise<ApiResult<ProviderAccountWire>> =>
      mapResult(await client.request<unknown>(path(id, enabled ? '/enable' : '/disable'), { method: 'POST', ...withSignal(signal) }), normaliseProviderAccount),
    test: async (id: number, signal?: AbortSignal): Promise<ApiResult<ProviderConnectionTestWire>> =>
      mapResult(await client.request<unknown>(path(id, '/test'), { method: 'POST', ...withSignal(signal) }), normaliseConnectionTest),
    remove: async (id: number, signal?: AbortSignal): Promise<ApiResult<null>> =>
      removed(await client.request<unknown>(path(id), { method: 'DELETE', ...withSignal(signal) })),
  };
}

export type ProviderAccountsApi = ReturnType<typeof createProviderAccountsApi>;

/** A call's answer, with "no answer" (the network) as a refusal in the network message's words. */
async function answered<T>(call: () => Promise<ApiResult<T>>): Promise<ApiResult<T>> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NetworkError) return { ok: false, status: 0, message: NETWORK_ERROR_MESSAGE };
    throw error;
  }
}

/** What saving the form sends: a new account, or the changes of the one it edits. */
export type ProviderAccountSave = { id: null; input: ProviderAccountInput } | { id: number; input: Partial<ProviderAccountInput> };

/** The provider accounts page's actors: the list, the simulator's accounts, save, enable/disable, test and delete. */
export function createProviderAccountActors(api: { providerAccounts: ProviderAccountsApi }) {
  const accounts = api.providerAccounts;
  return {
    // The list's resource machine takes a load outcome: the data, or the words of its failure.
    loadAccounts: fromPromise<{ ok: true; data: ProviderAccountWire[] } | { ok: false; message: string }>(async ({ signal }) => {
      const result = await answered(() => accounts.list(signal));
      return result.ok ? { ok: true, data: result.data } : { ok: false, message: result.message };
    }),
    // The table names a simulated account by the simulator's list; the form reads it afresh when it opens.
    loadSimulatedList: fromPromise<{ ok: true; data: SimulatedAccountWire[] } | { ok: false; message: string }>(async ({ signal }) => {
      const result = await answered(() => accounts.simulated(signal));
      return result.ok ? { ok: true, data: result.data } : { ok: false, message: result.message };
    }),
    loadSimulated: fromPromise<ApiResult<SimulatedAccountWire[]>>(({ signal }) => answered(() => accounts.simulated(signal))),
    saveAccount: fromPromise<ApiResult<ProviderAccountWire>, ProviderAccountSave>(({ input, signal }) =>
      answered(() => (input.id === null ? accounts.create(input.input, signal) : accounts.update(input.id, input.input, signal))),
    ),
    setEnabled: fromPromise<ApiResult<ProviderAccountWire>, { id: number; enabled: boolean }>(({ input, signal }) =>
      answered(() => accounts.setEnabled(input.id, input.enabled, signal)),
    ),
    testConnection: fromPromise<ApiResult<ProviderConnectionTestWire>, { id: number }>(({ input, signal }) => answered(() => accounts.test(input.id, signal))),
    removeAccount: fromPromise<ApiResult<null>, { id: number }>(({ input, signal }) => answered(() => accounts.remove(input.id, signal))),
  };
}

/** One account's reference; null without a whole id from 1 or a name. */
export function normaliseAccountRef(raw: unknown): ProviderAccountRef | null {
  if (!isRecord(raw)) return null;
  const id = wholeOrNull(raw.id);
  const name = text(raw.name);
  return id !== null && id >= 1 && name ? { id, name } : null;
}

export const normaliseAccountRefs = (data: unknown): ProviderAccountRef[] | null =>
  Array.isArray(data) ? data.map(normaliseAccountRef).filter(present) : null;

/**
 * The accounts' references as a resource machine's load outcome. A list page shows its Account
 * column and filter from them; when they cannot be read the page goes on without both.
 */
export function loadAccountRefs(client: ApiClient) {
  return fromPromise<LoadOutcome<ProviderAccountRef[]>>(async ({ signal }) => {
    const result = await answered(async () => mapResult(await client.request<unknown>('/provider-accounts/refs', withSignal(signal)), normaliseAccountRefs));
    return result.ok ? { ok: true, data: result.data } : { ok: false, message: result.message };
  });
}
