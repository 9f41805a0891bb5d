// Starlink Public API v2 client for one provider account (one service-account credential).
//
// Every call goes: rate limiter (sliding minute, default 240 < the provider's 250) → bearer token
// (cached, renewed early, renewed once more on a 401) → fetch with a per-request timeout combined
// with the caller's signal → on 429, 5xx or a dropped connection, back-off with full jitter and
// try again, up to `maxRetries` for 429s and as many again for 5xx and dropped connections →
// the envelope checked with zod → typed result or typed error.
// Lists page from 0 until `isLastPage` and dedupe by id; when fewer distinct records came back
// than `totalCount` said (page order moved under us) the listing is read again, and the result
// says whether it is complete.
//
// Share one client per provider account: the limit lives in it.
import type { z } from 'zod';
import {
  ProviderAuthError,
  ProviderError,
  ProviderNotFoundError,
  ProviderPermissionError,
  ProviderRateLimitError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  ProviderValidationError,
  type ProviderErrorInit,
} from './errors';
import { describeNetworkError, exchange, isConnectFailure, raceSignal, type Exchange } from './http';
import { createRateLimiter, defaultSleep, type RateLimiter, type Sleep } from './limiter';
import {
  accountSchema,
  addressSchema,
  dataUsageSchema,
  envelope,
  errorBodySchema,
  paginated,
  productSchema,
  serviceLineSchema,
  serviceResponseSchema,
  telemetryContentSchema,
  userLacksPermissionSchema,
  userTerminalSchema,
  type ProviderAccount,
  type ProviderAddress,
  type ProviderDataUsage,
  type ProviderProduct,
  type ProviderServiceLine,
  type ProviderTelemetry,
  type ProviderUserTerminal,
} from './schemas';
import { createTokenSource } from './token';

export const PROVIDER_DEFAULTS = {
  /** Under the provider's 250 a minute per account, leaving room for clock and network jitter. */
  requestsPerMinute: 240,
  timeoutMs: 15_000,
  maxRetries: 5,
  /** Full jitter: retry n waits random() × min(backoffMaxMs, backoffBaseMs × 2^(n-1)). */
  backoffBaseMs: 1_000,
  backoffMaxMs: 30_000,
  /** Safety cap on page requests per listing (100,000 terminals are 1,000 pages). */
  maxPages: 5_000,
  /** Readings of a listing when fewer distinct records came back than `totalCount`. */
  maxListingPasses: 3,
  /** Data usage page size: the provider allows up to 250 (default 50). */
  dataUsageLimit: 250,
} as const;

export interface ProviderClientOptions {
  /** Base, e.g. https://starlink.com/api; paths are appended as /public/v2/... */
  apiUrl: string;
  /** e.g. https://starlink.com/api/auth/connect/token */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** Default 240, under the provider's 250. */
  requestsPerMinute?: number;
  /** Per request (each attempt), default 15000. */
  timeoutMs?: number;
  /**
   * Retries after 5xx answers and dropped connections, and as many again after 429s; default 5.
   * Apart because a 429 says the provider is up and did nothing: a rate-limit burst must not
   * spend the budget meant for real failures (with one budget, a sync under 30 % 5xx plus 429
   * bursts failed about one run in three).
   */
  maxRetries?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  maxPages?: number;
  fetch?: typeof fetch;
  now?: () => Date;
  sleep?: Sleep;
  /** Jitter source in [0, 1); injectable for tests. */
  random?: () => number;
  /** Share a limiter between clients of the same provider account (default: one per client). */
  limiter?: RateLimiter;
  /** Told about every finished call (for logs and the console's timings). */
  onCall?: (call: ProviderCall) => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /**
   * Told the parsed body (the text when it is not JSON) of each provider answer this call
   * receives and reads, errors included: once per page for lists. For the console's raw view.
   */
  onRaw?: (body: unknown) => void;
  /**
   * Lists only: pages read at once after the first (whose totalCount says how many there are).
   * Default 1, one page after the other. The rate limit still applies to every request.
   */
  pageConcurrency?: number;
}

export interface ProviderList<T> {
  /** The provider account the records belong to. */
  accountNumber: string;
  items: T[];
  /** Page requests made. */
  pages: number;
  /** The provider's `totalCount` on the last page read. */
  totalCount: number;
  /** False when fewer distinct records came back than `totalCount`, after re-reading. */
  complete: boolean;
}

export interface UserTerminalFilters {
  searchString?: string;
  serviceLineNumbers?: string[];
  userTerminalIds?: string[];
  hasServiceLine?: boolean;
}

export interface AddressFilters {
  /** Only these address reference ids (sent as a repeated key). */
  addressIds?: string[];
}

export interface DataUsageQuery {
  serviceLineNumbers?: string[];
  /** Cycles before the current one (provider default 1). */
  previousBillingCycles?: number;
  /** Provider default true. */
  activeServiceLinesOnly?: boolean;
  /** ISO date-time: overrides the first cycle's start. */
  queryStartDate?: string;
}

export interface ProviderTelemetryResult {
  accountNumber: string;
  /** By user terminal id, as the provider answers (`content.userTerminals`). */
  userTerminals: Record<string, ProviderTelemetry>;
}

export interface ProviderMutationResult {
  status: number;
  information: string[];
  warnings: string[];
}

export interface ProviderCall {
  method: string;
  /** Without the query string. */
  path: string;
  /** Final HTTP status, or null when no answer came. */
  status: number | null;
  /** Wall time of the whole call, waits and retries included. */
  durationMs: number;
  /** HTTP attempts (retries and the 401 renewal included). */
  attempts: number;
  /** ISO time the call started (injected clock). */
  startedAt: string;
  error: string | null;
}

export interface RawResponse {
  status: number;
  /** Parsed JSON, else the text, else null for an empty body. */
  body: unknown;
  durationMs: number;
  attempts: number;
}

export interface RawRequest extends RequestOptions {
  query?: QueryParams;
  body?: unknown;
  /** Whether a 5xx or a dropped connection may be retried; default: true except for POST. */
  idempotent?: boolean;
}

export interface ProviderUsage {
  /** HTTP requests to the API (each attempt; these count against the provider's limit). */
  requests: number;
  /** Of those, resent after a 429, 5xx, dropped connection or 401. */
  retries: number;
  /** Time calls waited for the client-side limit (including pauses after 429s). */
  throttledMs: number;
  /** Time spent in back-off after 5xx and network failures. */
  backoffMs: number;
  /** Token endpoint requests. */
  tokenRequests: number;
}

export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | null | undefined;
export type QueryParams = Record<string, QueryValue>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface StarlinkClient {
  /** Cached after the first success; `fresh` asks the provider again (a connection test). */
  getAccount(options?: RequestOptions & { fresh?: boolean }): Promise<ProviderAccount>;
  accountNumber(options?: RequestOptions): Promise<string>;
  listProducts(options?: RequestOptions): Promise<ProviderList<ProviderProduct>>;
  getAddress(addressReferenceId: string, options?: RequestOptions): Promise<ProviderAddress>;
  /** Every address of the account (or the ones asked for), 100 a page. */
  listAddresses(filters?: AddressFilters, options?: RequestOptions): Promise<ProviderList<ProviderAddress>>;
  listServiceLines(options?: RequestOptions): Promise<ProviderList<ProviderServiceLine>>;
  getServiceLine(serviceLineNumber: string, options?: RequestOptions): Promise<ProviderServiceLine>;
  listUserTerminals(filters?: UserTerminalFilters, options?: RequestOptions): Promise<ProviderList<ProviderUserTerminal>>;
  queryDataUsage(query?: DataUsageQuery, options?: RequestOptions & { limit?: number }): Promise<ProviderList<ProviderDataUsage>>;
  changeServiceLineProduct(serviceLineNumber: string, productReferenceId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  attachTerminal(serviceLineNumber: string, userTerminalId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  detachTerminal(serviceLineNumber: string, userTerminalId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  rebootTerminal(userTerminalId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  queryTelemetry(userTerminalIds?: string[], options?: RequestOptions): Promise<ProviderTelemetryResult>;
  /** Any provider path (must start with /public/); answers every HTTP status instead of throwing. */
  raw(method: HttpMethod, path: string, request?: RawRequest): Promise<RawResponse>;
  lastCall(): ProviderCall | null;
  usage(): ProviderUsage;
}

interface SendRequest {
  method: HttpMethod;
  path: string;
  query?: QueryParams;
  body?: unknown;
  idempotent: boolean;
  signal?: AbortSignal;
  onRaw?: (body: unknown) => void;
}

interface SendResult extends Exchange {
  attempts: number;
  durationMs: number;
}

const seg = (name: string, value: string): string => {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${name} is required`);
  return encodeURIComponent(value);
};

function buildQuery(query: QueryParams | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    // Arrays repeat the key: serviceLineNumbers=a&serviceLineNumbers=b
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The per-call options a request carries (absent keys stay absent). */
function pick(options: RequestOptions | undefined): Pick<SendRequest, 'signal' | 'onRaw'> {
  return {
    ...(options?.signal ? { signal: options.signal } : {}),
    ...(options?.onRaw ? { onRaw: options.onRaw } : {}),
  };
}

function zodMessages(error: z.ZodError): string[] {
  return error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`);
}

export function createStarlinkClient(options: ProviderClientOptions): StarlinkClient {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => new Date());
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? PROVIDER_DEFAULTS.timeoutMs;
  const maxRetries = Math.max(0, options.maxRetries ?? PROVIDER_DEFAULTS.maxRetries);
  const backoffBaseMs = options.backoffBaseMs ?? PROVIDER_DEFAULTS.backoffBaseMs;
  const backoffMaxMs = options.backoffMaxMs ?? PROVIDER_DEFAULTS.backoffMaxMs;
  const maxPages = options.maxPages ?? PROVIDER_DEFAULTS.maxPages;
  const limiter =
    options.limiter ??
    createRateLimiter({ requestsPerMinute: options.requestsPerMinute ?? PROVIDER_DEFAULTS.requestsPerMinute, now, sleep });

  const counters: ProviderUsage = { requests: 0, retries: 0, throttledMs: 0, backoffMs: 0, tokenRequests: 0 };
  let last: ProviderCall | null = null;

  /** Full jitter: a random wait up to the capped exponential for retry `retry` (1-based). */
  const backoffDelay = (retry: number) => Math.floor(random() * Math.min(backoffMaxMs, backoffBaseMs * 2 ** (retry - 1)));

  const tokens = createTokenSource({
    tokenUrl: options.tokenUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    fetch: fetchImpl,
    now,
    timeoutMs,
    maxRetries,
    backoff: async (retry) => {
      const ms = backoffDelay(retry);
      await sleep(ms);
      counters.backoffMs += ms;
      return ms;
    },
    onRequest: () => {
      counters.tokenRequests += 1;
    },
  });

  function record(call: ProviderCall) {
    last = call;
    options.onCall?.(call);
  }

  /**
   * The transport: limiter, token, timeout, retries. Answers the final HTTP exchange whatever its
   * status (a 429 or 5xx only once retries are spent); throws only when no answer came.
   */
  async function send(request: SendRequest): Promise<SendResult> {
    const started = performance.now();
    const startedAt = now().toISOString();
    const label = { method: request.method, path: request.path };
    const url = `${apiUrl}${request.path}${buildQuery(request.query)}`;
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string | undefined;
    // The provider answers 403 to a POST/PUT without a JSON content type, even one with no body
    // (reboot): the header goes on every write.
    if (request.body !== undefined || request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH') {
      headers['content-type'] = 'application/json';
    }
    if (request.body !== undefined) body = JSON.stringify(request.body);

    let attempts = 0;
    let retries = 0;
    let rateLimitRetries = 0;
    let renewedToken = false;
    const finish = (status: number | null, error: string | null) =>
      record({ ...label, status, durationMs: performance.now() - started, attempts, startedAt, error });

    try {
      for (;;) {
        counters.throttledMs += await limiter.acquire(request.signal);
        const token = await tokens.get(request.signal);
        attempts += 1;
        counters.requests += 1;
        if (attempts > 1) counters.retries += 1;
        let answer: Exchange;
        try {
          answer = await exchange(fetchImpl, {
            url,
            method: request.method,
            headers: { ...headers, authorization: `Bearer ${token}` },
            ...(body === undefined ? {} : { body }),
            label,
            timeoutMs,
            ...(request.signal ? { signal: request.signal } : {}),
          });
        } catch (error) {
          if (request.signal?.aborted || error instanceof ProviderTimeoutError) throw error;
          // A non-idempotent call is resent only when it cannot have reached the provider.
          const resend = request.idempotent || isConnectFailure(error);
          if (resend && retries < maxRetries) {
            retries += 1;
            const ms = backoffDelay(retries);
            await sleep(ms, request.signal);
            counters.backoffMs += ms;
            continue;
          }
          throw new ProviderUnavailableError('The provider could not be reached', {
            attempts,
            messages: [describeNetworkError(error)],
            ...label,
            cause: error,
          });
        }
        if (answer.status === 401 && !renewedToken) {
          renewedToken = true;
          tokens.invalidate(token);
          continue;
        }
        if (answer.status === 429 && rateLimitRetries < maxRetries) {
          rateLimitRetries += 1;
          // The limit is per account: everyone on this client waits, not only this call.
          const retryAfter = Number(answer.headers.get('retry-after'));
          const ms = Math.max(backoffDelay(rateLimitRetries), Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, backoffMaxMs) : 0);
          limiter.pause(ms);
          continue;
        }
        if (answer.status >= 500 && request.idempotent && retries < maxRetries) {
          retries += 1;
          const ms = backoffDelay(retries);
          await sleep(ms, request.signal);
          counters.backoffMs += ms;
          continue;
        }
        finish(answer.status, null);
        return { ...answer, attempts, durationMs: performance.now() - started };
      }
    } catch (error) {
      finish(error instanceof ProviderError ? error.status : null, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  /** A provider answer that is not a success, as the typed error it stands for. */
  function failure(result: SendResult, label: { method: string; path: string }): Error {
    const parsed = parseJson(result.text);
    const loose = errorBodySchema.safeParse(parsed.ok && parsed.value && typeof parsed.value === 'object' ? parsed.value : {});
    const errors = loose.success ? loose.data.errors : [];
    const messages = errors.map((e) => e.errorMessage).filter((m): m is string => !!m);
    const init: ProviderErrorInit = { status: result.status, messages, ...label };
    const status = result.status;
    if (status === 401) return new ProviderAuthError('The provider refused the access token, also after renewing it', init);
    if (status === 403) {
      const content = loose.success ? userLacksPermissionSchema.safeParse(loose.data.content ?? {}) : null;
      const lacks = content?.success ? content.data : null;
      const requiredPermission =
        lacks && (lacks.requiredPermission || lacks.featureAccessString || lacks.permissionString)
          ? {
              featureAccess: lacks.requiredPermission?.featureAccess ?? null,
              permission: lacks.requiredPermission?.permission ?? null,
              featureAccessString: lacks.featureAccessString,
              permissionString: lacks.permissionString,
            }
          : null;
      const named = requiredPermission?.featureAccessString
        ? [`Requires ${requiredPermission.featureAccessString}${requiredPermission.permissionString ? `, ${requiredPermission.permissionString}` : ''}`]
        : [];
      return new ProviderPermissionError('The service account lacks a permission for this call', {
        ...init,
        messages: messages.length > 0 ? messages : named,
        requiredPermission,
      });
    }
    if (status === 404) return new ProviderNotFoundError('The provider does not know this resource', init);
    if (status === 429) return new ProviderRateLimitError('The provider kept answering 429 (rate limit)', { ...init, attempts: result.attempts });
    if (status >= 500) return new ProviderUnavailableError(`The provider failed with ${status}`, { ...init, attempts: result.attempts });
    const fields = [...new Set(errors.flatMap((e) => e.memberNames))];
    return new ProviderValidationError(`The provider refused the request (${status})`, { ...init, fields });
  }

  /** Sends, maps failures to typed errors, checks the envelope and returns `content` (or the envelope). */
  async function call<S extends z.ZodType>(
    request: SendRequest,
    schema: S,
    options: { allowEmpty?: boolean } = {},
  ): Promise<{ status: number; value: z.output<S> }> {
    const label = { method: request.method, path: request.path };
    const result = await send(request);
    const parsed = parseJson(result.text);
    request.onRaw?.(parsed.ok ? parsed.value : result.text);
    if (result.status < 200 || result.status >= 300) throw failure(result, label);
    if (!parsed.ok) {
      throw new ProviderResponseError('The provider answered with a body that is not JSON', {
        status: result.status,
        messages: [result.text.slice(0, 200)],
        ...label,
      });
    }
    let value = parsed.value;
    if (value === null && options.allowEmpty) value = { errors: null, warnings: null, information: null, isValid: true };
    if (value && typeof value === 'object' && (value as { isValid?: unknown }).isValid === false) {
      const loose = errorBodySchema.safeParse(value);
      const errors = loose.success ? loose.data.errors : [];
      const messages = errors.map((e) => e.errorMessage).filter((m): m is string => !!m);
      if (messages.length === 0) {
        throw new ProviderResponseError('The provider answered isValid:false without saying why', { status: result.status, ...label });
      }
      throw new ProviderValidationError('The provider refused the request', {
        status: result.status,
        messages,
        fields: [...new Set(errors.flatMap((e) => e.memberNames))],
        ...label,
      });
    }
    const checked = schema.safeParse(value);
    if (!checked.success) {
      throw new ProviderResponseError('The provider answer does not have the documented shape', {
        status: result.status,
        messages: zodMessages(checked.error),
        ...label,
        cause: checked.error,
      });
    }
    return { status: result.status, value: checked.data };
  }

  async function content<T extends z.ZodType>(request: SendRequest, schema: T): Promise<z.output<T>> {
    const answer = await call(request, envelope(schema));
    return (answer.value as { content: z.output<T> }).content;
  }

  async function mutate(request: SendRequest): Promise<ProviderMutationResult> {
    const { status, value } = await call(request, serviceResponseSchema, { allowEmpty: true });
    return {
      status,
      information: value.information,
      warnings: value.warnings.map((w) => w.errorMessage).filter((m): m is string => !!m),
    };
  }

  async function paginate<S extends z.ZodType>(
    spec: { method: 'GET' | 'POST'; path: string; query?: QueryParams; body?: unknown; item: S; idOf: (item: z.output<S>) => string; limit?: number },
    options: RequestOptions,
  ): Promise<Omit<ProviderList<z.output<S>>, 'accountNumber'>> {
    const pageSchema = paginated(spec.item);
    type Page = z.output<typeof pageSchema>;
    const byId = new Map<string, z.output<S>>();
    const concurrency = Math.max(1, Math.floor(options.pageConcurrency ?? 1));
    let pages = 0;
    let totalCount = 0;

    const fetchPage = (page: number): Promise<Page> => {
      if (pages >= maxPages) {
        return Promise.reject(new ProviderResponseError(`The listing did not end within ${maxPages} pages`, { method: spec.method, path: spec.path }));
      }
      pages += 1;
      const query: QueryParams = { ...spec.query, page, ...(spec.limit ? { limit: spec.limit } : {}) };
      const pending = content({ method: spec.method, path: spec.path, query, body: spec.body, idempotent: true, ...pick(options) }, pageSchema);
      // Pages read ahead may fail after the listing already ended (or failed): never unhandled.
      pending.catch(() => undefined);
      return pending;
    };

    for (let pass = 1; pass <= PROVIDER_DEFAULTS.maxListingPasses; pass++) {
      const before = byId.size;
      // Page 0 first: its totalCount and limit say how many pages to read ahead (pageConcurrency).
      let pageSize = 0;
      let nextPage = 0;
      let ended = false;
      const ahead: Promise<Page>[] = [];
      const knownPages = () => (pageSize > 0 ? Math.ceil(totalCount / pageSize) : 0);
      const refill = () => {
        while (ahead.length === 0 || (ahead.length < concurrency && nextPage < knownPages())) ahead.push(fetchPage(nextPage++));
      };
      refill();
      try {
        while (!ended) {
          const result = await ahead.shift()!;
          // Page order has moved between requests before: the same record may come twice.
          for (const item of result.results as z.output<S>[]) byId.set(spec.idOf(item), item);
          totalCount = result.totalCount;
          if (pageSize === 0) pageSize = result.limit > 0 ? result.limit : result.results.length;
          // An empty page that is "not the last" would otherwise be followed for ever.
          ended = result.isLastPage || result.results.length === 0;
          if (!ended) refill();
        }
      } finally {
        // Read-ahead past the end (a listing that shrank) is waited for, not left running.
        await Promise.allSettled(ahead);
      }
      if (byId.size >= totalCount || byId.size === before) break;
    }
    return { items: [...byId.values()], pages, totalCount, complete: byId.size >= totalCount };
  }

  let account: Promise<ProviderAccount> | null = null;

  function getAccount(options: RequestOptions & { fresh?: boolean } = {}): Promise<ProviderAccount> {
    if (options.fresh) {
      const pending = content({ method: 'GET', path: '/public/v2/account', idempotent: true, ...pick(options) }, accountSchema);
      return pending.then((found) => {
        account = Promise.resolve(found);
        return found;
      });
    }
    if (!account) {
      // Shared by concurrent callers, so it runs without any one caller's signal; each caller
      // stops waiting on its own abort.
      const pending = content({ method: 'GET', path: '/public/v2/account', idempotent: true }, accountSchema);
      account = pending;
      // Cached after the first success only; a failure lets the next caller try again.
      pending.catch(() => {
        if (account === pending) account = null;
      });
    }
    return raceSignal(account, options.signal);
  }

  async function list<S extends z.ZodType>(
    spec: Parameters<typeof paginate<S>>[0],
    options: RequestOptions,
  ): Promise<ProviderList<z.output<S>>> {
    const [accountNumber, listing] = await Promise.all([
      getAccount(options).then((a) => a.accountNumber),
      paginate(spec, options),
    ]);
    return { accountNumber, ...listing };
  }


  return {
    getAccount,

    async accountNumber(options) {
      return (await getAccount(options)).accountNumber;
    },

    listProducts(options = {}) {
      return list({ method: 'GET', path: '/public/v2/products', item: productSchema, idOf: (p) => p.productReferenceId }, options);
    },

    async getAddress(addressReferenceId, options) {
      const path = `/public/v2/addresses/${seg('addressReferenceId', addressReferenceId)}`;
      return content({ method: 'GET', path, idempotent: true, ...pick(options) }, addressSchema);
    },

    listAddresses(filters = {}, options = {}) {
      const query: QueryParams = { addressIds: filters.addressIds };
      return list({ method: 'GET', path: '/public/v2/addresses', query, item: addressSchema, idOf: (a) => a.addressReferenceId }, options);
    },

    listServiceLines(options = {}) {
      return list({ method: 'GET', path: '/public/v2/service-lines', item: serviceLineSchema, idOf: (s) => s.serviceLineNumber }, options);
    },

    async getServiceLine(serviceLineNumber, options) {
      const path = `/public/v2/service-lines/${seg('serviceLineNumber', serviceLineNumber)}`;
      return content({ method: 'GET', path, idempotent: true, ...pick(options) }, serviceLineSchema);
    },

    listUserTerminals(filters = {}, options = {}) {
      const query: QueryParams = {
        searchString: filters.searchString || undefined,
        serviceLineNumbers: filters.serviceLineNumbers,
        userTerminalIds: filters.userTerminalIds,
        hasServiceLine: filters.hasServiceLine,
      };
      return list({ method: 'GET', path: '/public/v2/user-terminals', query, item: userTerminalSchema, idOf: (t) => t.userTerminalId }, options);
    },

    queryDataUsage(query = {}, options = {}) {
      const limit = Math.min(PROVIDER_DEFAULTS.dataUsageLimit, Math.max(1, Math.floor(options.limit ?? PROVIDER_DEFAULTS.dataUsageLimit)));
      const body: Record<string, unknown> = {};
      if (query.serviceLineNumbers !== undefined) body.serviceLineNumbers = query.serviceLineNumbers;
      if (query.previousBillingCycles !== undefined) body.previousBillingCycles = query.previousBillingCycles;
      if (query.activeServiceLinesOnly !== undefined) body.activeServiceLinesOnly = query.activeServiceLinesOnly;
      if (query.queryStartDate !== undefined) body.queryStartDate = query.queryStartDate;
      return list(
        { method: 'POST', path: '/public/v2/data-usage/query', body, limit, item: dataUsageSchema, idOf: (u) => u.serviceLineNumber },
        options,
      );
    },

    async changeServiceLineProduct(serviceLineNumber, productReferenceId, options) {
      const path = `/public/v2/service-lines/${seg('serviceLineNumber', serviceLineNumber)}/product`;
      seg('productReferenceId', productReferenceId);
      return mutate({ method: 'PUT', path, body: { productReferenceId }, idempotent: true, ...pick(options) });
    },

    async attachTerminal(serviceLineNumber, userTerminalId, options) {
      const path = `/public/v2/service-lines/${seg('serviceLineNumber', serviceLineNumber)}/user-terminals`;
      seg('userTerminalId', userTerminalId);
      return mutate({ method: 'POST', path, body: { deviceId: userTerminalId }, idempotent: false, ...pick(options) });
    },

    async detachTerminal(serviceLineNumber, userTerminalId, options) {
      const path = `/public/v2/service-lines/${seg('serviceLineNumber', serviceLineNumber)}/user-terminals/${seg('userTerminalId', userTerminalId)}`;
      return mutate({ method: 'DELETE', path, idempotent: true, ...pick(options) });
    },

    async rebootTerminal(userTerminalId, options) {
      const path = `/public/v2/user-terminals/${seg('userTerminalId', userTerminalId)}/reboot`;
      return mutate({ method: 'POST', path, idempotent: false, ...pick(options) });
    },

    async queryTelemetry(userTerminalIds, options = {}) {
      const body = userTerminalIds === undefined ? {} : { userTerminalIds };
      const [accountNumber, telemetry] = await Promise.all([
        getAccount(options).then((a) => a.accountNumber),
        content({ method: 'POST', path: '/public/v2/telemetry/query', body, idempotent: true, ...pick(options) }, telemetryContentSchema),
      ]);
      const userTerminals: Record<string, ProviderTelemetry> = {};
      for (const [id, record] of Object.entries(telemetry.userTerminals)) userTerminals[id] = { ...record, userTerminalId: id };
      return { accountNumber, userTerminals };
    },

    async raw(method, path, request = {}) {
      if (!/^\/public\/[^?#]*$/.test(path) || path.includes('//') || path.includes('..')) {
        throw new TypeError('raw() takes a provider path that starts with /public/ (query in `query`)');
      }
      const result = await send({
        method,
        path,
        ...(request.query ? { query: request.query } : {}),
        ...(request.body === undefined ? {} : { body: request.body }),
        idempotent: request.idempotent ?? method !== 'POST',
        ...pick(request),
      });
      const parsed = parseJson(result.text);
      return { status: result.status, body: parsed.ok ? parsed.value : result.text, durationMs: result.durationMs, attempts: result.attempts };
    },

    lastCall: () => (last ? { ...last } : null),

    usage: () => ({ ...counters }),
  };
}
