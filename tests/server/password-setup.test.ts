// The password-setup link, end to end: creating a customer mails a single-use link (recorded in
// the outbox), the public endpoints read and use it, the customer becomes Active and can sign in,
// and used, expired, revoked, blocked and deleted links are refused.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGES, type CustomerListItem } from '../../src/domain/customers';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { createTestContext, type TestContext } from './helpers';

const DAY = 86_400_000;
const LINK = /(https?:\/\/[^\s]+\/set-password\?token=([A-Za-z0-9_-]{43}))/;

let ctx: TestContext;
let token: string;
let admin: { email: string; password: string };
let counter = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.createAdmin({ name: 'Olga Admin' });
});
// Some tests move the clock by days; a fresh token keeps the admin signed in.
beforeEach(async () => {
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
});
afterAll(async () => {
  await ctx?.close();
});

interface OutboxMessage {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
  sentAt: string | null;
  error: string | null;
}

async function outbox(to: string, query = ''): Promise<OutboxMessage[]> {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/email-outbox?to=${encodeURIComponent(to)}${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.messages;
}

function linkIn(text: string): { url: string; token: string } {
  const match = LINK.exec(text);
  if (!match) throw new Error(`no setup link in: ${text}`);
  return { url: match[1]!, token: match[2]! };
}

async function newCustomer(overrides: Record<string, unknown> = {}): Promise<{ customer: CustomerListItem; setupToken: string }> {
  const email = `setup${++counter}@example.net`;
  const res = await ctx.request({
    method: 'POST',
    url: '/api/v1/customers',
    payload: { email, name: `Setup Person ${counter}`, company: 'Setup Co', expirationDays: 365, ...overrides },
    token,
  });
  expect(res.statusCode, res.body).toBe(201);
  const [message] = await outbox(email);
  return { customer: res.json().data.customer, setupToken: linkIn(message!.text).token };
}

const check = (setupToken: string) => ctx.request({ method: 'GET', url: `/api/v1/password-setup/${encodeURIComponent(setupToken)}` });
const complete = (setupToken: string, password = 'Correct-Horse-9', confirmPassword = password) =>
  ctx.request({ method: 'POST', url: '/api/v1/password-setup', payload: { token: setupToken, password, confirmPassword } });

describe('the setup email', () => {
  it('is recorded in the outbox with a link to /set-password on the request origin', async () => {
    const { customer, setupToken } = await newCustomer({ name: 'Mia Wong', company: 'Wong Shipping' });
    const messages = await outbox(customer.email);
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message).toMatchObject({
      to: customer.email,
      subject: 'Set up your Admin Portal password',
      createdAt: ctx.clock.now().toISOString(),
      // No SMTP_URL in tests: recorded and logged, not sent.
      sentAt: null,
      error: null,
    });
    expect(message!.text).toContain('Hello Mia Wong,');
    expect(message!.text).toContain('(Wong Shipping)');
    expect(linkIn(message!.text).url).toBe(`http://localhost:80/set-password?token=${setupToken}`);
  });

  it('stores only the SHA-256 of the token, valid for 7 days', async () => {
    const { customer, setupToken } = await newCustomer();
    const rows = await ctx.app.repos.passwordSetupTokens.listForCustomer(customer.uuid);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      tokenHash: createHash('sha256').update(setupToken).digest('hex'),
      usedAt: null,
      revokedAt: null,
      expiresAt: new Date(ctx.clock.now().getTime() + 7 * DAY),
    });
    expect(JSON.stringify(rows)).not.toContain(setupToken);
    expect(Buffer.from(setupToken, 'base64url')).toHaveLength(32);
  });

  it('never puts the token in the audit log', async () => {
    const { customer, setupToken } = await newCustomer();
    const rows = await ctx.app.repos.audit.listByAction('customer.created');
    const row = rows.find((r) => r.targetId === customer.uuid);
    expect(row).toBeDefined();
    expect(JSON.stringify(row)).not.toContain(setupToken);
  });

  it('lists the newest messages first, filters by recipient ignoring case, and honours limit', async () => {
    const { customer } = await newCustomer();
    await ctx.request({ method: 'POST', url: `/api/v1/customers/${customer.uuid}/password-link`, token });
    const both = await outbox(customer.email.toUpperCase());
    expect(both.map((m) => m.subject)).toEqual(['Your new Admin Portal password link', 'Set up your Admin Portal password']);
    expect(await outbox(customer.email, '&limit=1')).toHaveLength(1);
    const all = await ctx.request({ method: 'GET', url: '/api/v1/email-outbox?limit=100', token });
    expect(all.json().data.messages.length).toBeGreaterThan(2);
    const bad = await ctx.request({ method: 'GET', url: '/api/v1/email-outbox?limit=0', token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Validation failed: limit must be a whole number from 1 to 100');
  });
});

describe('using the link', () => {
  it('tells the page whose account the link is for', async () => {
    const { customer, setupToken } = await newCustomer({ name: 'Ravi Patel', company: 'Patel Farms' });
    const res = await check(setupToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: { email: customer.email, name: 'Ravi Patel', company: 'Patel Farms', expiresAt: new Date(ctx.clock.now().getTime() + 7 * DAY).toISOString() },
    });
  });

  it('sets the password, makes the customer Active, and the customer can then sign in', async () => {
    const { customer, setupToken } = await newCustomer();
    ctx.clock.advanceMinutes(5);
    const res = await complete(setupToken, 'A-good-password-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { email: customer.email }, message: 'Password set successfully. You can now sign in.' });

    const detail = await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer.uuid}`, token });
    expect(detail.json().data.customer).toMatchObject({ isActive: true, hasPassword: true, updatedAt: ctx.clock.now().toISOString() });
    const row = await ctx.app.repos.customers.findLiveById(customer.uuid);
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);

    const login = await ctx.login('customer', customer.email, 'A-good-password-1');
    expect(login.statusCode).toBe(200);
    expect(login.token).toEqual(expect.any(String));
  });

  it('refuses the customer sign-in before the password is set', async () => {
    const { customer } = await newCustomer();
    const login = await ctx.login('customer', customer.email, '');
    expect(login.statusCode).toBe(400);
    const guess = await ctx.login('customer', customer.email, 'anything-at-all');
    expect(guess.statusCode).toBe(401);
  });

  it('audits customer.password_set by the customer, without the password or its hash', async () => {
    const { customer, setupToken } = await newCustomer();
    await complete(setupToken, 'Secret-Value-42');
    const row = (await ctx.app.repos.audit.listByAction('customer.password_set')).find((r) => r.targetId === customer.uuid);
    expect(row).toMatchObject({ actorType: 'customer', actorId: customer.uuid, targetType: 'customer', ip: '127.0.0.1' });
    expect(row?.before).toMatchObject({ isActive: false, hasPassword: false });
    expect(row?.after).toMatchObject({ isActive: true, hasPassword: true });
    const serialised = JSON.stringify(row);
    expect(serialised).not.toContain('Secret-Value-42');
    expect(serialised).not.toContain('argon2');
    expect(serialised).not.toContain(setupToken);
  });

  it("shows the password being set and the first sign-in in the customer's activity", async () => {
    const { customer, setupToken } = await newCustomer({ name: 'Lena Berg' });
    ctx.clock.advanceMinutes(1);
    await complete(setupToken, 'Lena-password-1');
    ctx.clock.advanceMinutes(1);
    await ctx.login('customer', customer.email, 'Lena-password-1');
    const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer.uuid}/activity`, token });
    expect(res.json().data.activity.map((a: { description: string }) => a.description)).toEqual([
      'Lena Berg signed in to the customer portal',
      'Lena Berg set their password',
      `Olga Admin created customer ${customer.email}`,
    ]);
  });

  it('enforces the new-password rules on the server, leaving the link usable', async () => {
    const { setupToken } = await newCustomer();
    const cases: [string, string, string, string][] = [
      ['', '', PASSWORD_MESSAGES.allRequired, 'password'],
      ['long-enough-1', '', PASSWORD_MESSAGES.allRequired, 'confirmPassword'],
      ['long-enough-1', 'long-enough-2', PASSWORD_MESSAGES.mismatch, 'confirmPassword'],
      ['short', 'short', PASSWORD_MESSAGES.tooShort, 'password'],
      ['x'.repeat(1025), 'x'.repeat(1025), PASSWORD_MESSAGES.tooLong, 'password'],
    ];
    for (const [password, confirm, message, path] of cases) {
      const res = await complete(setupToken, password, confirm);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message });
      expect(res.json().errors).toContainEqual({ path, message });
    }
    const missing = await ctx.request({ method: 'POST', url: '/api/v1/password-setup', payload: { token: setupToken } });
    expect(missing.json().message).toBe(PASSWORD_MESSAGES.allRequired);
    expect((await check(setupToken)).statusCode).toBe(200);
    expect((await complete(setupToken, 'exactly8', 'exactly8')).statusCode).toBe(200);
  });

  it('refuses a used link with the "already used" message, on both endpoints', async () => {
    const { setupToken } = await newCustomer();
    expect((await complete(setupToken)).statusCode).toBe(200);
    for (const res of [await check(setupToken), await complete(setupToken, 'Another-pass-1')]) {
      expect(res.statusCode).toBe(410);
      expect(res.json()).toMatchObject({ success: false, message: CUSTOMER_MESSAGES.setupTokenUsed });
    }
  });

  it('lets only one of two simultaneous uses of a link through', async () => {
    const { customer, setupToken } = await newCustomer();
    const [a, b] = await Promise.all([complete(setupToken, 'First-pass-11'), complete(setupToken, 'Second-pass-22')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 410]);
    const loser = a.statusCode === 410 ? a : b;
    expect(loser.json().message).toBe(CUSTOMER_MESSAGES.setupTokenUsed);
    const winner = a.statusCode === 200 ? 'First-pass-11' : 'Second-pass-22';
    expect((await ctx.login('customer', customer.email, winner)).statusCode).toBe(200);
    expect((await ctx.app.repos.audit.listByAction('customer.password_set')).filter((r) => r.targetId === customer.uuid)).toHaveLength(1);
  });

  it('refuses an expired link with the "expired" message, going by the server clock', async () => {
    const start = ctx.clock.now();
    try {
      const { setupToken } = await newCustomer();
      const other = await newCustomer();
      ctx.clock.advance(7 * DAY - 1);
      expect((await check(setupToken)).statusCode).toBe(200);
      ctx.clock.advance(1);
      for (const res of [await check(setupToken), await complete(setupToken)]) {
        expect(res.statusCode).toBe(410);
        expect(res.json()).toMatchObject({ success: false, message: CUSTOMER_MESSAGES.setupTokenExpired });
      }
      expect((await complete(other.setupToken)).statusCode).toBe(410);
    } finally {
      ctx.clock.set(start);
    }
  });

  it('refuses an unknown or malformed link with the "not valid" message', async () => {
    for (const bad of ['A'.repeat(43), 'short', 'x'.repeat(90), 'not a token!']) {
      for (const res of [await check(bad), await complete(bad)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ success: false, message: CUSTOMER_MESSAGES.setupTokenInvalid });
      }
    }
    // Past the edge cap on any text (INPUT_TEXT_MAX) it is refused before the lookup, as every field is.
    expect((await complete('x'.repeat(5000))).statusCode).toBe(400);
    const noToken = await ctx.request({ method: 'POST', url: '/api/v1/password-setup', payload: { password: 'abcdefgh1', confirmPassword: 'abcdefgh1' } });
    expect(noToken.statusCode).toBe(404);
  });

  it("refuses a blocked customer's link until the customer is unblocked", async () => {
    const { customer, setupToken } = await newCustomer();
    await ctx.request({ method: 'PUT', url: `/api/v1/customers/${customer.uuid}`, payload: { blocked_enabled: true, blocked_reason: 'Hold' }, token });
    for (const res of [await check(setupToken), await complete(setupToken)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(CUSTOMER_MESSAGES.setupTokenInvalid);
    }
    await ctx.request({ method: 'PUT', url: `/api/v1/customers/${customer.uuid}`, payload: { blocked_enabled: false, blocked_reason: null }, token });
    expect((await complete(setupToken)).statusCode).toBe(200);
  });

  it("refuses a deleted customer's link", async () => {
    const { customer, setupToken } = await newCustomer();
    await ctx.request({ method: 'DELETE', url: `/api/v1/customers/${customer.uuid}`, token });
    const res = await complete(setupToken);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(CUSTOMER_MESSAGES.setupTokenInvalid);
  });

  it('revokes the links mailed to the old address when the email changes', async () => {
    const { customer, setupToken } = await newCustomer();
    await ctx.request({ method: 'PUT', url: `/api/v1/customers/${customer.uuid}`, payload: { email: `moved${counter}@example.net` }, token });
    expect((await check(setupToken)).statusCode).toBe(404);
  });

  it('refuses unknown body fields with 400', async () => {
    const res = await ctx.request({ method: 'POST', url: '/api/v1/password-setup', payload: { token: 'x', password: 'abcdefgh', confirmPassword: 'abcdefgh', isActive: true } });
    expect(res.statusCode).toBe(400);
  });
});

describe('a fresh link from the administrator', () => {
  it('mails a new link, revokes the older unused one, and answers the address and expiry', async () => {
    const { customer, setupToken: first } = await newCustomer();
    ctx.clock.advanceMinutes(90);
    const res = await ctx.request({ method: 'POST', url: `/api/v1/customers/${customer.uuid}/password-link`, token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: { email: customer.email, expiresAt: new Date(ctx.clock.now().getTime() + 7 * DAY).toISOString() },
      message: `Password setup link sent to ${customer.email}`,
    });
    const [latest] = await outbox(customer.email);
    const second = linkIn(latest!.text).token;
    expect(second).not.toBe(first);
    expect(latest!.text).toContain('Links sent to you before no longer work.');

    const old = await check(first);
    expect(old.statusCode).toBe(404);
    expect(old.json().message).toBe(CUSTOMER_MESSAGES.setupTokenInvalid);
    expect((await complete(second)).statusCode).toBe(200);

    const [audit] = (await ctx.app.repos.audit.listByAction('customer.password_link_sent')).filter((r) => r.targetId === customer.uuid);
    expect(audit).toMatchObject({ actorType: 'user', after: { email: customer.email } });
    expect(JSON.stringify(audit)).not.toContain(second);
  });

  it('works as a reset for a customer who already has a password', async () => {
    const { customer, setupToken } = await newCustomer();
    await complete(setupToken, 'Old-password-1');
    await ctx.request({ method: 'POST', url: `/api/v1/customers/${customer.uuid}/password-link`, token });
    const [latest] = await outbox(customer.email);
    expect((await complete(linkIn(latest!.text).token, 'New-password-2')).statusCode).toBe(200);
    expect((await ctx.login('customer', customer.email, 'Old-password-1')).statusCode).toBe(401);
    expect((await ctx.login('customer', customer.email, 'New-password-2')).statusCode).toBe(200);
  });

  it('refuses a blocked customer with 409 and an unknown one with 404', async () => {
    const { customer } = await newCustomer();
    await ctx.request({ method: 'PUT', url: `/api/v1/customers/${customer.uuid}`, payload: { blocked_enabled: true, blocked_reason: 'Hold' }, token });
    const blocked = await ctx.request({ method: 'POST', url: `/api/v1/customers/${customer.uuid}/password-link`, token });
    expect(blocked.statusCode).toBe(409);
    const unknown = await ctx.request({ method: 'POST', url: '/api/v1/customers/5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11/password-link', token });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(CUSTOMER_MESSAGES.notFound);
  });
});

describe('links with PUBLIC_URL', () => {
  it('point at PUBLIC_URL instead of the request origin', async () => {
    const other = await createTestContext({ env: { PUBLIC_URL: 'https://portal.example.com/' } });
    try {
      const admin = await other.createAdmin();
      const adminToken = (await other.login('admin', admin.email, admin.password)).token;
      await other.request({ method: 'POST', url: '/api/v1/customers', payload: { email: 'pub@example.net', name: 'Pub', company: 'Pub Co', expirationDays: 30 }, token: adminToken });
      const res = await other.request({ method: 'GET', url: '/api/v1/email-outbox?to=pub@example.net', token: adminToken });
      expect(linkIn(res.json().data.messages[0].text).url).toMatch(/^https:\/\/portal\.example\.com\/set-password\?token=/);
    } finally {
      await other.close();
    }
  });
});

describe('rate limiting', () => {
  it('limits the public setup endpoints per client address like sign-in', async () => {
    const limited = await createTestContext({ env: { LOGIN_RATE_LIMIT: '2' } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.request({ method: 'GET', url: `/api/v1/password-setup/${'A'.repeat(43)}` })).statusCode);
      expect(statuses).toEqual([404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});
