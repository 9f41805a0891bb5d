// A fresh app over a real database per test file: in-memory PGlite by default, or a new database
// on the PostgreSQL server in TEST_DATABASE_URL (created here, dropped by close()).
import type { BuiltInRoleKey } from '../../src/domain/permissions';
import { randomBytes } from 'node:crypto';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../../server/app';
import type { ProviderAccess } from '../../server/services/console-provider';
import type { ProviderRegistry } from '../../server/provider-access';
import { hash as argon2Hash, type Algorithm } from '@node-rs/argon2';
import type { Clock } from '../../server/clock';
import { loadConfig, type Config, type Env } from '../../server/config';
import { openDatabase, type Database } from '../../server/db/client';
import { migrate } from '../../server/db/migrate';
import type { CustomerRow, NewCustomerRow, NewUserRow, UserRow } from '../../server/db/schema';
import { createRepositories } from '../../server/db/repositories';
import { DEMO_CREDENTIALS } from '../../server/simulator/options';
import { timedDatabaseSetup } from '../profile/record';
import { pgliteImageFile, readImage, withAdminClient, type ImageKind } from './database-image';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || null;
export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-characters-long';
export const DEFAULT_TEST_TIME = '2026-03-02T09:00:00.000Z';

export interface TestClock {
  now: Clock;
  set(at: Date | string): void;
  advance(ms: number): void;
  advanceMinutes(minutes: number): void;
}

export function createClock(start: Date | string = DEFAULT_TEST_TIME): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (at) => {
      current = new Date(at).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
    advanceMinutes: (minutes) => {
      current += minutes * 60_000;
    },
  };
}

export interface TestDatabase {
  database: Database;
  kind: 'pglite' | 'postgres';
  /** Closes and opens the same database again, as a restarted server would. */
  reopen(): Promise<Database>;
  /**
   * A second handle on the same database, as a second server process would have (PostgreSQL);
   * PGlite allows one handle, so there it is the same one with a close() that does nothing.
   */
  connectAgain(): Promise<Database>;
  /** Closes it and removes it (the PostgreSQL database or the PGlite directory). */
  drop(): Promise<void>;
}

/**
 * The embedded test databases' settings: a small buffer pool (the default 128 MB is zeroed at every
 * start, half of a test database's start-up; a test database holds a few hundred rows).
 */
export const TEST_PGLITE_SETTINGS = { shared_buffers: '16MB' } as const;

/**
 * TEST_PGLITE_SETTINGS written into a data directory's own settings, for a server process a test
 * starts on it (the server takes no settings of ours): PGlite zeroes its whole buffer pool at every
 * start, and such a directory is opened several times. What a restart recovers or an upgrade
 * rewrites is the data and the write-ahead log, whatever the pool's size.
 */
export async function useTestSettingsIn(dataDir: string): Promise<void> {
  await appendFile(path.join(dataDir, 'pglite', 'postgresql.conf'), `\nshared_buffers = '${TEST_PGLITE_SETTINGS.shared_buffers}'\n`);
}

const images = new Map<ImageKind, Promise<Blob>>();
/**
 * An image an embedded test database starts from (the migrated database, or the empty cluster):
 * the one the server project's global set-up made (database-image.ts), read once per worker; made
 * here when a run has no such set-up.
 */
export function databaseImage(kind: ImageKind): Promise<Blob> {
  let image = images.get(kind);
  if (!image) {
    image = (async () => {
      const file = inject(kind === 'migrated' ? 'pgliteImage' : 'pgliteEmptyImage') ?? (await pgliteImageFile(kind));
      return readImage(file);
    })();
    images.set(kind, image);
  }
  return image;
}

/**
 * A new database. `persistent` gives PGlite a directory (so reopen() keeps the data); PostgreSQL
 * databases always persist until drop(). Migrated unless `migrate: false`: copied from the run's
 * migrated image (PGlite) or template database (PostgreSQL), which is what running the migrations
 * would leave, without paying for them per database.
 */
export async function createTestDatabase(options: { persistent?: boolean; migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrated = options.migrate !== false;
  let open: () => Promise<Database>;
  let cleanup: () => Promise<void>;
  let first: () => Promise<Database>;
  if (TEST_DATABASE_URL) {
    const template = migrated ? inject('postgresTemplate') : null;
    const scratch = await createScratchPostgres('portal_t', template);
    open = () => openDatabase({ url: scratch.url });
    first = template ? open : async () => migrateNew(await open(), migrated);
    cleanup = scratch.drop;
  } else {
    const dataDir = options.persistent ? await mkdtemp(path.join(tmpdir(), 'portal-test-')) : 'memory://';
    open = () => openDatabase({ dataDir, settings: TEST_PGLITE_SETTINGS });
    // The image only seeds a new directory: reopening a persistent one finds its own data.
    first = async () => openDatabase({ dataDir, settings: TEST_PGLITE_SETTINGS, image: await databaseImage(migrated ? 'migrated' : 'empty') });
    cleanup = options.persistent ? () => rm(dataDir, { recursive: true, force: true }) : async () => undefined;
  }

  let database = await timedDatabaseSetup(first);
  const handle: TestDatabase = {
    get database() {
      return database;
    },
    kind: database.kind,
    async connectAgain() {
      if (database.kind === 'postgres') return open();
      return { ...database, close: async () => undefined };
    },
    async reopen() {
      await database.close();
      database = await open();
      return database;
    },
    async drop() {
      await database.close();
      await cleanup();
    },
  };
  return handle;
}

async function migrateNew(database: Database, migrated: boolean): Promise<Database> {
  if (migrated) await migrate(database);
  return database;
}

/**
 * A new database on the PostgreSQL server of TEST_DATABASE_URL, empty or a copy of `template`, for
 * tests that hand its URL to something else (a server process); `drop` removes it, connections and all.
 */
export async function createScratchPostgres(prefix: string, template: string | null = null): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdminClient(TEST_DATABASE_URL!, (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdminClient(TEST_DATABASE_URL!, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}


/** Config as the server would parse it, with test-friendly defaults (quiet, no demo data). */
export function testConfig(env: Env = {}): Promise<Config> {
  return loadConfig({
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    SEED_DEMO: '0',
    LOGIN_RATE_LIMIT: '10000',
    CLIENT_DIR: path.join(tmpdir(), 'portal-no-client'),
    DATA_DIR: path.join(tmpdir(), 'portal-test-data'),
    // A line's first usage read goes back two cycles, not a year: a test looks at last month at
    // most, and every first sync pays for the cycles it reads. The tests of the history's length
    // set it themselves.
    USAGE_HISTORY_CYCLES: '2',
    ...env,
  });
}

export interface CreatedAccount<Row> {
  id: string;
  email: string;
  password: string;
  row: Row;
}

export type AccountOverrides<Row> = Partial<Row> & { password?: string | null };

export interface LoginResponse {
  statusCode: number;
  body: Record<string, unknown> & { success: boolean; message: string };
  raw: string;
  token: string | null;
}

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  config: Config;
  clock: TestClock;
  /**
   * A portal user. `role: 'admin'` (the default) holds Owner, `role: 'user'` Admin (read-only), as
   * an upgrade maps them; `roles` names the built-in roles to hold instead.
   */
  createAdmin(overrides?: AccountOverrides<NewUserRow> & { roles?: BuiltInRoleKey[] }): Promise<CreatedAccount<UserRow>>;
  createCustomer(overrides?: AccountOverrides<NewCustomerRow>): Promise<CreatedAccount<CustomerRow>>;
  login(kind: 'admin' | 'customer', email: string, password: string, options?: { ip?: string }): Promise<LoginResponse>;
  /** Injects a request, with `token` as the bearer token when given. */
  request(options: InjectOptions & { token?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let accountCounter = 0;

/**
 * The stored hash of an account a test makes: Argon2id with the lightest parameters. A sign-in
 * verifies with whatever parameters the stored hash names, so it runs the same code as with the
 * portal's own hashes (OWASP's minimum, which tests/unit/passwords.test.ts holds it to) at a
 * thirtieth of the cost; a server run makes some 400 accounts and signs in 700 times.
 */
function lightPasswordHash(password: string): Promise<string> {
  // 2 is Argon2id (Algorithm is an ambient const enum, which isolatedModules cannot read).
  return argon2Hash(password, { algorithm: 2 as Algorithm, memoryCost: 1_024, timeCost: 1, parallelism: 1 });
}

/**
 * What no answer may ever carry (no leaks): password hashes, the signing secret, MFA
 * secrets as stored (encrypted `v1:` boxes) or their columns, backup-code hashes. Every response
 * a server test receives through the context is scanned; a hit fails the test that asked.
 */
const LEAK_MARKERS: readonly (string | RegExp)[] = [
  '$argon2',
  TEST_JWT_SECRET,
  // The provider's client secret the simulator-backed tests sign in with.
  DEMO_CREDENTIALS.clientSecret,
  /"(password_?hash|mfa_?secret|mfa_?pending_?secret|code_?hash|key_?hash)"/i,
  /v1:[A-Za-z0-9_-]{8,}:[A-Za-z0-9_-]{8,}:[A-Za-z0-9_-]{8,}/,
];

export function assertNoLeak(what: string, body: string, othersTokens: Iterable<string> = []): void {
  for (const marker of LEAK_MARKERS) {
    const hit = typeof marker === 'string' ? body.includes(marker) : marker.test(body);
    if (hit) throw new Error(`The answer to ${what} carries something secret (${String(marker)}): ${body.slice(0, 300)}`);
  }
  for (const token of othersTokens) {
    if (body.includes(token)) throw new Error(`The answer to ${what} carries another account's session token: ${body.slice(0, 300)}`);
  }
}

/**
 * Every session token a context has seen issued (sign-ins, password changes): an answer may carry
 * the caller's own fresh token, never anyone else's.
 */
class IssuedTokens {
  /** token → the account (uuid) it was issued to. With a frozen test clock, signing in twice gives the same token. */
  private readonly owners = new Map<string, string>();
  /** Remembers the token an answer issues and whose it is (the answer's account uuid). */
  record(body: string): void {
    const token = /"token"\s*:\s*"([^"]{20,})"/.exec(body)?.[1];
    const owner = /"uuid"\s*:\s*"([^"]+)"/.exec(body)?.[1];
    if (token && owner) this.owners.set(token, owner);
  }
  /** The tokens issued to anyone but the owner of `own` (or of the account the answer is about). */
  othersThan(own: string | null | undefined, body?: string): string[] {
    const me = (own ? this.owners.get(own) : undefined) ?? (body ? /"uuid"\s*:\s*"([^"]+)"/.exec(body)?.[1] : undefined);
    return [...this.owners].filter(([token, owner]) => token !== own && owner !== me).map(([token]) => token);
  }
}

export async function createTestContext(
  options: { now?: Date | string; env?: Env; provider?: ProviderAccess | ProviderRegistry | null } = {},
): Promise<TestContext> {
  const clock = createClock(options.now);
  const testDb = await createTestDatabase();
  const database = testDb.database;
  const config = await testConfig(options.env);
  const app = await buildApp({ config, database, now: clock.now, logger: false, provider: options.provider ?? null });
  await app.ready();
  const repos = createRepositories(database.db);
  const issued = new IssuedTokens();

  const credentials = async (password: string | null | undefined) => {
    const plain = password === undefined ? `Pw-${randomBytes(6).toString('hex')}` : password;
    return { plain: plain ?? '', hash: plain === null ? null : await lightPasswordHash(plain) };
  };

  const context: TestContext = {
    app,
    database,
    config,
    clock,
    async createAdmin(overrides = {}) {
      const { password, roles: roleKeys, ...row } = overrides;
      const pw = await credentials(password);
      const at = clock.now();
      const created = await repos.users.insert({
        email: `admin${++accountCounter}.${randomBytes(3).toString('hex')}@test.local`,
        name: `Test Admin ${accountCounter}`,
        role: 'admin',
        passwordHash: pw.hash,
        createdAt: at,
        updatedAt: at,
        ...(roleKeys ? { role: roleKeys.includes('owner') ? ('admin' as const) : ('user' as const) } : {}),
        ...row,
      });
      if (roleKeys) {
        const held = await Promise.all(roleKeys.map((key) => repos.roles.findByKey(key)));
        await repos.roles.setUserRoles(created.id, held.map((r) => r!.id));
      }
      return { id: created.id, email: created.email, password: pw.plain, row: created };
    },
    async createCustomer(overrides = {}) {
      const { password, ...row } = overrides;
      const pw = await credentials(password);
      const at = clock.now();
      const created = await repos.customers.insert({
        email: `customer${++accountCounter}.${randomBytes(3).toString('hex')}@test.local`,
        name: `Test Customer ${accountCounter}`,
        company: 'Test Company Ltd',
        passwordHash: pw.hash,
        createdAt: at,
        updatedAt: at,
        ...row,
      });
      return { id: created.id, email: created.email, password: pw.plain, row: created };
    },
    async login(kind, email, password, loginOptions = {}) {
      const response = await app.inject({
        method: 'POST',
        url: kind === 'admin' ? '/api/v1/auth/login' : '/api/v1/customers/auth/login',
        payload: { email, password },
        ...(loginOptions.ip ? { remoteAddress: loginOptions.ip } : {}),
      });
      assertNoLeak('login', response.body, issued.othersThan(null, response.body));
      issued.record(response.body);
      const body = response.json() as LoginResponse['body'];
      const data = body.data as { token?: string } | undefined;
      return { statusCode: response.statusCode, body, raw: response.body, token: data?.token ?? null };
    },
    async request({ token, headers, ...rest }) {
      const response = await app.inject({ ...rest, headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
      assertNoLeak(`${rest.method ?? 'GET'} ${rest.url}`, response.body, issued.othersThan(token, response.body));
      issued.record(response.body);
      return response;
    },
    async close() {
      await app.close();
      await testDb.drop();
    },
  };
  return context;
}

/** The message `attempt` throws ('' when it does not), for tests that check several lines of one error. */
export function thrownMessage(attempt: () => unknown): string {
  try {
    attempt();
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/** Waits until `check` holds, looking every `everyMs`; fails naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, options: { timeoutMs?: number; everyMs?: number } = {}): Promise<void> {
  const { timeoutMs = 30_000, everyMs = 10 } = options;
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
