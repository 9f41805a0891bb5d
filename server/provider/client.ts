// Starlink Public API v2 client for one provider account (one service-account credential).
//
// Every call goes: rate limit (the account's shared budget on the server, else an in-process
// sliding minute; default 240 < the provider's 250) → bearer token (cached, renewed early, renewed
// once more on a 401) → fetch with a per-request timeout combined with the caller's signal → on
// 429, 5xx or a dropped connection, back-off with full jitter and try again, up to `maxRetries`
// for 429s and as many again for 5xx and dropped connections → the envelope checked with zod →
// typed result or typed error.
// Lists page from 0 until `isLastPage` and dedupe by id; when fewer distinct records came back
// than `totalCount` said (page order moved under us) the listing is read again, and the result
// says whether it is complete.
//
// Writes are never resent blindly. A write that sets a state is resent after a 5xx or a dropped
// connection; one that adds something only when it cannot have reached the provider; and a create
// whose answer was lost (a timeout, a 5xx, a connection dropped after sending) is first looked for
// — by the key it carries, or as what changed since before it was sent — and only sent again when
// it is not there, so nothing is ever created twice.
//
// Share one client per provider account: the limit lives in it (or in the budget it is given).
//
// Lanes: every call is a person's (a request handler, the console, an activation) unless it is
// made through `client.background()`, the view the sync engines use. The limiter is told the lane
// of each request, so the shared budget can put people first and keep syncs to their share. The
// lane travels with the async call (AsyncLocalStorage), so the pages, retries and look-ups a
// background call makes are background too.
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
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
import { createRateLimiter, defaultSleep, type CallLane, type CallLimiter, type Sleep } from './limiter';
import { pathOf, providerOperations as op, USAGE_MAX_LIMIT, type addressBody, type PathParams, type ProviderOperation } from './operations';
import {
  envelope,
  errorBodySchema,
  paginated,
  serviceResponseSchema,
  userLacksPermissionSchema,
  type ProviderAccount,
  type ProviderAddress,
  type ProviderOptIn,
  type ProviderPartialPeriod,
  type ProviderAccountBalance,
  type ProviderContact,
  type ProviderDataPool,
  type ProviderDataPoolUsage,
  type ProviderInvoiceDetail,
  type ProviderInvoiceSummary,
  type ProviderManagedAccount,
  type ProviderManagedAccountTree,
  type ProviderManagedCustomer,
  type ProviderDataUsage,
  type ProviderProduct,
  type ProviderServiceLine,
  type ProviderTelemetry,
  type ProviderUserTerminal,
  // Routers and terminal configuration.
  type ProviderAddedLocalContent,
  type ProviderAvailableL2VpnCircuit,
  type ProviderConfigRef,
  type ProviderLocalContent,
  type ProviderRouter,
  type ProviderRouterConfig,
  type ProviderSandboxClient,
  type ProviderTlsConfig,
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
  dataUsageLimit: USAGE_MAX_LIMIT,
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
  /**
   * The limit the client's requests take their slots from: the account's shared budget in the
   * database (the server's), or a limiter shared between clients of the account. Default: an
   * in-process sliding window of its own (`requestsPerMinute`).
   */
  limiter?: CallLimiter;
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
  /** Only addresses whose metadata is exactly this. */
  metadata?: string;
}

export interface ServiceLineFilters {
  /** Only the lines at this address. */
  addressReferenceId?: string;
  /** A line number or terminal id exactly, or part of a nickname. */
  searchString?: string;
}

/** An address to create or replace (the table's body). Its metadata is the client's: it carries the key a lost answer is found by. */
export type AddressInput = Omit<z.input<typeof addressBody>, 'metadata'>;

export interface DataBlockOrder {
  productId: string;
  count: number;
}

export interface ServiceLineCreation {
  addressReferenceId: string;
  productReferenceId: string;
  /** Priority plans: the recurring blocks (one kind). */
  recurringDataBlocks?: DataBlockOrder[];
}

export interface ContactInput {
  firstName: string;
  lastName: string;
  roles: string[];
  email: string;
  phoneNumber: string;
  locale: string;
}

export interface ManagedCustomerInput {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  /** ISO 639-1. */
  locale: string;
  businessName?: string | null;
}

export interface ManagedAccountFilters {
  ancestorAccountNumber?: string;
  searchString?: string;
  accountNumbers?: string[];
  /** 1: the accounts directly under the ancestor. */
  maxDepth?: number;
}

/** Options of a create: `key` finds the object after a lost answer (default: a fresh random key). */
export interface CreateOptions extends RequestOptions {
  key?: string;
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
/** The query an operation of the table takes: only the parameter names it declares. */
type OperationQuery<O extends { query?: Record<string, unknown> }> = { [K in keyof NonNullable<O['query']>]?: QueryValue };
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface StarlinkClient {
  /** Cached after the first success; `fresh` asks the provider again (a connection test). */
  getAccount(options?: RequestOptions & { fresh?: boolean }): Promise<ProviderAccount>;
  accountNumber(options?: RequestOptions): Promise<string>;
  listProducts(options?: RequestOptions): Promise<ProviderList<ProviderProduct>>;
  getAddress(addressReferenceId: string, options?: RequestOptions): Promise<ProviderAddress>;
  /** Every address of the account (or the ones asked for), 100 a page. */
  listAddresses(filters?: AddressFilters, options?: RequestOptions): Promise<ProviderList<ProviderAddress>>;
  listServiceLines(options?: RequestOptions & ServiceLineFilters): Promise<ProviderList<ProviderServiceLine>>;
  getServiceLine(serviceLineNumber: string, options?: RequestOptions): Promise<ProviderServiceLine>;
  listUserTerminals(filters?: UserTerminalFilters, options?: RequestOptions): Promise<ProviderList<ProviderUserTerminal>>;
  queryDataUsage(query?: DataUsageQuery, options?: RequestOptions & { limit?: number }): Promise<ProviderList<ProviderDataUsage>>;
  changeServiceLineProduct(serviceLineNumber: string, productReferenceId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  attachTerminal(serviceLineNumber: string, userTerminalId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  detachTerminal(serviceLineNumber: string, userTerminalId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  rebootTerminal(userTerminalId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  queryTelemetry(userTerminalIds?: string[], options?: RequestOptions): Promise<ProviderTelemetryResult>;

  /** Creates an address; its metadata holds `options.key`, by which a lost answer is found. */
  createAddress(address: AddressInput, options?: CreateOptions): Promise<ProviderAddress>;
  updateAddress(addressReferenceId: string, address: AddressInput, options?: RequestOptions): Promise<ProviderAddress>;
  /** Creates an active line; after a lost answer the address's lines are read for the one it made. */
  createServiceLine(creation: ServiceLineCreation, options?: RequestOptions): Promise<ProviderServiceLine>;
  /** Ends a line now, or (default) at the end of its billing cycle. */
  deactivateServiceLine(serviceLineNumber: string, end: { endNow: boolean; reason?: string }, options?: RequestOptions): Promise<ProviderMutationResult>;
  setServiceLineNickname(serviceLineNumber: string, nickname: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  setServiceLinePublicIp(serviceLineNumber: string, publicIp: boolean, options?: RequestOptions): Promise<ProviderMutationResult>;
  optInPriorityData(serviceLineNumber: string, options?: RequestOptions): Promise<ProviderOptIn>;
  optOutPriorityData(serviceLineNumber: string, options?: RequestOptions): Promise<ProviderOptIn>;
  setRecurringDataBlocks(
    serviceLineNumber: string,
    change: { recurringDataBlocks: DataBlockOrder[]; applyToCurrentMonth?: boolean },
    options?: RequestOptions,
  ): Promise<ProviderMutationResult>;
  /** Buys one-time blocks; after a lost answer the line's top-ups are counted before buying again. */
  topUpServiceLine(serviceLineNumber: string, block: DataBlockOrder, options?: RequestOptions): Promise<ProviderMutationResult>;
  listPartialPeriods(serviceLineNumber: string, options?: RequestOptions): Promise<ProviderPartialPeriod[]>;
  /** Adds a kit (by user terminal id, kit or dish serial) to the account; after a lost answer the account is searched for it. */
  addUserTerminal(deviceId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  removeUserTerminal(deviceId: string, options?: RequestOptions): Promise<ProviderMutationResult>;

  // Billing, contacts, managed accounts, data pools.
  /** Invoices, newest first (one per billing cycle). */
  listInvoices(options?: RequestOptions): Promise<ProviderList<ProviderInvoiceSummary>>;
  getInvoice(invoiceId: string, options?: RequestOptions): Promise<ProviderInvoiceDetail>;
  getBalance(options?: RequestOptions): Promise<ProviderAccountBalance>;
  listContacts(options?: RequestOptions): Promise<ProviderList<ProviderContact>>;
  /** Adds a contact; after a lost answer the contacts are searched for its email. */
  createContact(contact: ContactInput, options?: RequestOptions): Promise<ProviderContact>;
  updateContact(subjectId: string, change: { roles?: string[]; phoneNumber?: string }, options?: RequestOptions): Promise<ProviderContact>;
  deleteContact(subjectId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  /**
   * Creates a managed customer account; after a lost answer the managed accounts are read for the
   * new one (found that way, its service account secret is not known: null).
   */
  createManagedCustomer(customer: ManagedCustomerInput, options?: RequestOptions): Promise<ProviderManagedCustomer>;
  getManagedAccountTree(ancestorAccountNumber?: string, options?: RequestOptions): Promise<ProviderManagedAccountTree>;
  /** Every managed account that matches, page after page by cursor. */
  listManagedAccounts(filters?: ManagedAccountFilters, options?: RequestOptions): Promise<ProviderManagedAccount[]>;
  listDataPools(filters?: { productReferenceId?: string; dataPoolIds?: string[] }, options?: RequestOptions): Promise<ProviderList<ProviderDataPool>>;
  queryDataPoolUsage(filters?: { dataPoolIds?: string[]; asOfTimestamp?: string }, options?: RequestOptions): Promise<ProviderList<ProviderDataPoolUsage>>;
  setDataPoolAutomaticTopUp(dataPoolId: string, enabled: boolean, options?: RequestOptions): Promise<ProviderMutationResult>;
  setConsumeFromPool(serviceLineNumber: string, consume: boolean, options?: RequestOptions): Promise<ProviderMutationResult>;

  // Routers and terminal configuration.
  getRouter(routerId: string, options?: RequestOptions): Promise<ProviderRouter>;
  /** Reboots a router (its dish online on an active line); never resent once it may have arrived: two reboots are two outages. */
  rebootRouter(routerId: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  listRouterConfigs(options?: RequestOptions): Promise<ProviderList<ProviderRouterConfig>>;
  getRouterConfig(configId: string, options?: RequestOptions): Promise<ProviderRouterConfig>;
  /** Creates a router config; after a lost answer the configs are read for a new one with its nickname (or, unnamed, its JSON). */
  createRouterConfig(config: { nickname?: string | null; routerConfigJson: string }, options?: RequestOptions): Promise<ProviderRouterConfig>;
  /** Replaces a config's JSON, and its nickname when one is given; the routers on it get it when online. */
  updateRouterConfig(configId: string, config: { nickname?: string | null; routerConfigJson: string }, options?: RequestOptions): Promise<ProviderRouterConfig>;
  /** Assigns a config (null: none) to routers: to all of them, or to none when one is refused. */
  assignRouterConfig(configId: string | null, routerIds: string[], options?: RequestOptions): Promise<ProviderMutationResult>;
  /** The config routers get when they are first added to the account, or null. */
  getDefaultRouterConfig(options?: RequestOptions): Promise<string | null>;
  /** Sets the account's default router config; null clears it. */
  setDefaultRouterConfig(configId: string | null, options?: RequestOptions): Promise<ProviderMutationResult>;
  listTlsConfigs(options?: RequestOptions): Promise<ProviderList<ProviderTlsConfig>>;
  /** Adds a certificate and its key (base64 PEM); after a lost answer the account's certificates are searched for it. */
  createTlsConfig(tls: { certificateBase64Pem: string; keyBase64Pem: string }, options?: RequestOptions): Promise<ProviderConfigRef>;
  deleteTlsConfig(certificateBase64Pem: string, options?: RequestOptions): Promise<ProviderMutationResult>;
  listLocalContent(options?: RequestOptions): Promise<ProviderLocalContent[]>;
  /**
   * Uploads an HTML page (its text, sent in the JSON form the published document gives) for
   * routers' HTTPS server; after a lost answer the files are searched for its MD5 hash.
   */
  uploadLocalContent(html: string, options?: RequestOptions): Promise<ProviderAddedLocalContent>;
  /** Clients out of their sandbox whose access has not expired (of one sandbox; expiring after a time). */
  listSandboxClients(filters?: { sandboxId?: number; expiryAfter?: string }, options?: RequestOptions): Promise<ProviderList<ProviderSandboxClient>>;
  /** Lets clients out of their sandbox until `expiry` (ISO date-time; a past one sandboxes them again). */
  updateSandboxClients(clients: { clientId: string; sandboxId: number; expiry: string }[], options?: RequestOptions): Promise<ProviderMutationResult>;
  sendSandboxHeartbeat(healthy: boolean, options?: RequestOptions): Promise<ProviderMutationResult>;
  /** Assigns a user terminal config (null: none) to terminals: all of them, or none when one is refused. */
  assignUserTerminalConfig(configId: string | null, userTerminalIds: string[], options?: RequestOptions): Promise<ProviderMutationResult>;
  listL2VpnCircuits(options?: RequestOptions): Promise<ProviderAvailableL2VpnCircuit[]>;
  /** Sets a terminal's L2VPN circuit groups and VLANs; an empty list clears them. */
  setL2VpnCircuits(
    deviceId: string,
    circuits: { circuitIds: string[]; customerVlans: number[]; serviceVlan?: number | null; customerVlanRemap?: number | null }[],
    options?: RequestOptions,
  ): Promise<ProviderMutationResult>;

  /** Any provider path (must start with /public/); answers every HTTP status instead of throwing. */
  raw(method: HttpMethod, path: string, request?: RawRequest): Promise<RawResponse>;
  lastCall(): ProviderCall | null;
  /** Every request of the client, both lanes (on the background view: its own lane's only). */
  usage(): ProviderUsage;
  /**
   * The same client for background work (the sync engines): its calls take the sync lane of the
   * budget (a share of it, behind people's calls), and its `usage()` counts only them.
   */
  background(): StarlinkClient;
}

/** The lane of the call being made: set by `background()`, 'person' otherwise. */
const laneOfCall = new AsyncLocalStorage<CallLane>();

/**
 * Runs `work` with every provider call it makes in the background lane, whichever client makes
 * it: work nobody waits for (an alert rule's action, a scheduled change) goes behind people's calls
 * and inside the background share of the budget, as the syncs do.
 */
export function inBackgroundLane<T>(work: () => Promise<T>): Promise<T> {
  return laneOfCall.run('sync', work);
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

/** A request for one operation of the table: its method, its path filled in, its retry rule. */
function requestFor<Path extends string>(
  operation: ProviderOperation & { path: Path },
  params: PathParams<Path>,
  parts: { query?: QueryParams; body?: unknown } = {},
  options?: RequestOptions,
): SendRequest {
  return {
    method: operation.method,
    path: pathOf(operation.path, params),
    ...(parts.query ? { query: parts.query } : {}),
    ...(parts.body === undefined ? {} : { body: parts.body }),
    // `unsent` and `lookup` writes: resent by the transport only when they cannot have arrived.
    idempotent: operation.retry === 'always',
    ...pick(options),
  };
}

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

/** A failure after which the write may or may not have been done: no answer, or a 5xx. */
const fateUnknown = (error: unknown) => error instanceof ProviderTimeoutError || error instanceof ProviderUnavailableError;

/** What a write found by its lookup answers: it was done, by the attempt whose answer was lost. */
const foundAfterLostAnswer = (): ProviderMutationResult => ({
  status: 200,
  information: ['Done by an earlier attempt whose answer was lost'],
  warnings: [],
});

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
  const limiter: CallLimiter =
    options.limiter ??
    createRateLimiter({ requestsPerMinute: options.requestsPerMinute ?? PROVIDER_DEFAULTS.requestsPerMinute, now, sleep });

  const emptyUsage = (): ProviderUsage => ({ requests: 0, retries: 0, throttledMs: 0, backoffMs: 0, tokenRequests: 0 });
  /** Every request, and the background lane's apart (what a sync run reports as its calls). */
  const counters = emptyUsage();
  const syncCounters = emptyUsage();
  const count = (field: keyof ProviderUsage, amount = 1) => {
    counters[field] += amount;
    if (laneOfCall.getStore() === 'sync') syncCounters[field] += amount;
  };
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
      count('backoffMs', ms);
      return ms;
    },
    onRequest: () => {
      count('tokenRequests');
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

    const lane = laneOfCall.getStore() ?? 'person';
    try {
      for (;;) {
        count('throttledMs', await limiter.acquire(request.signal, lane));
        const token = await tokens.get(request.signal);
        attempts += 1;
        count('requests');
        if (attempts > 1) count('retries');
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
            count('backoffMs', ms);
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
          // With the shared budget the pause is stored, so every process holds back.
          await limiter.pause(ms);
          continue;
        }
        if (answer.status >= 500 && request.idempotent && retries < maxRetries) {
          retries += 1;
          const ms = backoffDelay(retries);
          await sleep(ms, request.signal);
          count('backoffMs', ms);
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

  /**
   * A create (or a purchase): sent once; when its answer is lost, `lookup` says whether the
   * provider made it after all, and only when it did not is it sent again. A failing lookup
   * leaves the first failure standing (the caller's retry will look again).
   */
  async function createOnce<T>(attempt: () => Promise<T>, lookup: () => Promise<T | null>, options: RequestOptions): Promise<T> {
    for (let retry = 1; ; retry++) {
      try {
        return await attempt();
      } catch (error) {
        if (!fateUnknown(error) || retry > maxRetries || options.signal?.aborted) throw error;
        let found: T | null;
        try {
          found = await lookup();
        } catch {
          throw error;
        }
        if (found !== null) return found;
        const ms = backoffDelay(retry);
        await sleep(ms, options.signal);
        count('backoffMs', ms);
        count('retries');
      }
    }
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
    spec: { operation: ProviderOperation & { reads: 'page'; item: S }; query?: QueryParams; body?: unknown; idOf: (item: z.output<S>) => string; limit?: number },
    options: RequestOptions,
  ): Promise<Omit<ProviderList<z.output<S>>, 'accountNumber'>> {
    const pageSchema = paginated(spec.operation.item);
    const { method, path } = spec.operation;
    type Page = z.output<typeof pageSchema>;
    const byId = new Map<string, z.output<S>>();
    const concurrency = Math.max(1, Math.floor(options.pageConcurrency ?? 1));
    let pages = 0;
    let totalCount = 0;

    const fetchPage = (page: number): Promise<Page> => {
      if (pages >= maxPages) {
        return Promise.reject(new ProviderResponseError(`The listing did not end within ${maxPages} pages`, { method, path }));
      }
      pages += 1;
      const query: QueryParams = { ...spec.query, page, ...(spec.limit ? { limit: spec.limit } : {}) };
      const pending = content(requestFor(spec.operation, {}, { query, body: spec.body }, options), pageSchema);
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
      const pending = content(requestFor(op.getAccount, {}, {}, options), op.getAccount.content);
      return pending.then((found) => {
        account = Promise.resolve(found);
        return found;
      });
    }
    if (!account) {
      // Shared by concurrent callers, so it runs without any one caller's signal; each caller
      // stops waiting on its own abort.
      const pending = content(requestFor(op.getAccount, {}), op.getAccount.content);
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


  // Named, so a call may use another (a create looks itself up with a list) without `this`.
  const client: StarlinkClient = {
    getAccount,

    async accountNumber(options) {
      return (await getAccount(options)).accountNumber;
    },

    listProducts(options = {}) {
      return list({ operation: op.listProducts, idOf: (p) => p.productReferenceId }, options);
    },

    async getAddress(addressReferenceId, options) {
      return content(requestFor(op.getAddress, { addressReferenceId }, {}, options), op.getAddress.content);
    },

    listAddresses(filters = {}, options = {}) {
      const query: OperationQuery<typeof op.listAddresses> = { addressIds: filters.addressIds, metadata: filters.metadata };
      return list({ operation: op.listAddresses, query, idOf: (a) => a.addressReferenceId }, options);
    },

    listServiceLines({ addressReferenceId, searchString, ...options } = {}) {
      const query: OperationQuery<typeof op.listServiceLines> = { addressReferenceId, searchString: searchString || undefined };
      return list({ operation: op.listServiceLines, query, idOf: (s) => s.serviceLineNumber }, options);
    },

    async getServiceLine(serviceLineNumber, options) {
      return content(requestFor(op.getServiceLine, { serviceLineNumber }, {}, options), op.getServiceLine.content);
    },

    listUserTerminals(filters = {}, options = {}) {
      const query: OperationQuery<typeof op.listUserTerminals> = {
        searchString: filters.searchString || undefined,
        serviceLineNumbers: filters.serviceLineNumbers,
        userTerminalIds: filters.userTerminalIds,
        hasServiceLine: filters.hasServiceLine,
      };
      return list({ operation: op.listUserTerminals, query, idOf: (t) => t.userTerminalId }, options);
    },

    queryDataUsage(query = {}, options = {}) {
      const limit = Math.min(PROVIDER_DEFAULTS.dataUsageLimit, Math.max(1, Math.floor(options.limit ?? PROVIDER_DEFAULTS.dataUsageLimit)));
      const body: Record<string, unknown> = {};
      if (query.serviceLineNumbers !== undefined) body.serviceLineNumbers = query.serviceLineNumbers;
      if (query.previousBillingCycles !== undefined) body.previousBillingCycles = query.previousBillingCycles;
      if (query.activeServiceLinesOnly !== undefined) body.activeServiceLinesOnly = query.activeServiceLinesOnly;
      if (query.queryStartDate !== undefined) body.queryStartDate = query.queryStartDate;
      return list({ operation: op.queryDataUsage, body, limit, idOf: (u) => u.serviceLineNumber }, options);
    },

    async changeServiceLineProduct(serviceLineNumber, productReferenceId, options) {
      if (typeof productReferenceId !== 'string' || productReferenceId.trim() === '') throw new TypeError('productReferenceId is required');
      return mutate(requestFor(op.changeServiceLineProduct, { serviceLineNumber }, { body: { productReferenceId } }, options));
    },

    async attachTerminal(serviceLineNumber, userTerminalId, options) {
      if (typeof userTerminalId !== 'string' || userTerminalId.trim() === '') throw new TypeError('userTerminalId is required');
      return mutate(requestFor(op.attachTerminal, { serviceLineNumber }, { body: { deviceId: userTerminalId } }, options));
    },

    async detachTerminal(serviceLineNumber, userTerminalId, options) {
      return mutate(requestFor(op.detachTerminal, { serviceLineNumber, deviceId: userTerminalId }, {}, options));
    },

    async rebootTerminal(userTerminalId, options) {
      return mutate(requestFor(op.rebootTerminal, { deviceId: userTerminalId }, {}, options));
    },

    createAddress(address, options = {}) {
      const metadata = options.key ?? randomUUID();
      const attempt = () => content(requestFor(op.createAddress, {}, { body: { ...address, metadata } }, options), op.createAddress.content);
      const lookup = async () => (await client.listAddresses({ metadata }, options)).items[0] ?? null;
      return createOnce(attempt, lookup, options);
    },

    updateAddress(addressReferenceId, address, options) {
      return content(requestFor(op.updateAddress, { addressReferenceId }, { body: address }, options), op.updateAddress.content);
    },

    async createServiceLine(creation, options = {}) {
      const { addressReferenceId, productReferenceId, recurringDataBlocks } = creation;
      const body = { addressReferenceId, productReferenceId, ...(recurringDataBlocks ? { dataBlockProducts: { recurringDataBlocks } } : {}) };
      // What the address already holds, so a line made by a lost attempt can be told from the rest.
      const atAddress = async () => (await client.listServiceLines({ ...options, addressReferenceId })).items;
      const before = new Set((await atAddress()).map((line) => line.serviceLineNumber));
      const attempt = () => content(requestFor(op.createServiceLine, {}, { body }, options), op.createServiceLine.content);
      const lookup = async () =>
        (await atAddress()).find((line) => !before.has(line.serviceLineNumber) && line.productReferenceId === productReferenceId) ?? null;
      return createOnce(attempt, lookup, options);
    },

    deactivateServiceLine(serviceLineNumber, end, options) {
      const query: OperationQuery<typeof op.deactivateServiceLine> = { endNow: end.endNow, reasonForCancellation: end.reason?.trim() || undefined };
      return mutate(requestFor(op.deactivateServiceLine, { serviceLineNumber }, { query }, options));
    },

    setServiceLineNickname(serviceLineNumber, nickname, options) {
      return mutate(requestFor(op.setServiceLineNickname, { serviceLineNumber }, { body: { nickname } }, options));
    },

    setServiceLinePublicIp(serviceLineNumber, publicIp, options) {
      return mutate(requestFor(op.setServiceLinePublicIp, { serviceLineNumber }, { body: { publicIp } }, options));
    },

    optInPriorityData(serviceLineNumber, options) {
      return content(requestFor(op.optInPriorityData, { serviceLineNumber }, {}, options), op.optInPriorityData.content);
    },

    optOutPriorityData(serviceLineNumber, options) {
      return content(requestFor(op.optOutPriorityData, { serviceLineNumber }, {}, options), op.optOutPriorityData.content);
    },

    setRecurringDataBlocks(serviceLineNumber, change, options) {
      const body = { recurringDataBlocks: change.recurringDataBlocks, ...(change.applyToCurrentMonth === undefined ? {} : { applyToCurrentMonth: change.applyToCurrentMonth }) };
      return mutate(requestFor(op.setRecurringDataBlocks, { serviceLineNumber }, { body }, options));
    },

    async topUpServiceLine(serviceLineNumber, block, options = {}) {
      const bought = async () =>
        (await client.getServiceLine(serviceLineNumber, options)).dataBlocks?.topUpBlocksOneTimePurchase.reduce((sum, b) => sum + b.count, 0) ?? 0;
      const before = await bought();
      const attempt = () => mutate(requestFor(op.topUpServiceLine, { serviceLineNumber }, { body: block }, options));
      const lookup = async () => ((await bought()) >= before + block.count ? foundAfterLostAnswer() : null);
      return createOnce(attempt, lookup, options);
    },

    listPartialPeriods(serviceLineNumber, options) {
      return content(requestFor(op.listPartialPeriods, { serviceLineNumber }, {}, options), op.listPartialPeriods.content);
    },

    addUserTerminal(deviceId, options = {}) {
      if (typeof deviceId !== 'string' || deviceId.trim() === '') return Promise.reject(new TypeError('deviceId is required'));
      const wanted = deviceId.trim().toUpperCase();
      const attempt = () => mutate(requestFor(op.addUserTerminal, {}, { body: { deviceId: deviceId.trim() } }, options));
      const lookup = async () => {
        const { items } = await client.listUserTerminals({ searchString: deviceId.trim() }, options);
        const found = items.some((t) => [t.userTerminalId, t.kitSerialNumber, t.dishSerialNumber].some((id) => id?.toUpperCase() === wanted));
        return found ? foundAfterLostAnswer() : null;
      };
      return createOnce(attempt, lookup, options);
    },

    removeUserTerminal(deviceId, options) {
      return mutate(requestFor(op.removeUserTerminal, { deviceId }, {}, options));
    },

    listInvoices(options = {}) {
      return list({ operation: op.listInvoices, idOf: (invoice) => invoice.invoiceId }, options);
    },

    getInvoice(invoiceId, options) {
      return content(requestFor(op.getInvoice, { invoiceId }, {}, options), op.getInvoice.content);
    },

    getBalance(options) {
      return content(requestFor(op.getBalance, {}, {}, options), op.getBalance.content);
    },

    listContacts(options = {}) {
      return list({ operation: op.listContacts, idOf: (contact) => contact.subjectId }, options);
    },

    createContact(contact, options = {}) {
      const attempt = () => content(requestFor(op.createContact, {}, { body: contact }, options), op.createContact.content);
      const lookup = async () => (await client.listContacts(options)).items.find((c) => c.email.toLowerCase() === contact.email.toLowerCase()) ?? null;
      return createOnce(attempt, lookup, options);
    },

    updateContact(subjectId, change, options) {
      return content(requestFor(op.updateContact, { subjectId }, { body: change }, options), op.updateContact.content);
    },

    deleteContact(subjectId, options) {
      return mutate(requestFor(op.deleteContact, { subjectId }, {}, options));
    },

    async createManagedCustomer(customer, options = {}) {
      const name = customer.businessName?.trim() || `${customer.firstName} ${customer.lastName}`;
      const before = new Set((await client.listManagedAccounts({ maxDepth: 1 }, options)).map((a) => a.accountNumber));
      const attempt = () => content(requestFor(op.createManagedCustomer, {}, { body: customer }, options), op.createManagedCustomer.content);
      const lookup = async () => {
        const made = (await client.listManagedAccounts({ maxDepth: 1 }, options)).find((a) => !before.has(a.accountNumber) && a.accountName === name);
        return made ? { accountNumber: made.accountNumber, serviceAccountClientId: null, serviceAccountSecret: null } : null;
      };
      return createOnce(attempt, lookup, options);
    },

    getManagedAccountTree(ancestorAccountNumber, options) {
      const query: OperationQuery<typeof op.getManagedAccountTree> = { ancestorAccountNumber };
      return content(requestFor(op.getManagedAccountTree, {}, { query }, options), op.getManagedAccountTree.content);
    },

    async listManagedAccounts(filters = {}, options = {}) {
      const found: ProviderManagedAccount[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < maxPages; pages++) {
        const query: OperationQuery<typeof op.listManagedAccounts> = { ...filters, cursor };
        const page = await content(requestFor(op.listManagedAccounts, {}, { query }, options), op.listManagedAccounts.content);
        found.push(...page.results);
        if (!page.nextKey) return found;
        cursor = page.nextKey;
      }
      throw new ProviderResponseError(`The listing did not end within ${maxPages} pages`, { method: op.listManagedAccounts.method, path: op.listManagedAccounts.path });
    },

    listDataPools(filters = {}, options = {}) {
      const query: OperationQuery<typeof op.listDataPools> = { productReferenceId: filters.productReferenceId, dataPoolIds: filters.dataPoolIds };
      return list({ operation: op.listDataPools, query, idOf: (pool) => pool.dataPoolId }, options);
    },

    queryDataPoolUsage(filters = {}, options = {}) {
      const query: OperationQuery<typeof op.queryDataPoolUsage> = { dataPoolIds: filters.dataPoolIds, asOfTimestamp: filters.asOfTimestamp };
      return list({ operation: op.queryDataPoolUsage, query, idOf: (usage) => usage.dataPoolId }, options);
    },

    setDataPoolAutomaticTopUp(dataPoolId, enabled, options) {
      return mutate(requestFor(op.setDataPoolAutomaticTopUp, { dataPoolId }, { query: { enabled } }, options));
    },

    setConsumeFromPool(serviceLineNumber, consume, options) {
      return mutate(requestFor(op.setConsumeFromPool, { serviceLineNumber }, { query: { consumeFromPool: consume } }, options));
    },

    getRouter(routerId, options) {
      return content(requestFor(op.getRouter, { routerId }, {}, options), op.getRouter.content);
    },

    rebootRouter(routerId, options) {
      return mutate(requestFor(op.rebootRouter, { routerId }, {}, options));
    },

    listRouterConfigs(options = {}) {
      return list({ operation: op.listRouterConfigs, idOf: (c) => c.configId }, options);
    },

    getRouterConfig(configId, options) {
      return content(requestFor(op.getRouterConfig, { configId }, {}, options), op.getRouterConfig.content);
    },

    async createRouterConfig(config, options = {}) {
      const nickname = config.nickname?.trim() || null;
      const body = { ...(nickname ? { nickname } : {}), routerConfigJson: config.routerConfigJson };
      // What the account already holds, so a config made by a lost attempt can be told from the rest.
      const configs = async () => (await client.listRouterConfigs(options)).items;
      const before = new Set((await configs()).map((c) => c.configId));
      const attempt = () => content(requestFor(op.createRouterConfig, {}, { body }, options), op.createRouterConfig.content);
      const lookup = async () =>
        (await configs()).find((c) => !before.has(c.configId) && (nickname ? c.nickname === nickname : c.routerConfigJson === config.routerConfigJson)) ?? null;
      return createOnce(attempt, lookup, options);
    },

    updateRouterConfig(configId, config, options) {
      const nickname = config.nickname?.trim() || null;
      const body = { ...(nickname ? { nickname } : {}), routerConfigJson: config.routerConfigJson };
      return content(requestFor(op.updateRouterConfig, { configId }, { body }, options), op.updateRouterConfig.content);
    },

    assignRouterConfig(configId, routerIds, options) {
      return mutate(requestFor(op.assignRouterConfig, {}, { body: { configId, routerIds } }, options));
    },

    async getDefaultRouterConfig(options) {
      return (await content(requestFor(op.getDefaultRouterConfig, {}, {}, options), op.getDefaultRouterConfig.content)).configId;
    },

    setDefaultRouterConfig(configId, options) {
      // The provider clears the default on an empty id.
      return mutate(requestFor(op.setDefaultRouterConfig, {}, { body: { configId: configId ?? '' } }, options));
    },

    listTlsConfigs(options = {}) {
      return list({ operation: op.listTlsConfigs, idOf: (c) => c.certificateBase64Pem }, options);
    },

    createTlsConfig(tls, options = {}) {
      const body = { certificateBase64Pem: tls.certificateBase64Pem.trim(), keyBase64Pem: tls.keyBase64Pem.trim() };
      const attempt = () => content(requestFor(op.createTlsConfig, {}, { body }, options), op.createTlsConfig.content);
      // Certificates are unique on the account: finding it means the lost attempt added it.
      const lookup = async () =>
        (await client.listTlsConfigs(options)).items.some((c) => c.certificateBase64Pem.trim() === body.certificateBase64Pem) ? { configId: null } : null;
      return createOnce(attempt, lookup, options);
    },

    deleteTlsConfig(certificateBase64Pem, options) {
      return mutate(requestFor(op.deleteTlsConfig, {}, { body: { certificateBase64Pem: certificateBase64Pem.trim() } }, options));
    },

    listLocalContent(options) {
      return content(requestFor(op.listLocalContent, {}, {}, options), op.listLocalContent.content);
    },

    uploadLocalContent(html, options = {}) {
      const hash = createHash('md5').update(html, 'utf8').digest('hex');
      const attempt = () => content(requestFor(op.uploadLocalContent, {}, { body: { File: html } }, options), op.uploadLocalContent.content);
      const lookup = async () => {
        const found = (await client.listLocalContent(options)).find((f) => f.fileContentHash.toLowerCase() === hash);
        return found ? { nickname: found.nickname ?? '', fileContentId: found.fileContentId, fileContentHash: found.fileContentHash } : null;
      };
      return createOnce(attempt, lookup, options);
    },

    listSandboxClients(filters = {}, options = {}) {
      const query: OperationQuery<typeof op.listSandboxClients> = { sandboxId: filters.sandboxId, expiryAfter: filters.expiryAfter };
      return list({ operation: op.listSandboxClients, query, idOf: (c) => `${c.sandboxId} ${c.clientId ?? ''}` }, options);
    },

    updateSandboxClients(clients, options) {
      return mutate(requestFor(op.updateSandboxClients, {}, { body: clients }, options));
    },

    sendSandboxHeartbeat(healthy, options) {
      return mutate(requestFor(op.sendSandboxHeartbeat, {}, { body: { healthy } }, options));
    },

    assignUserTerminalConfig(configId, userTerminalIds, options) {
      return mutate(requestFor(op.assignUserTerminalConfig, {}, { body: { configId, userTerminalIds } }, options));
    },

    listL2VpnCircuits(options) {
      return content(requestFor(op.listL2VpnCircuits, {}, {}, options), op.listL2VpnCircuits.content);
    },

    setL2VpnCircuits(deviceId, circuits, options) {
      return mutate(requestFor(op.setL2VpnCircuits, { deviceId }, { body: circuits }, options));
    },

    async queryTelemetry(userTerminalIds, options = {}) {
      const body = userTerminalIds === undefined ? {} : { userTerminalIds };
      const [accountNumber, telemetry] = await Promise.all([
        getAccount(options).then((a) => a.accountNumber),
        content(requestFor(op.queryTelemetry, {}, { body }, options), op.queryTelemetry.content),
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

    // Of the object it is called on: a copy of the client with some methods replaced (as tests
    // make) keeps them in the background lane too.
    background(this: StarlinkClient | undefined) {
      return this === undefined || this === client ? backgroundClient : inSyncLane(this);
    },
  };

  /** Each method of `target`, run in the sync lane; `usage()` counts that lane only. */
  function inSyncLane(target: StarlinkClient): StarlinkClient {
    const view = Object.fromEntries(
      Object.entries(target).map(([name, member]) => [
        name,
        typeof member === 'function' ? (...args: unknown[]) => laneOfCall.run('sync', () => (member as (...a: unknown[]) => unknown).apply(target, args)) : member,
      ]),
    ) as unknown as StarlinkClient;
    const lane: StarlinkClient = { ...view, usage: () => ({ ...syncCounters }), background: () => lane };
    return lane;
  }
  const backgroundClient = inSyncLane(client);
  return client;
}
