// A change and the email it sends are one: the outbox row is written in the change's transaction
// (found by the crash-safety test, where a kill between the commit and the outbox write left
// customers whose setup link was never recorded). If the outbox cannot be written, nothing is.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token!;
});
afterAll(async () => {
  await ctx?.close();
});

async function count(table: 'customers' | 'users' | 'email_outbox' | 'password_setup_tokens' | 'audit_log'): Promise<number> {
  const result = (await ctx.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

async function snapshot() {
  return {
    customers: await count('customers'),
    users: await count('users'),
    outbox: await count('email_outbox'),
    tokens: await count('password_setup_tokens'),
    audit: await count('audit_log'),
  };
}

describe('the outbox and the change it belongs to', () => {
  it('records the setup email in the same commit as the customer, its link and its audit row', async () => {
    const before = await snapshot();
    const res = await ctx.request({ method: 'POST', url: '/api/v1/customers', token, payload: { email: 'atomic.one@example.com', name: 'Atomic One', company: 'Atomic Ltd' } });
    expect(res.statusCode).toBe(201);
    expect(await snapshot()).toEqual({ ...before, customers: before.customers + 1, outbox: before.outbox + 1, tokens: before.tokens + 1, audit: before.audit + 1 });
  });

  it('creates no customer, user or link when the outbox cannot be written, and says so without details', async () => {
    await ctx.database.exec(`
      CREATE FUNCTION refuse_outbox() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'outbox refused'; END $$;
      CREATE TRIGGER refuse_outbox BEFORE INSERT ON email_outbox FOR EACH ROW EXECUTE FUNCTION refuse_outbox();
    `);
    try {
      const before = await snapshot();
      const customer = await ctx.request({ method: 'POST', url: '/api/v1/customers', token, payload: { email: 'atomic.two@example.com', name: 'Atomic Two', company: 'Atomic Ltd' } });
      expect(customer.statusCode).toBe(500);
      expect(customer.json()).toMatchObject({ success: false, message: 'Internal server error' });
      const user = await ctx.request({ method: 'POST', url: '/api/v1/users', token, payload: { email: 'atomic.user@example.com', name: 'Atomic User', role: 'user' } });
      expect(user.statusCode).toBe(500);
      expect(await snapshot()).toEqual(before);
    } finally {
      await ctx.database.exec('DROP TRIGGER refuse_outbox ON email_outbox; DROP FUNCTION refuse_outbox();');
    }
    const after = await ctx.request({ method: 'POST', url: '/api/v1/customers', token, payload: { email: 'atomic.two@example.com', name: 'Atomic Two', company: 'Atomic Ltd' } });
    expect(after.statusCode).toBe(201);
  });
});
