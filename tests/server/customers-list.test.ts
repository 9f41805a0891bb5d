// GET /customers (paging, search, is_active and status filters), /customers/stats and
// /customers/{uuid}, over one fixed set of customers that no test here changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerListData, CustomerListItem, CustomerStats } from '../../src/domain/customers';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import type { NewCustomerRow } from '../../server/db/schema';
import { createTestContext, type TestContext } from './helpers';

const DAY = 86_400_000;
const HOUR = 3_600_000;

let ctx: TestContext;
let token: string;
let admin: { email: string; password: string };
const ids: Record<string, string> = {};

/** The fixed world: eight named customers, one deleted, and 15 older fillers (23 live). */
function world(now: Date): (Partial<NewCustomerRow> & { key: string })[] {
  const t = now.getTime();
  const ago = (hours: number) => new Date(t - hours * HOUR);
  const inDays = (days: number) => new Date(t + days * DAY);
  return [
    { key: 'deleted', name: 'Isabel Gone', email: 'isabel@andes.example', company: 'Andes Copper', mfaEnabled: true, blockedEnabled: true, blockedReason: 'x', createdAt: ago(0), deletedAt: ago(0) },
    { key: 'ana', name: 'Ana Lima', email: 'ana.lima@andes.example', company: 'Andes Copper', mfaEnabled: true, accountExpiresAt: inDays(200), createdAt: ago(1) },
    { key: 'bruno', name: 'Bruno Okafor', email: 'bruno@northwind.example', company: 'Northwind Maritime', accountExpiresAt: inDays(10), createdAt: ago(2) },
    { key: 'carla', name: 'Carla Schmidt', email: 'carla@sahel.example', company: 'Sahel Agritech', isActive: false, accountExpiresAt: inDays(365), createdAt: ago(3) },
    { key: 'diego', name: 'Diego Fernandes', email: 'diego@pacific.example', company: 'Pacific Rim 100% Fish', blockedEnabled: true, blockedReason: 'Payment overdue', accountExpiresAt: inDays(-5), createdAt: ago(4) },
    { key: 'elena', name: 'Elena Nakamura', email: 'elena_n@boreal.example', company: 'Boreal_Timber', isActive: false, blockedEnabled: true, blockedReason: 'Fraud review', createdAt: ago(5) },
    // Exactly 30 days left: still "expiring soon" (spec: 1 to 30 days).
    { key: 'felipe', name: 'Felipe Rossi', email: 'felipe@atlas.example', company: 'Atlas Resorts', mfaEnabled: true, accountExpiresAt: inDays(30), createdAt: ago(6) },
    // Expiring this very moment: expired.
    { key: 'gabriela', name: 'Gabriela Haddad', email: 'gabriela@CORAL.example', company: 'Coral Coast', isActive: false, accountExpiresAt: now, createdAt: ago(7) },
    // A millisecond over 30 days: 31 whole days, so not expiring soon.
    { key: 'hugo', name: 'Hugo Kowalski', email: 'hugo@highland.example', company: 'Highland Wind', accountExpiresAt: new Date(inDays(30).getTime() + 1), createdAt: ago(8) },
    ...Array.from({ length: 15 }, (_, i) => ({
      key: `filler${i}`,
      name: `Filler Person ${i}`,
      email: `filler${i}@fill.example`,
      company: 'Filler Holdings',
      createdAt: ago(100 + i),
    })),
  ];
}

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  for (const { key, ...row } of world(ctx.clock.now())) {
    const created = await ctx.createCustomer({ password: null, isActive: true, ...row });
    ids[key] = created.id;
  }
});
afterAll(async () => {
  await ctx?.close();
});

async function list(query: string): Promise<CustomerListData> {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/customers${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expect(body).toMatchObject({ success: true, message: 'Customers retrieved successfully' });
  return body.data;
}

const names = (data: CustomerListData) => data.customers.map((c) => c.name);
const keysOf = (data: CustomerListData) => data.customers.map((c) => Object.keys(ids).find((k) => ids[k] === c.uuid));

async function badQuery(query: string, message: string) {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/customers${query}`, token });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ success: false, message: `Validation failed: ${message}` });
}

describe('the customers list', () => {
  it('answers the first 10 live customers, newest first, with the paging figures', async () => {
    const data = await list('');
    expect(data.pagination).toEqual({ total: 23, page: 1, limit: 10, pages: 3 });
    expect(keysOf(data)).toEqual(['ana', 'bruno', 'carla', 'diego', 'elena', 'felipe', 'gabriela', 'hugo', 'filler0', 'filler1']);
  });

  it('never lists a soft-deleted customer', async () => {
    const all = await list('?limit=100');
    expect(all.customers.map((c) => c.uuid)).not.toContain(ids.deleted);
    expect(all.customers).toHaveLength(23);
  });

  it('answers each customer with the list fields and never a password hash or MFA secret', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/customers?search=diego', token });
    expect(res.body).not.toMatch(/password_hash|passwordHash|mfaSecret|mfa_secret/);
    const diego = res.json().data.customers[0] as CustomerListItem;
    expect(diego).toEqual({
      uuid: ids.diego,
      name: 'Diego Fernandes',
      email: 'diego@pacific.example',
      company: 'Pacific Rim 100% Fish',
      phone: null,
      address: null,
      isActive: true,
      blockedEnabled: true,
      blockedReason: 'Payment overdue',
      blockedAt: null,
      mfaEnabled: false,
      accountExpiresAt: new Date(ctx.clock.now().getTime() - 5 * DAY).toISOString(),
      lastLogin: null,
      createdAt: new Date(ctx.clock.now().getTime() - 4 * HOUR).toISOString(),
      updatedAt: expect.any(String),
      hasPassword: false,
    });
  });

  it('answers the last, partly filled page and an empty page beyond the end with the same total', async () => {
    const last = await list('?page=3');
    expect(last.pagination).toEqual({ total: 23, page: 3, limit: 10, pages: 3 });
    expect(last.customers).toHaveLength(3);
    const beyond = await list('?page=4');
    expect(beyond.customers).toEqual([]);
    expect(beyond.pagination).toEqual({ total: 23, page: 4, limit: 10, pages: 3 });
    const far = await list('?page=999&limit=7');
    expect(far.pagination).toEqual({ total: 23, page: 999, limit: 7, pages: 4 });
  });

  it('pages without overlap or gaps even when customers share a creation time', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 5; page++) seen.push(...(await list(`?page=${page}&limit=5`)).customers.map((c) => c.uuid));
    expect(seen).toHaveLength(23);
    expect(new Set(seen).size).toBe(23);
  });

  it('accepts a limit of 100', async () => {
    const data = await list('?limit=100');
    expect(data.pagination).toEqual({ total: 23, page: 1, limit: 100, pages: 1 });
  });

  it('refuses a limit over 100, page 0 and values that are not whole numbers, with messages', async () => {
    await badQuery('?limit=101', 'limit must be a whole number from 1 to 100');
    await badQuery('?limit=0', 'limit must be a whole number from 1 to 100');
    await badQuery('?page=0', 'page must be a whole number from 1 to 1000000');
    await badQuery('?page=-1', 'page must be a whole number from 1 to 1000000');
    await badQuery('?page=abc', 'page must be a whole number from 1 to 1000000');
    await badQuery('?page=1.5', 'page must be a whole number from 1 to 1000000');
    await badQuery('?page=', 'page must be a whole number from 1 to 1000000');
  });

  it('refuses an unknown is_active or status value and an overlong search, with messages', async () => {
    await badQuery('?is_active=yes', 'is_active must be true or false');
    await badQuery('?status=archived', 'status must be one of all, active, pending, inactive, blocked, expiring_soon, expired');
    await badQuery(`?search=${'x'.repeat(101)}`, 'search must be at most 100 characters');
  });

  it('puts every problem of a bad query in errors[]', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/customers?page=0&limit=500', token });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Validation failed');
    expect(res.json().errors).toEqual(
      expect.arrayContaining([
        { path: 'page', message: 'page must be a whole number from 1 to 1000000' },
        { path: 'limit', message: 'limit must be a whole number from 1 to 100' },
      ]),
    );
  });
});

describe('customer filters', () => {
  it('filters by is_active true and false', async () => {
    const active = await list('?is_active=true&limit=100');
    expect(active.pagination.total).toBe(20);
    expect(active.customers.every((c) => c.isActive)).toBe(true);
    const inactive = await list('?is_active=false');
    expect(keysOf(inactive)).toEqual(['carla', 'elena', 'gabriela']);
    expect(inactive.pagination).toEqual({ total: 3, page: 1, limit: 10, pages: 1 });
  });

  it.each([
    ['all', 23, null],
    ['active', 19, null],
    ['pending', 2, ['carla', 'gabriela']],
    ['inactive', 3, ['carla', 'elena', 'gabriela']],
    ['blocked', 2, ['diego', 'elena']],
    ['expiring_soon', 2, ['bruno', 'felipe']],
    ['expired', 2, ['diego', 'gabriela']],
  ] as const)('filters status=%s on the server (%i customers)', async (status, total, expected) => {
    const data = await list(`?status=${status}&limit=100`);
    expect(data.pagination.total).toBe(total);
    if (expected) expect(keysOf(data)).toEqual(expected);
  });

  it('counts active as active and not blocked, and pending as neither active nor blocked', async () => {
    const active = await list('?status=active&limit=100');
    expect(active.customers.every((c) => c.isActive && !c.blockedEnabled)).toBe(true);
    expect(keysOf(active)).not.toContain('diego');
  });

  it('pages a status filter on the server: every page of "active" holds active customers', async () => {
    const page4 = await list('?status=active&limit=5&page=4');
    expect(page4.pagination).toEqual({ total: 19, page: 4, limit: 5, pages: 4 });
    expect(page4.customers).toHaveLength(4);
    const page5 = await list('?status=active&limit=5&page=5');
    expect(page5.customers).toEqual([]);
    expect(page5.pagination.total).toBe(19);
  });

  it('combines status with is_active as the client sends them', async () => {
    expect((await list('?status=active&is_active=true&limit=100')).pagination.total).toBe(19);
    expect((await list('?status=inactive&is_active=false')).pagination.total).toBe(3);
    expect((await list('?status=blocked&is_active=false')).customers.map((c) => c.name)).toEqual(['Elena Nakamura']);
  });
});

describe('customer search', () => {
  it('matches the name, the email or the company, ignoring case', async () => {
    expect(names(await list('?search=OKAFOR'))).toEqual(['Bruno Okafor']);
    expect(names(await list('?search=%40coral.EXAMPLE'))).toEqual(['Gabriela Haddad']);
    expect(names(await list('?search=andes%20copper'))).toEqual(['Ana Lima']);
    expect(names(await list('?search=sahel'))).toEqual(['Carla Schmidt']);
  });

  it('matches substrings anywhere and trims the term', async () => {
    expect(names(await list('?search=%20akamur%20'))).toEqual(['Elena Nakamura']);
    expect((await list('?search=filler&limit=100')).pagination.total).toBe(15);
  });

  it('treats % and _ as themselves, not as wildcards', async () => {
    expect(names(await list('?search=%25'))).toEqual(['Diego Fernandes']);
    expect(names(await list('?search=100%25'))).toEqual(['Diego Fernandes']);
    expect(names(await list('?search=_'))).toEqual(['Elena Nakamura']);
    expect(names(await list('?search=r_s'))).toEqual([]);
    expect(names(await list('?search=%5C'))).toEqual([]);
  });

  it('never matches a term across two fields', async () => {
    // Name "Bruno Okafor", email "bruno@northwind.example", company "Northwind Maritime".
    expect(names(await list('?search=okafor%20bruno'))).toEqual([]);
    expect(names(await list('?search=okafor%1Fbruno'))).toEqual([]);
    expect(names(await list('?search=example%1Fnorthwind'))).toEqual([]);
    expect(names(await list('?search=%1Fokafor%1F'))).toEqual(['Bruno Okafor']);
  });

  it('answers an empty list with total 0 when nothing matches', async () => {
    expect((await list('?search=zzzz-nobody')).pagination).toEqual({ total: 0, page: 1, limit: 10, pages: 0 });
  });

  it('combines search with a status filter and pages the result', async () => {
    expect(names(await list('?search=copper&status=blocked'))).toEqual([]);
    expect(names(await list('?search=andes&status=blocked'))).toEqual(['Diego Fernandes']);
    expect(names(await list('?search=a&status=blocked'))).toEqual(['Diego Fernandes', 'Elena Nakamura']);
    const paged = await list('?search=filler&limit=4&page=4');
    expect(paged.pagination).toEqual({ total: 15, page: 4, limit: 4, pages: 4 });
    expect(paged.customers).toHaveLength(3);
  });

  it('ignores an empty search', async () => {
    expect((await list('?search=')).pagination.total).toBe(23);
    expect((await list('?search=%20%20')).pagination.total).toBe(23);
  });
});

describe('customer stats', () => {
  it('counts the whole live set, not the visible page', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/customers/stats', token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Customer statistics retrieved successfully' });
    const stats: CustomerStats = res.json().data;
    expect(stats).toEqual({ total: 23, active: 19, pending: 2, mfaEnabled: 2, blocked: 2, expiringSoon: 2, expired: 2 });
  });

  it('measures expiry from the server clock', async () => {
    const start = ctx.clock.now();
    try {
      ctx.clock.advance(11 * DAY);
      const later = (await ctx.login('admin', admin.email, admin.password)).token;
      const stats: CustomerStats = (await ctx.request({ method: 'GET', url: '/api/v1/customers/stats', token: later })).json().data;
      // Bruno (10 days) has now expired; Felipe and Hugo are 19 days out.
      expect(stats).toMatchObject({ expiringSoon: 2, expired: 3 });
    } finally {
      ctx.clock.set(start);
    }
  });
});

describe('one customer', () => {
  it('answers data.customer for a live customer', async () => {
    const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${ids.ana}`, token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Customer retrieved successfully',
      data: { customer: { uuid: ids.ana, name: 'Ana Lima', company: 'Andes Copper', mfaEnabled: true } },
    });
  });

  it('answers 400 to a malformed uuid', async () => {
    for (const bad of ['not-a-uuid', '123', `${ids.ana}x`]) {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${bad}`, token });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, message: 'Validation failed: Customer id must be a UUID' });
    }
  });

  it('answers 404 "Customer not found" to an unknown or deleted customer', async () => {
    for (const id of ['5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11', ids.deleted]) {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${id}`, token });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ success: false, message: CUSTOMER_MESSAGES.notFound });
    }
  });

  it('accepts an upper-case uuid', async () => {
    const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${ids.ana!.toUpperCase()}`, token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.customer.uuid).toBe(ids.ana);
  });
});
