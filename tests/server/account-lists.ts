// What the account-list tests share: a portal signed in as an administrator, with a second
// provider account beside the first (disabled, so that nothing syncs it), and reads of the API
// that either expect an answer or return the refusal.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rowsOf } from '../../server/db/repositories/results';
import { createTestContext, type TestContext } from './helpers';

export const SECOND = { id: 2, name: 'Brazil (BRL)', requestsPerMinute: 120 };
export const LINE_ONE = 'AST-910001-00001-01';
export const LINE_TWO = 'AST-920002-00002-02';
export const BAD_ACCOUNT = 'account_id must be a provider account id';

export interface TwoAccounts {
  ctx: TestContext;
  token: string;
  /** Account one's name as the portal's first start made it. */
  firstName: string;
  get<T>(url: string): Promise<T>;
  refusal(url: string): Promise<{ status: number; message: string }>;
}

export async function portalWithTwoAccounts(): Promise<TwoAccounts> {
  const ctx = await createTestContext();
  const admin = await ctx.createAdmin();
  const token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  const db = ctx.database.db;
  await db.execute(
    sql`INSERT INTO provider_accounts (id, name, kind, enabled, requests_per_minute) VALUES (${SECOND.id}, ${SECOND.name}, 'starlink', false, ${SECOND.requestsPerMinute})`,
  );
  const firstName = rowsOf<{ name: string }>(await db.execute(sql`SELECT name FROM provider_accounts WHERE id = 1`))[0]!.name;
  const ask = (url: string) => ctx.request({ method: 'GET', url: `/api/v1${url}`, token });
  return {
    ctx,
    token,
    firstName,
    async get<T>(url: string) {
      const response = await ask(url);
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { data: T }).data;
    },
    async refusal(url: string) {
      const response = await ask(url);
      return { status: response.statusCode, message: (response.json() as { message: string }).message };
    },
  };
}
