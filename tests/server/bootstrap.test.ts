import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, type SQL } from 'drizzle-orm';
import { buildApp } from '../../server/app';
import { bootstrap } from '../../server/bootstrap';
import { customers, users } from '../../server/db/schema';
import { DEMO_ADMIN_EMAIL, DEMO_CUSTOMER_TOTAL, DEMO_USER_TOTAL } from '../../server/demo-data';
import { createClock, createTestDatabase, testConfig, type TestDatabase } from './helpers';

const open: TestDatabase[] = [];
afterEach(async () => {
  while (open.length) await open.pop()?.drop();
});

async function freshDatabase(options: { persistent?: boolean } = {}) {
  const handle = await createTestDatabase(options);
  open.push(handle);
  return handle;
}

async function countRows(handle: TestDatabase, table: typeof users | typeof customers, where?: SQL) {
  const [row] = await handle.database.db.select({ n: count() }).from(table as typeof users).where(where);
  return row?.n ?? 0;
}

async function signIn(handle: TestDatabase, email: string, password: string) {
  const config = await testConfig();
  const app = await buildApp({ config, database: handle.database, logger: false });
  try {
    return await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { email, password } });
  } finally {
    await app.close();
  }
}

describe('bootstrap', () => {
  it('creates the first administrator from ADMIN_EMAIL and ADMIN_PASSWORD, who can then sign in', async () => {
    const handle = await freshDatabase();
    const config = await testConfig({ ADMIN_EMAIL: 'Ops@Example.com', ADMIN_PASSWORD: 'correct horse battery' });
    const result = await bootstrap({ database: handle.database, config });

    expect(result).toEqual({ admin: { status: 'created', source: 'env', email: 'ops@example.com' }, demo: 'disabled', demoCustomer: null });
    expect(await countRows(handle, users)).toBe(1);
    const res = await signIn(handle, 'ops@example.com', 'correct horse battery');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({ email: 'ops@example.com', role: 'admin' });
  });

  it('does not create a second administrator when one exists', async () => {
    const handle = await freshDatabase();
    const first = await testConfig({ ADMIN_EMAIL: 'first@example.com', ADMIN_PASSWORD: 'first-password' });
    await bootstrap({ database: handle.database, config: first });
    const second = await testConfig({ ADMIN_EMAIL: 'second@example.com', ADMIN_PASSWORD: 'second-password' });
    expect((await bootstrap({ database: handle.database, config: second })).admin).toEqual({ status: 'existing' });
    expect(await countRows(handle, users)).toBe(1);
  });

  it('creates a demo administrator with a generated password when nothing is configured', async () => {
    const handle = await freshDatabase();
    // An embedded database (no DATABASE_URL) gets a demo admin whether or not demo data is on.
    const config = { ...(await testConfig()), databaseUrl: null, seedDemo: false };
    const result = await bootstrap({ database: handle.database, config });

    expect(result.admin).toMatchObject({ status: 'created', source: 'demo', email: DEMO_ADMIN_EMAIL });
    const password = result.admin.status === 'created' && result.admin.source === 'demo' ? result.admin.password : '';
    expect(password).toMatch(/^[A-Za-z2-9]{16}$/);
    expect((await signIn(handle, DEMO_ADMIN_EMAIL, password)).statusCode).toBe(200);
  });

  it('on PostgreSQL without ADMIN_* or SEED_DEMO creates nobody and says an admin is missing', async () => {
    const handle = await freshDatabase();
    const config = { ...(await testConfig()), databaseUrl: 'postgres://elsewhere/db', seedDemo: false };
    expect(await bootstrap({ database: handle.database, config })).toEqual({ admin: { status: 'missing' }, demo: 'disabled', demoCustomer: null });
    expect(await countRows(handle, users)).toBe(0);
  });

  it('seeds 48 portal users and 24 customers once, and not again after a restart', async () => {
    const handle = await freshDatabase({ persistent: true });
    const clock = createClock();
    const config = await testConfig({ SEED_DEMO: '1' });

    const first = await bootstrap({ database: handle.database, config, now: clock.now });
    expect(first.demo).toBe('seeded');
    expect(first.admin).toMatchObject({ status: 'created', source: 'demo' });
    expect(await countRows(handle, users)).toBe(DEMO_USER_TOTAL);
    expect(await countRows(handle, customers)).toBe(DEMO_CUSTOMER_TOTAL);

    await handle.reopen();
    const second = await bootstrap({ database: handle.database, config, now: clock.now });
    expect(second).toEqual({ admin: { status: 'existing' }, demo: 'already-seeded', demoCustomer: null });
    expect(await countRows(handle, users)).toBe(DEMO_USER_TOTAL);
    expect(await countRows(handle, customers)).toBe(DEMO_CUSTOMER_TOTAL);
  });

  describe('the demo world', () => {
    // One seeded database for the checks that only read it (a seed hashes passwords and writes
    // hundreds of rows); the sign-in comes last, as it moves a customer's last login.
    const clock = createClock();
    let seeded: TestDatabase;
    let result: Awaited<ReturnType<typeof bootstrap>>;
    beforeAll(async () => {
      seeded = await createTestDatabase();
      result = await bootstrap({ database: seeded.database, config: await testConfig({ SEED_DEMO: '1' }), now: clock.now });
    });
    afterAll(() => seeded?.drop());

    it('seeds a varied demo world: roles, suspended, blocked with reasons, MFA, expiries', async () => {
      const now = clock.now();
      const db = seeded.database.db;

      const userRows = await db.select().from(users);
      expect(userRows.filter((u) => u.role === 'admin').length).toBeGreaterThan(1);
      expect(userRows.filter((u) => u.role === 'user').length).toBeGreaterThan(30);
      expect(userRows.filter((u) => !u.isActive).length).toBeGreaterThanOrEqual(3);
      expect(userRows.filter((u) => u.blockedEnabled && u.blockedReason).length).toBe(2);
      expect(userRows.filter((u) => u.mfaEnabled).length).toBeGreaterThanOrEqual(5);
      expect(new Set(userRows.map((u) => u.passwordHash)).size).toBe(2); // the admin's, and one shared throwaway

      const customerRows = await db.select().from(customers);
      const expiringSoon = (d: Date | null) => !!d && d > now && d.getTime() - now.getTime() <= 30 * 86_400_000;
      expect(customerRows.filter((c) => c.isActive && !c.blockedEnabled).length).toBeGreaterThan(10);
      expect(customerRows.filter((c) => !c.isActive && !c.blockedEnabled).length).toBeGreaterThanOrEqual(3);
      expect(customerRows.filter((c) => c.blockedEnabled && c.blockedReason).length).toBeGreaterThanOrEqual(2);
      expect(customerRows.filter((c) => c.accountExpiresAt && c.accountExpiresAt <= now).length).toBeGreaterThanOrEqual(2);
      expect(customerRows.filter((c) => expiringSoon(c.accountExpiresAt)).length).toBeGreaterThanOrEqual(2);
      expect(customerRows.filter((c) => c.accountExpiresAt === null).length).toBeGreaterThanOrEqual(2);
      expect(customerRows.filter((c) => c.mfaEnabled).length).toBeGreaterThanOrEqual(2);
      expect(customerRows.filter((c) => c.lastLogin !== null).length).toBeGreaterThanOrEqual(2);
      expect(customerRows.every((c) => c.company.length > 0 && c.email.endsWith('.example'))).toBe(true);
    });

    it('seeds the same names on every fresh database', async () => {
      const other = await freshDatabase();
      await bootstrap({ database: other.database, config: await testConfig({ SEED_DEMO: '1' }), now: clock.now });
      const names = async (h: TestDatabase) =>
        (await h.database.db.select({ email: customers.email, expires: customers.accountExpiresAt }).from(customers).orderBy(customers.email)).map(
          (r) => `${r.email} ${r.expires?.toISOString() ?? '-'}`,
        );
      expect(await names(other)).toEqual(await names(seeded));
    });

    it('gives one demo customer a generated password, shown once, with which they sign in as a customer', async () => {
      expect(result.demoCustomer?.password).toMatch(/^[A-Za-z2-9]{16}$/);
      const config = await testConfig();
      const app = await buildApp({ config, database: seeded.database, logger: false });
      try {
        const login = await app.inject({ method: 'POST', url: '/api/v1/customers/auth/login', payload: result.demoCustomer! });
        expect(login.statusCode, login.body).toBe(200);
        // Every other demo customer still holds the throwaway hash nobody knows.
        const wrong = await app.inject({ method: 'POST', url: '/api/v1/customers/auth/login', payload: { email: result.demoCustomer!.email, password: 'not-it-at-all' } });
        expect(wrong.statusCode).toBe(401);
      } finally {
        await app.close();
      }
      const rows = await seeded.database.db.select().from(customers);
      expect(new Set(rows.map((c) => c.passwordHash)).size).toBe(2);
    });
  });

  it('counts an ADMIN_* administrator among the 48 demo users', async () => {
    const handle = await freshDatabase();
    const config = await testConfig({ SEED_DEMO: '1', ADMIN_EMAIL: 'boss@example.com', ADMIN_PASSWORD: 'boss-password' });
    const result = await bootstrap({ database: handle.database, config });
    expect(result.admin).toEqual({ status: 'created', source: 'env', email: 'boss@example.com' });
    expect(await countRows(handle, users)).toBe(DEMO_USER_TOTAL);
    expect(await countRows(handle, users, eq(users.email, DEMO_ADMIN_EMAIL))).toBe(0);
  });
});
