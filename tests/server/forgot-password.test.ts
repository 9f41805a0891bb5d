// Forgot password: one answer for every address, a single-use reset link mailed only
// to a live account (customer or portal user), paced per account and rate-limited per address,
// used on the set-password page like a set-up link.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { FORGOT_PASSWORD_MESSAGES, RESET_EMAIL_INTERVAL_MINUTES, RESET_LINK_VALID_MINUTES, RESET_REQUESTS_PER_WINDOW } from '../../src/domain/password-reset';
import { createTestContext, type TestContext } from './helpers';

const LINK = /(https?:\/\/[^\s]+\/set-password\?token=([A-Za-z0-9_-]{43}))/;

let ctx: TestContext;
let adminToken: string;
let ipCounter = 0;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

async function freshAdminToken(): Promise<string> {
  const admin = await ctx.createAdmin();
  return (await ctx.login('admin', admin.email, admin.password)).token as string;
}

/** Each test asks from its own address, so the per-address budget is the test's own. */
const newIp = () => `203.0.113.${++ipCounter}`;

const forgot = (email: unknown, ip: string) =>
  ctx.request({ method: 'POST', url: '/api/v1/auth/forgot-password', payload: { email }, remoteAddress: ip });

async function outbox(to: string): Promise<Array<{ subject: string; text: string }>> {
  adminToken = await freshAdminToken();
  const res = await ctx.request({ method: 'GET', url: `/api/v1/email-outbox?to=${encodeURIComponent(to)}`, token: adminToken });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.messages;
}

const tokenIn = (text: string) => {
  const match = LINK.exec(text);
  if (!match) throw new Error(`no link in ${text}`);
  return match[2]!;
};

const describeLink = (token: string) => ctx.request({ method: 'GET', url: `/api/v1/password-setup/${token}` });
const useLink = (token: string, password = 'Brand-New-Passw0rd') =>
  ctx.request({ method: 'POST', url: '/api/v1/password-setup', payload: { token, password, confirmPassword: password } });

async function countRows(table: 'password_setup_tokens' | 'email_outbox'): Promise<number> {
  const result = (await ctx.database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table}`))) as unknown as { rows: Array<{ n: number }> };
  return result.rows[0]!.n;
}

describe('asking for a reset link', () => {
  it('answers 202 with the same body for a customer, a portal user, an unknown, a blocked, an expired and a deleted address', async () => {
    const ip = newIp();
    const live = await ctx.createCustomer();
    const user = await ctx.createAdmin({ role: 'user' });
    const blocked = await ctx.createCustomer({ blockedEnabled: true, blockedReason: 'Unpaid' });
    const expired = await ctx.createCustomer({ accountExpiresAt: new Date(ctx.clock.now().getTime() - 1000) });
    const deleted = await ctx.createCustomer({ deletedAt: ctx.clock.now() });
    const answers = [];
    for (const email of [live.email, user.email, 'nobody@example.com', blocked.email, expired.email]) answers.push(await forgot(email, ip));
    answers.push(await forgot(deleted.email, newIp()));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toEqual({ success: true, data: {}, message: FORGOT_PASSWORD_MESSAGES.sent });
    }
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);

    expect(await outbox(live.email)).toHaveLength(1);
    expect(await outbox(user.email)).toHaveLength(1);
    for (const email of ['nobody@example.com', blocked.email, expired.email, deleted.email]) expect(await outbox(email)).toHaveLength(0);
  });

  it("builds the link on the server's own address, never on the asker's Host header (reset poisoning)", async () => {
    const customer = await ctx.createCustomer();
    const answer = await ctx.request({
      method: 'POST',
      url: '/api/v1/auth/forgot-password',
      payload: { email: customer.email },
      remoteAddress: newIp(),
      headers: { host: 'attacker.example', 'x-forwarded-host': 'attacker.example' },
    });
    expect(answer.statusCode).toBe(202);
    const [mail] = await outbox(customer.email);
    const link = LINK.exec(mail!.text)![1]!;
    expect(link).not.toContain('attacker.example');
    expect(new URL(link).origin).toBe(ctx.config.publicUrl ?? `http://${ctx.config.host === '0.0.0.0' ? 'localhost' : ctx.config.host}:${ctx.config.port}`);
  });

  it('matches the address without regard to case or surrounding spaces', async () => {
    const customer = await ctx.createCustomer();
    expect((await forgot(`  ${customer.email.toUpperCase()} `, newIp())).statusCode).toBe(202);
    expect(await outbox(customer.email)).toHaveLength(1);
  });

  it('refuses a missing or malformed address with a 400 and writes nothing', async () => {
    const ip = newIp();
    const before = [await countRows('password_setup_tokens'), await countRows('email_outbox')];
    for (const [email, message] of [
      ['', FORGOT_PASSWORD_MESSAGES.emailRequired],
      ['not-an-address', FORGOT_PASSWORD_MESSAGES.emailInvalid],
      [`${'a'.repeat(320)}@example.com`, FORGOT_PASSWORD_MESSAGES.emailTooLong],
      [42, FORGOT_PASSWORD_MESSAGES.emailRequired],
    ] as const) {
      const answer = await forgot(email, ip);
      expect(answer.statusCode, String(email)).toBe(400);
      expect(answer.json().message).toContain(message);
    }
    expect(await countRows('password_setup_tokens')).toBe(before[0]);
    expect(await countRows('email_outbox')).toBe(before[1]);
    // Malformed requests did not spend the address's budget.
    expect((await forgot('nobody@example.com', ip)).statusCode).toBe(202);
  });
});

describe('the reset link', () => {
  it('says it is a reset, sets the new password once, ends the old sessions and is audited', async () => {
    const customer = await ctx.createCustomer();
    const oldToken = (await ctx.login('customer', customer.email, customer.password)).token;
    await forgot(customer.email, newIp());
    const [mail] = await outbox(customer.email);
    expect(mail!.subject).toBe('Reset your Admin Portal password');
    expect(mail!.text).toContain(`expires in ${RESET_LINK_VALID_MINUTES} minutes`);
    const token = tokenIn(mail!.text);

    const info = await describeLink(token);
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({ email: customer.email, purpose: 'reset' });

    ctx.clock.advance(1000);
    const used = await useLink(token);
    expect(used.statusCode, used.body).toBe(200);
    expect((await ctx.login('customer', customer.email, 'Brand-New-Passw0rd')).statusCode).toBe(200);
    expect((await ctx.login('customer', customer.email, customer.password)).statusCode).toBe(401);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token: oldToken })).statusCode).toBe(401);

    const again = await useLink(token, 'Another-Passw0rd-2');
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(CUSTOMER_MESSAGES.setupTokenUsed);
    const audit = await ctx.app.repos.audit.listByAction('customer.password_reset');
    expect(audit.find((row) => row.targetId === customer.id)).toBeDefined();
  });

  it('resets a portal user\'s password too', async () => {
    const user = await ctx.createAdmin({ role: 'user' });
    await forgot(user.email, newIp());
    const [mail] = await outbox(user.email);
    expect((await useLink(tokenIn(mail!.text))).statusCode).toBe(200);
    expect((await ctx.login('admin', user.email, 'Brand-New-Passw0rd')).statusCode).toBe(200);
  });

  it(`expires after ${RESET_LINK_VALID_MINUTES} minutes`, async () => {
    const customer = await ctx.createCustomer();
    await forgot(customer.email, newIp());
    const token = tokenIn((await outbox(customer.email))[0]!.text);
    ctx.clock.advanceMinutes(RESET_LINK_VALID_MINUTES);
    const late = await useLink(token);
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toBe(CUSTOMER_MESSAGES.setupTokenExpired);
    expect((await ctx.login('customer', customer.email, customer.password)).statusCode).toBe(200);
  });

  it('revokes the earlier unused reset link when a new one is issued', async () => {
    const customer = await ctx.createCustomer();
    const ip = newIp();
    await forgot(customer.email, ip);
    ctx.clock.advanceMinutes(RESET_EMAIL_INTERVAL_MINUTES);
    await forgot(customer.email, ip);
    const [newer, older] = await outbox(customer.email);
    expect((await describeLink(tokenIn(older!.text))).statusCode).toBe(404);
    expect((await useLink(tokenIn(older!.text))).statusCode).toBe(404);
    expect((await useLink(tokenIn(newer!.text))).statusCode).toBe(200);
  });

  it('stops working when the account is blocked after it was sent', async () => {
    const customer = await ctx.createCustomer();
    await forgot(customer.email, newIp());
    const token = tokenIn((await outbox(customer.email))[0]!.text);
    await ctx.database.db.execute(sql`UPDATE customers SET is_active = false WHERE id = ${customer.id}`);
    expect((await useLink(token)).statusCode).toBe(404);
    await ctx.database.db.execute(sql`UPDATE customers SET is_active = true, blocked_enabled = true WHERE id = ${customer.id}`);
    expect((await useLink(token)).statusCode).toBe(404);
  });

  it('leaves a set-up link worded as a set-up', async () => {
    const token = await freshAdminToken();
    const created = await ctx.request({ method: 'POST', url: '/api/v1/customers', token, payload: { email: 'setup.only@example.net', name: 'Set Up', company: 'Co', expirationDays: 30 } });
    expect(created.statusCode, created.body).toBe(201);
    const [mail] = await outbox('setup.only@example.net');
    expect((await describeLink(tokenIn(mail!.text))).json().data.purpose).toBe('setup');
  });
});

describe('limits', () => {
  it(`sends at most one email per account every ${RESET_EMAIL_INTERVAL_MINUTES} minutes, answering the same`, async () => {
    const customer = await ctx.createCustomer();
    const first = await forgot(customer.email, newIp());
    ctx.clock.advanceMinutes(RESET_EMAIL_INTERVAL_MINUTES - 1);
    const second = await forgot(customer.email, newIp());
    expect(second.body).toBe(first.body);
    expect(await outbox(customer.email)).toHaveLength(1);
    ctx.clock.advanceMinutes(1);
    await forgot(customer.email, newIp());
    expect(await outbox(customer.email)).toHaveLength(2);
  });

  it(`answers 429 after ${RESET_REQUESTS_PER_WINDOW} requests from one address, apart from the sign-in budget`, async () => {
    const ip = newIp();
    for (let i = 0; i < RESET_REQUESTS_PER_WINDOW; i++) expect((await forgot(`someone${i}@example.com`, ip)).statusCode).toBe(202);
    const limited = await forgot('someone@example.com', ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false });
    expect(limited.json().message).toMatch(/^Too many password reset requests from this address\. Try again in /);
    expect((await forgot('someone@example.com', newIp())).statusCode).toBe(202);
    // Signing in from the limited address still works.
    const customer = await ctx.createCustomer();
    expect((await ctx.login('customer', customer.email, customer.password, { ip })).statusCode).toBe(200);
  });
});
