// Changing customers: create (validation, duplicates), edit, block/unblock, activate, extend,
// soft delete, the audit trail each change leaves, the activity view, and who may call what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/domain/auth';
import { CUSTOMER_MESSAGES, type CustomerListItem } from '../../src/domain/customers';
import type { ActivityEntry } from '../../src/domain/dashboard';
import { createTestContext, type TestContext } from './helpers';

const DAY = 86_400_000;

let ctx: TestContext;
let token: string;
let adminId: string;
let counter = 0;

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.createAdmin({ name: 'Ana Admin' });
  adminId = admin.id;
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
});
afterAll(async () => {
  await ctx?.close();
});

const uniqueEmail = (stem = 'person') => `${stem}${++counter}@customers.example`;
const validPayload = (overrides: Record<string, unknown> = {}) => ({
  email: uniqueEmail(),
  name: 'Pat Doe',
  company: 'Doe Logistics',
  expirationDays: 365,
  ...overrides,
});

const post = (payload: unknown) => ctx.request({ method: 'POST', url: '/api/v1/customers', payload: payload as object, token });
const put = (id: string, payload: unknown, path = '') =>
  ctx.request({ method: 'PUT', url: `/api/v1/customers/${id}${path}`, payload: payload as object, token });

async function createCustomer(overrides: Record<string, unknown> = {}): Promise<CustomerListItem> {
  const res = await post(validPayload(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.customer;
}

async function expectBadRequest(res: { statusCode: number; json(): unknown }, message: string, path?: string) {
  expect(res.statusCode).toBe(400);
  const body = res.json() as { success: boolean; message: string; errors?: { path: string; message: string }[] };
  expect(body).toMatchObject({ success: false, message });
  if (path) expect(body.errors).toEqual([{ path, message: message.replace(/^Validation failed: /, '') }]);
}

async function auditFor(action: string, targetId: string) {
  const rows = await ctx.app.repos.audit.listByAction(action);
  return rows.filter((r) => r.targetId === targetId);
}

describe('creating a customer', () => {
  it('creates a Pending customer without a password, expiring after expirationDays, and answers 201', async () => {
    const res = await post({ email: '  New.Person@Example.COM ', name: ' New Person ', company: ' NewCo ', expirationDays: 30 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: CUSTOMER_MESSAGES.created('new.person@example.com') });
    expect(body.data.customer).toMatchObject({
      email: 'new.person@example.com',
      name: 'New Person',
      company: 'NewCo',
      isActive: false,
      blockedEnabled: false,
      blockedReason: null,
      mfaEnabled: false,
      hasPassword: false,
      lastLogin: null,
      accountExpiresAt: new Date(ctx.clock.now().getTime() + 30 * DAY).toISOString(),
      createdAt: ctx.clock.now().toISOString(),
    });
    const row = await ctx.app.repos.customers.findLiveById(body.data.customer.uuid);
    expect(row).toMatchObject({ passwordHash: null, isActive: false });

    const pending = await ctx.request({ method: 'GET', url: '/api/v1/customers?status=pending&search=new.person', token });
    expect(pending.json().data.customers.map((c: CustomerListItem) => c.uuid)).toEqual([body.data.customer.uuid]);
  });

  it('defaults expirationDays to 365 and ignores the form-only sendPasswordLink flag', async () => {
    const { expirationDays: _omitted, ...payload } = validPayload();
    const res = await post({ ...payload, sendPasswordLink: true });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.customer.accountExpiresAt).toBe(new Date(ctx.clock.now().getTime() + 365 * DAY).toISOString());
  });

  it('accepts 1 and 3650 days', async () => {
    expect((await post(validPayload({ expirationDays: 1 }))).statusCode).toBe(201);
    expect((await post(validPayload({ expirationDays: 3650 }))).statusCode).toBe(201);
  });

  it('answers each rule of the create form with its spec message, as the message and in errors[]', async () => {
    await expectBadRequest(await post(validPayload({ company: '' })), CUSTOMER_MESSAGES.companyRequired, 'company');
    await expectBadRequest(await post(validPayload({ company: '   ' })), CUSTOMER_MESSAGES.companyRequired, 'company');
    await expectBadRequest(await post(validPayload({ name: '' })), CUSTOMER_MESSAGES.nameRequired, 'name');
    await expectBadRequest(await post(validPayload({ email: '' })), CUSTOMER_MESSAGES.emailRequired, 'email');
    await expectBadRequest(await post(validPayload({ email: 'not-an-address' })), CUSTOMER_MESSAGES.emailInvalid, 'email');
    await expectBadRequest(await post(validPayload({ email: 'a b@example.com' })), CUSTOMER_MESSAGES.emailInvalid, 'email');
    for (const days of [0, -1, 3651, 1.5]) {
      await expectBadRequest(await post(validPayload({ expirationDays: days })), CUSTOMER_MESSAGES.expirationRange, 'expirationDays');
    }
  });

  it('reads missing fields as empty, so they get the "is required" messages', async () => {
    const res = await post({ expirationDays: 90 });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Validation failed');
    expect(res.json().errors).toEqual([
      { path: 'company', message: CUSTOMER_MESSAGES.companyRequired },
      { path: 'name', message: CUSTOMER_MESSAGES.nameRequired },
      { path: 'email', message: CUSTOMER_MESSAGES.emailRequired },
    ]);
  });

  it('enforces the length limits with their messages', async () => {
    await expectBadRequest(await post(validPayload({ company: 'c'.repeat(161) })), CUSTOMER_MESSAGES.tooLong('Company name', 160), 'company');
    await expectBadRequest(await post(validPayload({ name: 'n'.repeat(121) })), CUSTOMER_MESSAGES.tooLong('Name', 120), 'name');
    await expectBadRequest(await post(validPayload({ email: `${'e'.repeat(250)}@x.io` })), CUSTOMER_MESSAGES.emailInvalid, 'email');
    expect((await post(validPayload({ company: 'c'.repeat(160), name: 'n'.repeat(120) }))).statusCode).toBe(201);
  });

  it('refuses wrong types and unknown fields with 400', async () => {
    await expectBadRequest(await post(validPayload({ expirationDays: '365' })), `Validation failed: ${CUSTOMER_MESSAGES.expirationRange}`);
    await expectBadRequest(await post(validPayload({ email: 42 })), `Validation failed: ${CUSTOMER_MESSAGES.emailInvalid}`);
    const unknown = await post(validPayload({ isActive: true }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().success).toBe(false);
  });

  it('answers 409 to an email a live customer already has, whatever its case', async () => {
    const email = uniqueEmail('dup');
    await createCustomer({ email });
    for (const variant of [email, email.toUpperCase(), `  ${email}  `]) {
      const res = await post(validPayload({ email: variant }));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ success: false, message: CUSTOMER_MESSAGES.duplicateEmail });
    }
  });

  it('creates only one of two simultaneous customers with the same email', async () => {
    const email = uniqueEmail('race');
    const [a, b] = await Promise.all([post(validPayload({ email })), post(validPayload({ email: email.toUpperCase() }))]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect((a.statusCode === 409 ? a : b).json().message).toBe(CUSTOMER_MESSAGES.duplicateEmail);
  });

  it('reports a clash with the live-email index as data, not an exception', async () => {
    const email = uniqueEmail('index');
    await createCustomer({ email });
    const result = await ctx.app.repos.customers.create({ email: email.toUpperCase(), name: 'Clash', company: 'Clash Co' });
    expect(result).toEqual({ ok: false, reason: 'duplicate_email' });
  });

  it('stores HTML and script in names exactly as given', async () => {
    const name = '<script>alert("x")</script> & <b>Bold</b>';
    const customer = await createCustomer({ name, company: '<img src=x onerror=alert(1)>' });
    expect(customer.name).toBe(name);
    expect(customer.company).toBe('<img src=x onerror=alert(1)>');
  });

  it('audits the creation with the new fields, never a hash or a token', async () => {
    const customer = await createCustomer({ name: 'Audit Me' });
    const [row] = await auditFor('customer.created', customer.uuid);
    expect(row).toMatchObject({ actorType: 'user', actorId: adminId, targetType: 'customer', ip: '127.0.0.1', before: null });
    expect(row?.requestId).toEqual(expect.any(String));
    expect(row?.after).toMatchObject({ email: customer.email, name: 'Audit Me', isActive: false, blockedEnabled: false, expirationDays: 365 });
    expect(JSON.stringify(row)).not.toMatch(/token"|tokenHash|passwordHash|password_hash/i);
  });
});

describe('editing a customer', () => {
  it('edits name, email, company, phone and address and answers the updated customer', async () => {
    const customer = await createCustomer();
    ctx.clock.advanceMinutes(1);
    const email = uniqueEmail('Edited');
    const res = await put(customer.uuid, { name: ' Pat Edited ', email: ` ${email.toUpperCase()} `, company: 'Edited Co', phone: ' +1 555 0100 ', address: '1 Main St' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Customer updated successfully' });
    expect(res.json().data.customer).toMatchObject({
      uuid: customer.uuid,
      name: 'Pat Edited',
      email: email.toLowerCase(),
      company: 'Edited Co',
      phone: '+1 555 0100',
      address: '1 Main St',
      updatedAt: ctx.clock.now().toISOString(),
    });
  });

  it('audits an edit with the changed fields before and after', async () => {
    const customer = await createCustomer({ company: 'Before Co' });
    await put(customer.uuid, { company: 'After Co', phone: '123' });
    const [row] = await auditFor('customer.updated', customer.uuid);
    expect(row?.before).toEqual({ email: customer.email, company: 'Before Co', phone: null });
    expect(row?.after).toEqual({ email: customer.email, company: 'After Co', phone: '123' });
    expect(row).toMatchObject({ actorType: 'user', actorId: adminId });
  });

  it('clears phone and address with null or an empty string', async () => {
    const customer = await createCustomer();
    await put(customer.uuid, { phone: '555', address: 'Somewhere' });
    const res = await put(customer.uuid, { phone: null, address: '  ' });
    expect(res.json().data.customer).toMatchObject({ phone: null, address: null });
  });

  it('writes nothing when nothing changes', async () => {
    const customer = await createCustomer();
    ctx.clock.advanceMinutes(1);
    const res = await put(customer.uuid, { name: customer.name, company: customer.company });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.customer.updatedAt).toBe(customer.updatedAt);
    expect(await auditFor('customer.updated', customer.uuid)).toEqual([]);
  });

  it('validates edits with the same messages and length limits', async () => {
    const { uuid } = await createCustomer();
    await expectBadRequest(await put(uuid, { name: '  ' }), CUSTOMER_MESSAGES.nameRequired, 'name');
    await expectBadRequest(await put(uuid, { company: '' }), CUSTOMER_MESSAGES.companyRequired, 'company');
    await expectBadRequest(await put(uuid, { email: '' }), CUSTOMER_MESSAGES.emailRequired, 'email');
    await expectBadRequest(await put(uuid, { email: 'nope' }), CUSTOMER_MESSAGES.emailInvalid, 'email');
    await expectBadRequest(await put(uuid, { name: 'n'.repeat(121) }), CUSTOMER_MESSAGES.tooLong('Name', 120), 'name');
    await expectBadRequest(await put(uuid, { company: 'c'.repeat(161) }), CUSTOMER_MESSAGES.tooLong('Company name', 160), 'company');
    await expectBadRequest(await put(uuid, { phone: '1'.repeat(41) }), CUSTOMER_MESSAGES.tooLong('Phone', 40), 'phone');
    await expectBadRequest(await put(uuid, { address: 'a'.repeat(301) }), CUSTOMER_MESSAGES.tooLong('Address', 300), 'address');
    await expectBadRequest(
      await put(uuid, { blocked_enabled: true, blocked_reason: 'r'.repeat(501) }),
      CUSTOMER_MESSAGES.tooLong('Block reason', 500),
      'blocked_reason',
    );
  });

  it('refuses unknown fields, such as a password hash, with 400', async () => {
    const { uuid } = await createCustomer();
    for (const body of [{ password_hash: 'x' }, { mfa_enabled: true }, { isActive: true }]) {
      const res = await put(uuid, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('answers 409 when the new email belongs to another live customer, and allows its own in another case', async () => {
    const taken = await createCustomer();
    const customer = await createCustomer();
    const clash = await put(customer.uuid, { email: taken.email.toUpperCase() });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(CUSTOMER_MESSAGES.duplicateEmail);
    const own = await put(customer.uuid, { email: customer.email.toUpperCase() });
    expect(own.statusCode).toBe(200);
  });

  it('answers 404 for an unknown customer and 400 for a malformed uuid', async () => {
    const unknown = await put('5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', { name: 'X' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(CUSTOMER_MESSAGES.notFound);
    expect((await put('nope', { name: 'X' })).statusCode).toBe(400);
  });
});

describe('blocking and activating a customer', () => {
  it('refuses to block without a reason', async () => {
    const { uuid } = await createCustomer();
    for (const body of [{ blocked_enabled: true }, { blocked_enabled: true, blocked_reason: '   ' }, { blocked_enabled: true, blocked_reason: null }]) {
      await expectBadRequest(await put(uuid, body), CUSTOMER_MESSAGES.blockReasonRequired, 'blocked_reason');
    }
  });

  it('blocks with a reason, stamping blocked_at, and audits customer.blocked', async () => {
    const { uuid, email } = await createCustomer();
    const res = await put(uuid, { blocked_enabled: true, blocked_reason: ' Payment overdue ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.customer).toMatchObject({ blockedEnabled: true, blockedReason: 'Payment overdue', blockedAt: ctx.clock.now().toISOString() });
    const [row] = await auditFor('customer.blocked', uuid);
    expect(row?.before).toEqual({ email, blockedEnabled: false, blockedReason: null });
    expect(row?.after).toEqual({ email, blockedEnabled: true, blockedReason: 'Payment overdue' });
  });

  it('unblocks with blocked_enabled false and blocked_reason null, clearing the reason and date', async () => {
    const { uuid } = await createCustomer();
    await put(uuid, { blocked_enabled: true, blocked_reason: 'Fraud review' });
    const res = await put(uuid, { blocked_enabled: false, blocked_reason: null });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.customer).toMatchObject({ blockedEnabled: false, blockedReason: null, blockedAt: null });
    expect(await auditFor('customer.unblocked', uuid)).toHaveLength(1);
  });

  it('edits the reason of a blocked customer and refuses a reason alone for an unblocked one', async () => {
    const { uuid } = await createCustomer();
    const refused = await put(uuid, { blocked_reason: 'Just a reason' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].path).toBe('blocked_reason');
    await put(uuid, { blocked_enabled: true, blocked_reason: 'First reason' });
    const blockedAt = (await put(uuid, { blocked_reason: 'Second reason' })).json().data.customer;
    expect(blockedAt).toMatchObject({ blockedEnabled: true, blockedReason: 'Second reason' });
    await expectBadRequest(await put(uuid, { blocked_reason: null }), CUSTOMER_MESSAGES.blockReasonRequired, 'blocked_reason');
  });

  it('toggles is_active and audits customer.activated and customer.deactivated', async () => {
    const { uuid } = await createCustomer();
    expect((await put(uuid, { is_active: true })).json().data.customer.isActive).toBe(true);
    expect((await put(uuid, { is_active: false })).json().data.customer.isActive).toBe(false);
    expect(await auditFor('customer.activated', uuid)).toHaveLength(1);
    const [row] = await auditFor('customer.deactivated', uuid);
    expect(row?.before).toMatchObject({ isActive: true });
    expect(row?.after).toMatchObject({ isActive: false });
  });

  it("stops accepting a customer's token once the customer is blocked", async () => {
    const customer = await ctx.createCustomer();
    const customerToken = (await ctx.login('customer', customer.email, customer.password)).token;
    const me = () => ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token: customerToken });
    expect((await me()).statusCode).toBe(200);
    await put(customer.id, { blocked_enabled: true, blocked_reason: 'Abuse' });
    expect((await me()).statusCode).toBe(401);
    const again = await ctx.login('customer', customer.email, customer.password);
    expect(again.statusCode).toBe(403);
    expect(again.body.message).toBe(ACCOUNT_MESSAGES.blocked);
  });
});

describe('extending an account', () => {
  it('extends by 365 days by default, from the current expiry when it is later than now', async () => {
    const { uuid, accountExpiresAt } = await createCustomer({ expirationDays: 10 });
    const res = await put(uuid, {}, '/extend');
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Account extended by 365 days');
    expect(res.json().data.customer.accountExpiresAt).toBe(new Date(Date.parse(accountExpiresAt!) + 365 * DAY).toISOString());
  });

  it('extends from now when the account has already expired or has no expiry', async () => {
    const expired = await ctx.createCustomer({ password: null, accountExpiresAt: new Date(ctx.clock.now().getTime() - 5 * DAY) });
    const res = await put(expired.id, { days: 30 }, '/extend');
    expect(res.json().data.customer.accountExpiresAt).toBe(new Date(ctx.clock.now().getTime() + 30 * DAY).toISOString());
    const open = await ctx.createCustomer({ password: null, accountExpiresAt: null });
    const res2 = await put(open.id, { days: 1 }, '/extend');
    expect(res2.json().data.customer.accountExpiresAt).toBe(new Date(ctx.clock.now().getTime() + DAY).toISOString());
  });

  it('extends with no body at all by the default 365 days', async () => {
    const open = await ctx.createCustomer({ password: null, accountExpiresAt: null });
    const res = await ctx.request({ method: 'PUT', url: `/api/v1/customers/${open.id}/extend`, token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.customer.accountExpiresAt).toBe(new Date(ctx.clock.now().getTime() + 365 * DAY).toISOString());
  });

  it('accepts 1 to 3650 days and refuses anything else with a message', async () => {
    const { uuid } = await createCustomer();
    expect((await put(uuid, { days: 3650 }, '/extend')).statusCode).toBe(200);
    for (const days of [0, 3651, -3, 1.5, 'ten', null]) {
      await expectBadRequest(await put(uuid, { days }, '/extend'), 'Validation failed: days must be a whole number from 1 to 3650', 'days');
    }
    expect((await put(uuid, { days: 5, extra: 1 }, '/extend')).statusCode).toBe(400);
  });

  it('audits the extension with the old and new expiry', async () => {
    const { uuid, accountExpiresAt, email } = await createCustomer({ expirationDays: 30 });
    const res = await put(uuid, { days: 60 }, '/extend');
    const [row] = await auditFor('customer.extended', uuid);
    expect(row?.before).toEqual({ email, accountExpiresAt });
    expect(row?.after).toEqual({ email, accountExpiresAt: res.json().data.customer.accountExpiresAt, days: 60 });
  });

  it('answers 404 for an unknown customer', async () => {
    const res = await put('5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', { days: 5 }, '/extend');
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(CUSTOMER_MESSAGES.notFound);
  });
});

describe('deleting a customer', () => {
  const remove = (id: string) => ctx.request({ method: 'DELETE', url: `/api/v1/customers/${id}`, token });

  it('soft-deletes: hidden from the list and detail, the row kept with deleted_at', async () => {
    const customer = await createCustomer();
    const res = await remove(customer.uuid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: { uuid: customer.uuid }, message: 'Customer deleted successfully' });
    expect((await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer.uuid}`, token })).statusCode).toBe(404);
    const listed = await ctx.request({ method: 'GET', url: `/api/v1/customers?search=${encodeURIComponent(customer.email)}`, token });
    expect(listed.json().data.pagination.total).toBe(0);
    const rows = await ctx.app.repos.customers.list({ search: customer.email, now: ctx.clock.now() }, { limit: 5, offset: 0 });
    expect(rows).toEqual([]);
    const [audit] = await auditFor('customer.deleted', customer.uuid);
    expect(audit?.before).toMatchObject({ email: customer.email, name: customer.name });
    expect(audit?.after).toMatchObject({ email: customer.email, deletedAt: ctx.clock.now().toISOString() });
  });

  it("frees the deleted customer's email for a new customer", async () => {
    const customer = await createCustomer();
    await remove(customer.uuid);
    const again = await post(validPayload({ email: customer.email.toUpperCase() }));
    expect(again.statusCode).toBe(201);
    expect(again.json().data.customer.uuid).not.toBe(customer.uuid);
  });

  it('answers 404 to a second delete and to edits of the deleted customer', async () => {
    const customer = await createCustomer();
    await remove(customer.uuid);
    expect((await remove(customer.uuid)).statusCode).toBe(404);
    expect((await put(customer.uuid, { name: 'Ghost' })).statusCode).toBe(404);
    expect((await put(customer.uuid, {}, '/extend')).statusCode).toBe(404);
  });

  it('signs the deleted customer out and refuses their sign-in', async () => {
    const customer = await ctx.createCustomer();
    const customerToken = (await ctx.login('customer', customer.email, customer.password)).token;
    await remove(customer.id);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token: customerToken })).statusCode).toBe(401);
    expect((await ctx.login('customer', customer.email, customer.password)).statusCode).toBe(401);
  });
});

describe("a customer's activity", () => {
  it('lists the audit entries about the customer, newest first, described in words', async () => {
    const customer = await createCustomer({ name: 'Active Person' });
    ctx.clock.advanceMinutes(1);
    await put(customer.uuid, { blocked_enabled: true, blocked_reason: 'Check' });
    ctx.clock.advanceMinutes(1);
    await put(customer.uuid, { blocked_enabled: false, blocked_reason: null });
    ctx.clock.advanceMinutes(1);
    await put(customer.uuid, { days: 10 }, '/extend');
    ctx.clock.advanceMinutes(1);
    await put(customer.uuid, { company: 'Renamed Co' });
    // Someone else's change does not show.
    const other = await createCustomer();
    await put(other.uuid, { company: 'Other Co' });

    const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer.uuid}/activity`, token });
    expect(res.statusCode).toBe(200);
    const activity: ActivityEntry[] = res.json().data.activity;
    expect(activity.map((a) => a.description)).toEqual([
      `Ana Admin updated customer ${customer.email}`,
      `Ana Admin extended customer ${customer.email} by 10 days`,
      `Ana Admin unblocked customer ${customer.email}`,
      `Ana Admin blocked customer ${customer.email}`,
      `Ana Admin created customer ${customer.email}`,
    ]);
    expect(activity[0]).toMatchObject({ action: 'customer.updated', actorName: 'Ana Admin', createdAt: ctx.clock.now().toISOString() });
  });

  it('includes the sign-ins of the customer and honours limit', async () => {
    const customer = await ctx.createCustomer({ name: 'Signing Sam' });
    await ctx.login('customer', customer.email, 'wrong password');
    ctx.clock.advanceMinutes(1);
    await ctx.login('customer', customer.email, customer.password);
    const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer.id}/activity`, token });
    const activity: ActivityEntry[] = res.json().data.activity;
    expect(activity.map((a) => a.description)).toEqual([
      'Signing Sam signed in to the customer portal',
      `Failed customer sign-in for ${customer.email}`,
    ]);
    const limited = await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer.id}/activity?limit=1`, token });
    expect(limited.json().data.activity).toHaveLength(1);
    expect((await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer.id}/activity?limit=0`, token })).statusCode).toBe(400);
  });

  it('answers 404 for an unknown customer and 400 for a malformed uuid', async () => {
    expect((await ctx.request({ method: 'GET', url: '/api/v1/customers/5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11/activity', token })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/customers/zzz/activity', token })).statusCode).toBe(400);
  });

  it('shows customer changes on the dashboard in words', async () => {
    const customer = await createCustomer();
    await ctx.request({ method: 'DELETE', url: `/api/v1/customers/${customer.uuid}`, token });
    const res = await ctx.request({ method: 'GET', url: '/api/v1/dashboard/summary', token });
    expect(res.json().data.recentActivity[0]).toMatchObject({ action: 'customer.deleted', description: `Ana Admin deleted customer ${customer.email}` });
  });
});

describe('who may manage customers', () => {
  const someId = '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11';
  const endpoints = [
    { method: 'GET', url: '/api/v1/customers' },
    { method: 'GET', url: '/api/v1/customers/stats' },
    { method: 'GET', url: `/api/v1/customers/${someId}` },
    { method: 'GET', url: `/api/v1/customers/${someId}/activity` },
    { method: 'POST', url: '/api/v1/customers', payload: { email: 'x@y.io', name: 'X', company: 'Y', expirationDays: 30 } },
    { method: 'PUT', url: `/api/v1/customers/${someId}`, payload: { name: 'X' } },
    { method: 'DELETE', url: `/api/v1/customers/${someId}` },
    { method: 'PUT', url: `/api/v1/customers/${someId}/extend`, payload: { days: 30 } },
    { method: 'POST', url: `/api/v1/customers/${someId}/password-link`, payload: {} },
    { method: 'GET', url: '/api/v1/email-outbox' },
  ] as const;

  it('answers 401 without a token on every customer-management endpoint', async () => {
    for (const endpoint of endpoints) {
      const res = await ctx.request({ ...endpoint });
      expect(res.statusCode, `${endpoint.method} ${endpoint.url}`).toBe(401);
      expect(res.json().message).toBe('Authentication required');
    }
  });

  it("answers 403 to a customer's token on every customer-management endpoint", async () => {
    const customer = await ctx.createCustomer();
    const customerToken = (await ctx.login('customer', customer.email, customer.password)).token;
    for (const endpoint of endpoints) {
      const res = await ctx.request({ ...endpoint, token: customerToken });
      expect(res.statusCode, `${endpoint.method} ${endpoint.url}`).toBe(403);
      expect(res.json()).toMatchObject({ success: false, message: ACCOUNT_MESSAGES.adminsOnly });
    }
  });
});

describe('the API documentation', () => {
  it('documents every customer, password-setup and outbox route without secret fields', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/customers',
        '/api/v1/customers/stats',
        '/api/v1/customers/{uuid}',
        '/api/v1/customers/{uuid}/activity',
        '/api/v1/customers/{uuid}/extend',
        '/api/v1/customers/{uuid}/password-link',
        '/api/v1/password-setup',
        '/api/v1/password-setup/{token}',
        '/api/v1/email-outbox',
      ]),
    );
    expect(Object.keys(doc.paths['/api/v1/customers'])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths['/api/v1/customers/{uuid}'])).toEqual(expect.arrayContaining(['get', 'put', 'delete']));
    const item = doc.paths['/api/v1/customers/{uuid}'].get.responses['200'].content['application/json'].schema.properties.data.properties.customer;
    expect(Object.keys(item.properties)).toContain('hasPassword');
    expect(JSON.stringify(doc)).not.toMatch(/passwordHash|password_hash|mfaSecret|mfa_secret|searchText|search_text|tokenHash|token_hash/);
  });
});
