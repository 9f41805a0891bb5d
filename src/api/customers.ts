// Enterprise customers (`/customers/*`, admin only) and the public password-setup link
// (`/password-setup/*`, spec sections 3 and 7). Incoming customers may be camelCase or snake_case;
// the app sees one camelCase `CustomerListItem`.
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { downloadCsv } from './csv';
import { listExportFileName } from '../domain/list-exports';
import { accountFields, bool, int, isRecord, pick, str, withSignal } from './normalise';
import type { ActivityEntry } from '../domain/dashboard';
import {
  CUSTOMERS_PAGE_SIZE,
  type CreateCustomerPayload,
  type CustomerLineEnding,
  type CustomerListData,
  type CustomerListItem,
  type CustomerListQuery,
  type CustomerStats,
  type CustomerStatusFilter,
  type CustomerUpdateData,
  type LineEndingOutcome,
  type Pagination,
  type UpdateCustomerPayload,
} from '../domain/customers';

/** One customer from any endpoint; null when it has no uuid or email (it cannot be shown or acted on). */
export function normaliseCustomer(raw: unknown, now: () => string = () => new Date().toISOString()): CustomerListItem | null {
  if (!isRecord(raw)) return null;
  const { lastIp: _lastIp, ...account } = accountFields(raw, now);
  if (!account.uuid || !account.email) return null;
  return {
    ...account,
    // Spec section 3: company defaults to empty.
    company: str(raw.company) ?? '',
    phone: str(raw.phone),
    address: str(raw.address),
    hasPassword: bool(pick(raw, 'hasPassword', 'has_password')),
  };
}

/** The paging object; missing figures are derived from what is there. */
export function normalisePagination(raw: unknown, rows: number, query: { page?: number; limit?: number } = {}): Pagination {
  const r = isRecord(raw) ? raw : {};
  const limit = Math.max(1, int(r.limit, query.limit ?? CUSTOMERS_PAGE_SIZE));
  const total = Math.max(0, int(r.total, rows));
  const page = Math.max(1, int(r.page, query.page ?? 1));
  const pages = Math.max(0, int(r.pages ?? r.totalPages ?? r.total_pages, Math.ceil(total / limit)));
  return { total, page, limit, pages };
}

export function normaliseActivityEntry(raw: unknown): ActivityEntry | null {
  if (!isRecord(raw)) return null;
  const createdAt = str(pick(raw, 'createdAt', 'created_at'));
  const description = str(raw.description);
  if (!createdAt || !description) return null;
  return {
    id: str(raw.id) ?? String(raw.id ?? `${createdAt}-${description}`),
    action: str(raw.action) ?? '',
    description,
    actorName: str(pick(raw, 'actorName', 'actor_name')),
    createdAt,
  };
}

const ZERO_STATS: CustomerStats = { total: 0, active: 0, pending: 0, mfaEnabled: 0, blocked: 0, expiringSoon: 0, expired: 0 };

export function normaliseStats(raw: unknown): CustomerStats {
  const r = isRecord(raw) ? raw : {};
  const figure = (camel: keyof CustomerStats, snake: string) => Math.max(0, int(pick(r, camel, snake), 0));
  return {
    ...ZERO_STATS,
    total: figure('total', 'total'),
    active: figure('active', 'active'),
    pending: figure('pending', 'pending'),
    mfaEnabled: figure('mfaEnabled', 'mfa_enabled'),
    blocked: figure('blocked', 'blocked'),
    expiringSoon: figure('expiringSoon', 'expiring_soon'),
    expired: figure('expired', 'expired'),
  };
}

/**
 * The query string of `GET /customers`. Spec section 5: active and inactive go as `is_active`; the
 * server also filters by `status` for every choice, so each filter pages correctly.
 */
export function customerListSearchParams(query: CustomerListQuery): Record<string, string | number | boolean | undefined> {
  const status: CustomerStatusFilter = query.status ?? 'all';
  const search = query.search?.trim();
  return {
    page: query.page ?? 1,
    limit: query.limit ?? CUSTOMERS_PAGE_SIZE,
    search: search ? search : undefined,
    is_active: status === 'active' ? true : status === 'inactive' ? false : query.is_active,
    status: status === 'all' ? undefined : status,
  };
}

/** A successful answer whose data is reshaped; a failure passes through unchanged. */
const customerOf = (data: unknown) => normaliseCustomer(isRecord(data) && 'customer' in data ? data.customer : data);

const LINE_ENDING_OUTCOMES: readonly LineEndingOutcome[] = ['scheduled', 'already_ending', 'failed'];

/**
 * What became of one line a block asked to end; null without a line number. An outcome this
 * client does not know is read as failed, so that the admin is told to check that line rather
 * than never hearing of it.
 */
export function normaliseLineEnding(raw: unknown): CustomerLineEnding | null {
  if (!isRecord(raw)) return null;
  const serviceLineNumber = str(pick(raw, 'serviceLineNumber', 'service_line_number'));
  if (!serviceLineNumber) return null;
  const outcome = LINE_ENDING_OUTCOMES.find((known) => known === raw.outcome) ?? 'failed';
  const message = str(raw.message);
  return { serviceLineNumber, outcome, ...(message ? { message } : {}) };
}

/** `PUT /customers/{uuid}`: the customer (null when unreadable) and the line endings (none when absent). */
export function normaliseCustomerUpdate(data: unknown): CustomerUpdateData | null {
  const customer = customerOf(data);
  if (!customer) return null;
  const raw = isRecord(data) ? pick(data, 'lineEndings', 'line_endings') : undefined;
  const lineEndings = (Array.isArray(raw) ? raw : []).map(normaliseLineEnding).filter((e): e is CustomerLineEnding => e !== null);
  return { customer, lineEndings };
}

export function createCustomersApi(client: ApiClient) {
  const path = (uuid: string) => `/customers/${encodeURIComponent(uuid)}`;
  const put = (uuid: string, body: UpdateCustomerPayload, signal?: AbortSignal) =>
    client.request<unknown>(path(uuid), { method: 'PUT', body, ...withSignal(signal) });
  const update = (uuid: string, body: UpdateCustomerPayload, signal?: AbortSignal): Promise<ApiResult<CustomerListItem>> =>
    put(uuid, body, signal).then((result) => mapResult(result, customerOf));

  return {
    async list(query: CustomerListQuery, signal?: AbortSignal): Promise<ApiResult<CustomerListData>> {
      const result = await client.request<unknown>('/customers', { query: customerListSearchParams(query), ...withSignal(signal) });
      return mapResult(result, (data) => {
        const raw = isRecord(data) ? data : {};
        const list = Array.isArray(raw.customers) ? raw.customers : Array.isArray(data) ? data : [];
        // A row that cannot be read is skipped rather than failing the page.
        const customers = list.map((item) => normaliseCustomer(item)).filter((c): c is CustomerListItem => c !== null);
        return { customers, pagination: normalisePagination(raw.pagination, customers.length, query) };
      });
    },

    /** The CSV of the list's search and status filter: every page of it. */
    exportCsv: (query: CustomerListQuery, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      downloadCsv(client, '/customers/export.csv', customerListSearchParams(query), listExportFileName('customers', new Date()), signal),

    /** Counts over the whole set (the six stat cards). */
    stats: async (signal?: AbortSignal): Promise<ApiResult<CustomerStats>> =>
      mapResult(await client.request<unknown>('/customers/stats', withSignal(signal)), normaliseStats),

    get: async (uuid: string, signal?: AbortSignal): Promise<ApiResult<CustomerListItem>> =>
      mapResult(await client.request<unknown>(path(uuid), withSignal(signal)), customerOf),

    activity: async (uuid: string, signal?: AbortSignal): Promise<ApiResult<ActivityEntry[]>> =>
      mapResult(await client.request<unknown>(`${path(uuid)}/activity`, withSignal(signal)), (data) => {
        const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.activity) ? data.activity : [];
        return list.map(normaliseActivityEntry).filter((entry): entry is ActivityEntry => entry !== null);
      }),

    /** 201 with the customer; 409 for a duplicate email; 400 with field `errors`. */
    create: async (payload: CreateCustomerPayload, signal?: AbortSignal): Promise<ApiResult<CustomerListItem>> =>
      mapResult(await client.request<unknown>('/customers', { method: 'POST', body: payload, ...withSignal(signal) }), customerOf),

    update,
    /**
     * Blocks with the reason; with `endLines` (the admin role's alone: 403 otherwise) the server
     * also sets each of the customer's active lines to end at the end of its billing cycle and
     * answers what became of each. The flag goes out only when asked for.
     */
    block: async (uuid: string, block: { reason: string; endLines?: boolean }, signal?: AbortSignal): Promise<ApiResult<CustomerUpdateData>> =>
      mapResult(
        await put(uuid, { blocked_enabled: true, blocked_reason: block.reason, ...(block.endLines ? { end_lines_at_cycle_end: true } : {}) }, signal),
        normaliseCustomerUpdate,
      ),
    unblock: (uuid: string, signal?: AbortSignal) => update(uuid, { blocked_enabled: false, blocked_reason: null }, signal),

    remove: (uuid: string, signal?: AbortSignal): Promise<ApiResult<unknown>> =>
      client.request<unknown>(path(uuid), { method: 'DELETE', ...withSignal(signal) }),

    /** Moves the account expiry on by `days`; answers the customer with the new date. */
    extend: async (uuid: string, days: number, signal?: AbortSignal): Promise<ApiResult<CustomerListItem>> =>
      mapResult(
        await client.request<unknown>(`${path(uuid)}/extend`, { method: 'PUT', body: { days }, ...withSignal(signal) }),
        customerOf,
      ),

    /** Sends the customer a fresh password-setup link. */
    resendPasswordLink: (uuid: string, signal?: AbortSignal): Promise<ApiResult<unknown>> =>
      client.request<unknown>(`${path(uuid)}/password-link`, { method: 'POST', body: {}, ...withSignal(signal) }),
  };
}

export type CustomersApi = ReturnType<typeof createCustomersApi>;

/** Whose account a password-setup link is for (`GET /password-setup/{token}`). */
export interface PasswordSetupInfo {
  email: string;
  name: string;
  company: string;
  expiresAt: string | null;
  /** A link sets the first password ('setup', also when absent) or resets a forgotten one ('reset'). */
  purpose?: 'setup' | 'reset';
}

export interface PasswordSetupPayload {
  token: string;
  password: string;
  confirmPassword: string;
}

function normaliseSetupInfo(data: unknown): PasswordSetupInfo | null {
  if (!isRecord(data)) return null;
  const email = str(data.email);
  if (!email) return null;
  return {
    email,
    name: str(data.name) ?? '',
    company: str(data.company) ?? '',
    expiresAt: str(pick(data, 'expiresAt', 'expires_at')),
    // A server from before reset links sends none: every link was a set-up link then.
    purpose: data.purpose === 'reset' ? 'reset' : 'setup',
  };
}

/**
 * The public password-setup page. No bearer token goes with these calls: the link is the
 * credential, and whoever is signed in on this browser has nothing to do with it.
 */
export function createPasswordSetupApi(client: ApiClient) {
  const path = (token: string) => `/password-setup/${encodeURIComponent(token)}`;
  return {
    /** 404 for an unknown link, 410 for a used or expired one, each with a message. */
    check: async (token: string, signal?: AbortSignal): Promise<ApiResult<PasswordSetupInfo>> =>
      mapResult(await client.request<unknown>(path(token), { token: null, ...(signal ? { signal } : {}) }), normaliseSetupInfo),

    complete: async (payload: PasswordSetupPayload, signal?: AbortSignal): Promise<ApiResult<{ email: string }>> =>
      mapResult(
        await client.request<unknown>('/password-setup', { method: 'POST', body: payload, token: null, ...(signal ? { signal } : {}) }),
        (data) => ({ email: (isRecord(data) ? str(data.email) : null) ?? '' }),
      ),
  };
}

export type PasswordSetupApi = ReturnType<typeof createPasswordSetupApi>;
