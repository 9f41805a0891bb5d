// The browser tier's harness: the real `npm start` entry (SPA build + server + embedded database)
// on a free port with a throwaway data dir, and Debian's Chromium driven by playwright-core.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { SESSION_STORAGE_KEY, parsePersistedSession } from '../../src/domain/session';
import { seedDataDir } from '../server/database-image';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// These flags keep Chromium off the network it cannot reach here (see STACK-FACTS).
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface Portal {
  url: string;
  admin: { email: string; password: string };
  output: () => string;
  stop: () => Promise<void>;
}

export interface PortalStart {
  /**
   * Starts on an empty data directory, through initdb and every migration, as a first install
   * does; otherwise the data directory begins as a copy of the run's migrated database (the
   * set-up's image), and the portal seeds it as on a fresh install.
   */
  emptyDataDir?: boolean;
}

export async function startPortal(env: Record<string, string> = {}, { emptyDataDir = false }: PortalStart = {}): Promise<Portal> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  if (!emptyDataDir) await seedDataDir(inject('portalDatabaseImage'), dataDir);
  const admin = { email: 'e2e.admin@example.com', password: 'E2e-Admin-Passw0rd' };
  let output = '';
  // A journey's portal lives a minute or two: compiling the embedded database's WebAssembly only
  // with V8's baseline compiler (no optimising tier-up on background threads) costs a quarter less
  // CPU over its start and first sync (14.2 → 10.8 s measured), and CI's two cores are the limit.
  const child: ChildProcess = spawn(process.execPath, ['--liftoff-only', '--import', 'tsx', 'scripts/start.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      // One simulated account unless a journey asks for more: a second one's syncs would cost
      // every journey CPU that only the provider accounts' journey needs.
      SIM_ACCOUNTS: 'us',
      // The first usage run reads the running cycle and the two before it, not a year: the
      // journeys look at last month at most, and every portal's first sync is on CI's two cores.
      USAGE_HISTORY_CYCLES: '2',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 110_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The portal exited early (${child.exitCode}):\n${output}`);
    try {
      // Ready once it answers and has said so: the line follows the job queue's start, which on a
      // new database installs its schema after the server already listens.
      const response = await fetch(`${url}/api/v1/health`);
      if (response.ok && /Portal ready at/.test(output)) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The portal did not answer within the deadline:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }

  return {
    url,
    admin,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

let workerChromium: Promise<Browser> | undefined;

/**
 * The worker's Chromium: launched by the first journey file the worker runs and shared by the files
 * after it (the e2e config runs a worker's files in one process), each file in contexts of its own.
 * A launch and the first page's renderer cost as much CPU as a short journey; a context costs
 * little. It ends with the worker.
 */
export function sharedChromium(): Promise<Browser> {
  workerChromium ??= launchChromium().then((browser) => {
    browser.once('disconnected', () => (workerChromium = undefined));
    return browser;
  });
  return workerChromium;
}

/**
 * The shared Chromium for one test file: the contexts the file opens (and leaves open) are closed
 * after it, so the next file in the worker starts from a browser with none of them.
 */
export function useChromium(): { browser: Browser } {
  const handle = {} as { browser: Browser };
  let before = new Set<BrowserContext>();
  beforeAll(async () => {
    handle.browser = await sharedChromium();
    before = new Set(handle.browser.contexts());
  });
  afterAll(async () => {
    await Promise.all(handle.browser?.contexts().filter((context) => !before.has(context)).map((context) => context.close().catch(() => {})) ?? []);
  });
  return handle;
}

/** A test file's portal, the worker's browser and one context in it, live from `beforeAll` to `afterAll`. */
export interface BrowserSession {
  portal: Portal;
  browser: Browser;
  context: BrowserContext;
  /** The portal's API as the page's signed-in admin (see `portalApi`). */
  api<T>(page: Page, path: string, init?: { method?: string; body?: unknown }): Promise<T>;
  /**
   * Closes `context` and opens a new one in its place: a journey that shares the file's portal with
   * the journeys before it still begins signed out, in a browser of its own.
   */
  freshContext(): Promise<void>;
}

/**
 * Starts the portal with `env` and a context of the shared Chromium before the file's tests, and
 * stops the portal and closes the file's contexts after: every journey file's frame, so each says
 * only what its portal needs.
 */
export function useBrowserSession(env: Record<string, string> = {}, viewport = { width: 1440, height: 900 }, start: PortalStart = {}): BrowserSession {
  const chromiumOfFile = useChromium();
  const session = {
    api: <T>(page: Page, path: string, init: { method?: string; body?: unknown } = {}) => portalApi<T>(page, session.portal, path, init),
    async freshContext() {
      await session.context?.close().catch(() => {});
      session.context = await session.browser.newContext({ viewport });
    },
  } as BrowserSession;
  beforeAll(async () => {
    session.portal = await startPortal(env, start);
    session.browser = chromiumOfFile.browser;
    session.context = await session.browser.newContext({ viewport });
  });
  afterAll(async () => {
    await session.portal?.stop();
  });
  return session;
}

/**
 * Waits until nothing on the page is still animating (PrimeReact's dialog, overlay and row
 * transitions are CSS transitions and animations): what a person waits for before reading the
 * screen, instead of a fixed pause.
 */
export async function animationsSettled(page: Page, timeoutMs = 5_000): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity), undefined, {
    timeout: timeoutMs,
  });
}

/** The demo customer's login, as the portal's first start printed it under its own heading. */
export function demoCustomer(portal: Portal): { email: string; password: string } {
  const output = portal.output();
  const block = output.slice(output.indexOf('Demo customer who can sign in'));
  const email = /Email:\s+(\S+)/.exec(block)?.[1];
  const password = /Password:\s+(\S+)/.exec(block)?.[1];
  if (!email || !password) throw new Error(`No demo customer in the start-up output:\n${output}`);
  return { email, password };
}

/** Fills the login form on the current page and submits it. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Opens a signed-in page while signed out: the portal sends the visitor to /login and back. */
export async function signInAsAdminAt(page: Page, portal: Portal, path: string): Promise<void> {
  await page.goto(`${portal.url}${path}`);
  await page.waitForURL('**/login?redirect=**');
  await submitLogin(page, portal.admin.email, portal.admin.password);
  await page.waitForURL(`**${path}`);
}

/** The portal's API as the signed-in page's session: its token from local storage. Non-2xx answers throw. */
export async function portalApi<T>(page: Page, portal: Portal, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const raw = await page.evaluate((key) => window.localStorage.getItem(key), SESSION_STORAGE_KEY);
  const token = parsePersistedSession(raw)?.token;
  const response = await fetch(`${portal.url}/api/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  const body = (await response.json()) as { data: T; message: string };
  if (!response.ok) throw new Error(`${path}: ${response.status} ${body.message}`);
  return body.data;
}

/**
 * Waits for a usage run to have succeeded (it follows every inventory run), and for `also` when
 * given; polls every half second, fails after `timeoutMs`.
 */
export async function waitForUsageRun(page: Page, portal: Portal, also: () => Promise<boolean> = async () => true, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const queue = await portalApi<{ recent: { kind: string; status: string }[] }>(page, portal, '/terminals/sync/queue');
    if (queue.recent.some((run) => run.kind === 'usage' && run.status === 'succeeded') && (await also())) return;
    if (Date.now() > deadline) throw new Error(`No usage run finished: ${JSON.stringify(queue)}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * The token of the newest emailed link to `to` whose path is `/{path}?token=…` (mail goes out from
 * a background job, so this polls the outbox for up to 30 s), read as the signed-in admin `page`.
 */
export async function linkTokenFromOutbox(page: Page, portal: Portal, to: string, path: string): Promise<string> {
  const pattern = new RegExp(`/${path}\\?token=([A-Za-z0-9._~%-]+)`);
  const deadline = Date.now() + 30_000;
  let last: unknown = null;
  while (Date.now() < deadline) {
    last = await portalApi<{ messages?: OutboxMessage[] } | OutboxMessage[]>(page, portal, `/email-outbox?to=${encodeURIComponent(to)}&limit=5`);
    const messages = (Array.isArray(last) ? last : (last as { messages?: OutboxMessage[] }).messages ?? []).filter((m) => m.to === to);
    for (const message of messages) {
      const match = pattern.exec(message.text);
      if (match) return decodeURIComponent(match[1]!);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No /${path} link for ${to} in the outbox: ${JSON.stringify(last)}`);
}

/**
 * A new customer's first sign-in, as they would do it on `page` (their own browser): the emailed
 * set-up link (read from the outbox as the admin `adminPage`), a password, the login page, and
 * their area at /my.
 */
export async function customerSignsInFromLink(page: Page, adminPage: Page, portal: Portal, email: string, password: string): Promise<void> {
  const setupToken = await linkTokenFromOutbox(adminPage, portal, email, 'set-password');
  await page.goto(`${portal.url}/set-password?token=${encodeURIComponent(setupToken)}`);
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Set Password' }).click();
  await page.getByRole('link', { name: 'Go to the login page' }).click();
  await page.waitForURL('**/login');
  await submitLogin(page, email, password);
  await page.waitForURL(/\/my$/);
}

/**
 * Polls `probe` until it answers something truthy, and answers that; a probe that throws (the
 * server not ready yet) is asked again. Fails after `timeoutMs`, naming what it waited for and
 * the last error.
 */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 120_000, everyMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
