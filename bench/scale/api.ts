// The portal's API as the benchmark uses it from outside the server process: HTTP/1.1 keep-alive
// (bench/load/http.ts), a bearer token from the administrator's sign-in, and the sync routes the
// terminals page uses (start a run, follow a job, read the queue).
import type { SyncJob, SyncQueue } from '../../src/domain/terminals';
import { createJsonClient, type JsonAnswer, type JsonClient } from '../load/http';

export type Query = Record<string, string | number | boolean | undefined>;

/** Query string as the SPA's ofetch client writes it: undefined left out, the rest as text. */
export function withQuery(path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const summary = (answer: JsonAnswer) => JSON.stringify(answer.body)?.slice(0, 300) ?? '';

export interface PortalClient {
  /** `/api/v1` + path, with the administrator's token. */
  get(path: string): Promise<JsonAnswer>;
  /** The answer's `data`, or an ApiError for anything but the expected status. */
  data<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, expect?: number): Promise<T>;
  close(): void;
}

export interface Portal extends PortalClient {
  /** A client of its own with `sockets` keep-alive connections (throughput runs, parallel fill). */
  pool(sockets: number): PortalClient;
}

export const API_PREFIX = '/api/v1';
const REQUEST_TIMEOUT_MS = 300_000;

export async function signIn(origin: { host: string; port: number }, credentials: { email: string; password: string }): Promise<Portal> {
  const client: JsonClient = createJsonClient(origin, { maxSockets: 1, timeoutMs: REQUEST_TIMEOUT_MS });
  const login = await client.request('POST', `${API_PREFIX}/auth/login`, { body: credentials });
  const token = (login.body as { data?: { token?: unknown } } | null)?.data?.token;
  if (login.status !== 200 || typeof token !== 'string') {
    client.destroy();
    throw new ApiError(`administrator sign-in failed: ${login.status} ${summary(login)}`, login.status);
  }
  return {
    ...portalClient(client, token),
    pool: (sockets) => portalClient(createJsonClient(origin, { maxSockets: sockets, timeoutMs: REQUEST_TIMEOUT_MS }), token),
  };
}

function portalClient(client: JsonClient, token: string): PortalClient {
  return {
    get: (path) => client.request('GET', `${API_PREFIX}${path}`, { token }),
    async data<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, expect = 200): Promise<T> {
      const answer = await client.request(method, `${API_PREFIX}${path}`, { token, body });
      if (answer.status !== expect) throw new ApiError(`${method} ${path}: ${answer.status} ${summary(answer)}`, answer.status);
      return (answer.body as { data: T }).data;
    },
    close: () => client.destroy(),
  };
}

// ---- Sync runs -------------------------------------------------------------------------------

export const isFinished = (job: Pick<SyncJob, 'status'>) => job.status === 'succeeded' || job.status === 'failed';

export const startInventorySync = (portal: PortalClient) => portal.data<SyncJob>('POST', '/terminals/sync', {}, 202);
export const syncJob = (portal: PortalClient, id: string) => portal.data<SyncJob>('GET', `/terminals/sync/job/${encodeURIComponent(id)}`);
export const syncQueue = (portal: PortalClient) => portal.data<SyncQueue>('GET', '/terminals/sync/queue');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a run until it has finished; progress is told on stderr now and then. */
export async function waitForRun(portal: PortalClient, id: string, options: { label: string; timeoutMs: number; pollMs?: number }): Promise<SyncJob> {
  const deadline = Date.now() + options.timeoutMs;
  let lastPhase: string | null = null;
  let lastTold = 0;
  for (;;) {
    const job = await syncJob(portal, id);
    if (isFinished(job)) return job;
    if (job.phase !== lastPhase && Date.now() - lastTold > 10_000) {
      console.error(`scale:   ${options.label}: ${job.status}, ${job.phase ?? 'no phase yet'} (${job.progress ?? 0} %, ${job.providerCalls} provider calls)`);
      lastPhase = job.phase;
      lastTold = Date.now();
    }
    if (Date.now() > deadline) throw new Error(`${options.label} (run ${id}) still ${job.status} after ${options.timeoutMs / 60_000} min: ${job.phase ?? ''}`);
    await sleep(options.pollMs ?? 1_000);
  }
}

/** The usage run queued after `since` (an inventory run's success queues one), once it shows up. */
export async function findUsageRun(portal: PortalClient, since: string, timeoutMs = 60_000): Promise<SyncJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const queue = await syncQueue(portal);
    const run = [queue.active, ...queue.recent].find((job) => job?.kind === 'usage' && job.queuedAt >= since);
    if (run) return run;
    if (Date.now() > deadline) throw new Error(`no usage run was queued after the inventory run that finished at ${since}`);
    await sleep(500);
  }
}

/** Every run not finished yet, of either kind (the queue's `active` is the inventory run only). */
export async function activeRuns(portal: PortalClient): Promise<SyncJob[]> {
  const queue = await syncQueue(portal);
  const runs = new Map<string, SyncJob>();
  for (const job of [queue.active, ...queue.recent]) if (job && !isFinished(job)) runs.set(job.id, job);
  return [...runs.values()];
}
