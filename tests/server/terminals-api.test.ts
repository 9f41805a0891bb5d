// GET /terminals (search over six fields, filters, sorts, paging), /terminals/available,
// /terminals/health, /terminals/sync/stats and /terminals/{id}, over one fixed inventory that no
// test here changes (tests/fixtures/terminals.ts seedTerminalWorld), plus access and bad input.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FleetHealth, TerminalDetailWire, TerminalPageWire } from '../../src/domain/terminals';
import { idOf, lineOf, seedTerminalWorld, type WorldCustomers } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let token: string;
let customerToken: string;
let people: WorldCustomers;
let admin: { email: string; password: string };

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  const make = async (name: string, email: string, company: string, extra: Record<string, unknown> = {}) =>
    (await ctx.createCustomer({ name, email, company, password: null, isActive: true, ...extra })).id;
  const day = 86_400_000;
  people = {
    ana: await make('Ana Lima', 'ana.lima@andes.example', 'Andes Copper'),
    bruno: await make('Bruno Okafor', 'bruno@northwind.example', 'Northwind Maritime'),
    elena: await make('Elena_Nakamura 100%', 'elena@boreal.example', 'Boreal Timber'),
    gone: await make('Isabel Gone', 'isabel@gone.example', 'Gone Ltd', { deletedAt: ctx.clock.now() }),
    diego: await make('Diego Fernandes', 'diego@pacific.example', 'Pacific Fish', { blockedEnabled: true, blockedReason: 'Payment overdue' }),
    gabriela: await make('Gabriela Haddad', 'gabriela@coral.example', 'Coral Coast', {
      accountExpiresAt: new Date(ctx.clock.now().getTime() - day),
    }),
  };
  await seedTerminalWorld(ctx.database.db, people);
  const customer = await ctx.createCustomer({ password: 'Customer-pass-1' });
  customerToken = (await ctx.login('customer', customer.email, 'Customer-pass-1')).token as string;
});
afterAll(async () => {
  await ctx?.close();
});

async function get(url: string, as = token) {
  const res = await ctx.request({ method: 'GET', url, token: as });
  return { status: res.statusCode, body: res.json() };
}

async function list(query = '', path = '/api/v1/terminals'): Promise<TerminalPageWire> {
  const { status, body } = await get(`${path}${query}`);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body.success).toBe(true);
  return body.data;
}

/** Terminal numbers (1–10, 99) of a page, in order. */
const ns = (page: TerminalPageWire) => page.results.map((r) => Number(r.user_terminal_id.slice(-2)));

async function badRequest(url: string, message: string) {
  const { status, body } = await get(url);
  expect(status, url).toBe(400);
  expect(body, url).toMatchObject({ success: false, message: `Validation failed: ${message}` });
}

describe('the terminals list', () => {
  it('answers the first page of live terminals in service line order, from the local database', async () => {
    const { status, body } = await get('/api/v1/terminals');
    expect(status).toBe(200);
    expect(body).toMatchObject({ success: true, message: 'Terminals retrieved successfully' });
    const page: TerminalPageWire = body.data;
    expect(page).toMatchObject({ totalCount: 10, page: 1, limit: 25 });
    // Terminal 6 has no service line: last.
    expect(ns(page)).toEqual([1, 2, 3, 4, 5, 7, 8, 9, 10, 6]);
  });

  it('never lists a removed terminal', async () => {
    const page = await list('?limit=100');
    expect(page.results.map((r) => r.user_terminal_id)).not.toContain(idOf(99));
    expect((await list(`?search=${idOf(99)}`)).totalCount).toBe(0);
  });

  it('answers each row with the wire fields, the owner id and the owner name', async () => {
    const page = await list(`?search=${idOf(1)}`);
    expect(page.results).toEqual([
      {
        user_terminal_id: idOf(1),
        kit_serial_number: 'KIT4A1B2C01',
        dish_serial_number: 'DSH9F00001',
        service_line_number: lineOf(1),
        nickname: 'Terminal 1',
        active: true,
        assigned_to: people.ana,
        assigned_to_customer: 'Ana Lima',
        sync_status: 'synced',
        last_synced_at: '2026-03-02T08:01:00.000Z',
        data_cap_updated_at: '2026-02-15T00:00:00.000Z',
        updated_at: '2026-03-02T08:00:00.000Z',
        condition: 'active',
        terminal_type: 'Flat High Performance',
        plan: 'Priority 50 GB',
        location: 'Mina Norte, Antofagasta, Chile',
        region: 'Antofagasta',
        // The provider account the terminal lives under (account one, as the fixtures file them).
        account_id: 1,
        account_name: 'Provider account',
      },
    ]);
    const unassigned = (await list(`?search=${idOf(4)}`)).results[0]!;
    expect(unassigned).toMatchObject({ assigned_to: null, assigned_to_customer: null, dish_serial_number: null });
  });

  it("still shows a soft-deleted customer's name on the terminals assigned to it", async () => {
    const row = (await list(`?search=${idOf(8)}`)).results[0]!;
    expect(row).toMatchObject({ assigned_to: people.gone, assigned_to_customer: 'Isabel Gone' });
  });

  it('pages without overlap or gaps, with the same total on every page', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const data = await list(`?page=${page}&limit=3`);
      expect(data).toMatchObject({ totalCount: 10, page, limit: 3 });
      seen.push(...data.results.map((r) => r.user_terminal_id));
    }
    expect(seen).toHaveLength(10);
    expect(new Set(seen).size).toBe(10);
    const beyond = await list('?page=5&limit=3');
    expect(beyond).toEqual({ results: [], totalCount: 10, page: 5, limit: 3 });
  });

  it('accepts a limit of 100 and answers the page and limit it used', async () => {
    expect(await list('?limit=100')).toMatchObject({ totalCount: 10, page: 1, limit: 100 });
  });

  it('accepts sync=true and sync=false and still answers from the local database', async () => {
    expect(ns(await list('?sync=true'))).toEqual(ns(await list('?sync=false')));
    expect((await list('?sync=true')).totalCount).toBe(10);
  });
});

describe('terminal sorts', () => {
  it.each([
    ['service_line', [1, 2, 3, 4, 5, 7, 8, 9, 10, 6]],
    // Descending puts the terminal without a line first (the index's order, no sort step).
    ['-service_line', [6, 10, 9, 8, 7, 5, 4, 3, 2, 1]],
    ['terminal_id', [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    ['-terminal_id', [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]],
    // 6 was never synced: last either way.
    ['last_synced', [5, 3, 1, 2, 4, 7, 8, 9, 10, 6]],
    ['-last_synced', [10, 9, 8, 7, 4, 2, 1, 3, 5, 6]],
    // Ana Lima, Bruno Okafor, Elena_Nakamura, Isabel Gone; unassigned last, by id.
    ['owner', [1, 2, 3, 7, 8, 4, 5, 6, 9, 10]],
    ['-owner', [8, 7, 3, 2, 1, 10, 9, 6, 5, 4]],
  ] as const)('sorts by %s', async (sort, expected) => {
    expect(ns(await list(`?sort=${sort}`))).toEqual(expected);
  });

  it('pages a sort consistently', async () => {
    const first = await list('?sort=owner&limit=4');
    const second = await list('?sort=owner&limit=4&page=2');
    expect([...ns(first), ...ns(second)]).toEqual([1, 2, 3, 7, 8, 4, 5, 6]);
  });
});

describe('terminal search (spec 5: six fields, case-insensitive substrings)', () => {
  const search = async (term: string, extra = '') => ns(await list(`?search=${encodeURIComponent(term)}${extra}`));

  it('matches the user terminal id, whole or in part, in any case', async () => {
    expect(await search(idOf(3))).toEqual([3]);
    expect(await search('t10000003')).toEqual([3]);
    expect(await search('ut1000001')).toEqual([10]);
  });

  it('matches the kit serial and the dish serial', async () => {
    expect(await search('kit7z9y8x')).toEqual([7, 8]);
    expect(await search('KIT4A1B2C0')).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await search('9f00005')).toEqual([5]);
    expect(await search('DSH9F0000')).toEqual([1, 2, 3, 5, 7, 8, 9, 6]);
  });

  it('matches the service line number', async () => {
    expect(await search(lineOf(4))).toEqual([4]);
    expect(await search('100007-00007')).toEqual([7]);
    expect(await search('ast-1000')).toHaveLength(9);
  });

  it("matches the assigned customer's id, whole or in part, in any case", async () => {
    expect(await search(people.ana)).toEqual([1, 2]);
    expect(await search(people.bruno.slice(4, 18).toUpperCase())).toEqual([3]);
  });

  it("matches the assigned customer's name, in part and in any case, including a deleted customer's", async () => {
    expect(await search('LIMA')).toEqual([1, 2]);
    expect(await search('okaf')).toEqual([3]);
    expect(await search('ana lima')).toEqual([1, 2]);
    expect(await search('isabel')).toEqual([8]);
  });

  it("does not match the customer's email or company, which the spec does not search", async () => {
    expect(await search('andes.example')).toEqual([]);
    expect(await search('northwind')).toEqual([]);
  });

  it('treats % and _ as themselves, not as wildcards', async () => {
    expect(await search('%')).toEqual([7]);
    expect(await search('100%')).toEqual([7]);
    expect(await search('_')).toEqual([7]);
    expect(await search('a_n')).toEqual([7]);
    // As wildcards these would match "Ana Lima" and every id.
    expect(await search('l_m')).toEqual([]);
    expect(await search('a%a')).toEqual([]);
    expect(await search('u%1')).toEqual([]);
    expect(await search('\\')).toEqual([]);
  });

  it('trims the term, strips control characters and ignores an empty one', async () => {
    expect(await search('  okafor  ')).toEqual([3]);
    expect(await search('oka\u0001for')).toEqual([3]);
    // A term cannot match across two fields.
    expect(await search(`${idOf(1).toLowerCase()}\u001fkit`)).toEqual([]);
    expect((await list('?search=')).totalCount).toBe(10);
    expect((await list('?search=%20%20')).totalCount).toBe(10);
  });

  it('answers an empty page with total 0 when nothing matches', async () => {
    expect(await list('?search=zzzz-nothing')).toEqual({ results: [], totalCount: 0, page: 1, limit: 25 });
  });

  it('counts matches exactly and pages them', async () => {
    const first = await list('?search=dsh9f0000&limit=3');
    expect(first.totalCount).toBe(8);
    const third = await list('?search=dsh9f0000&limit=3&page=3');
    expect(third).toMatchObject({ totalCount: 8, page: 3 });
    expect(ns(third)).toEqual([9, 6]);
  });

  it('combines search with filters and a sort', async () => {
    expect(await search('kit4a1b2c0', '&active=false')).toEqual([5, 6]);
    expect(await search('kit4a1b2c0', '&assigned=true&sort=-terminal_id')).toEqual([3, 2, 1]);
    expect(await search('lima', '&sync_status=pending')).toEqual([]);
  });
});

describe('terminal filters', () => {
  it('filters by active', async () => {
    expect(ns(await list('?active=true'))).toEqual([1, 2, 3, 4, 7, 8, 9]);
    expect(ns(await list('?active=false'))).toEqual([5, 10, 6]);
  });

  it('filters by assigned', async () => {
    expect(ns(await list('?assigned=true'))).toEqual([1, 2, 3, 7, 8]);
    expect(ns(await list('?assigned=false'))).toEqual([4, 5, 9, 10, 6]);
  });

  it.each([
    ['synced', [1, 2, 4, 7, 8, 9, 10]],
    ['pending', [3, 6]],
    ['error', [5]],
  ] as const)('filters sync_status=%s', async (status, expected) => {
    const page = await list(`?sync_status=${status}`);
    expect(ns(page)).toEqual(expected);
    expect(page.totalCount).toBe(expected.length);
  });

  it('combines filters and counts the combination exactly', async () => {
    const page = await list('?active=true&assigned=false&limit=1');
    expect(page.totalCount).toBe(2);
    expect(ns(page)).toEqual([4]);
  });
});

describe('available terminals', () => {
  it('lists the live unassigned terminals with the list page shape', async () => {
    const { status, body } = await get('/api/v1/terminals/available');
    expect(status).toBe(200);
    expect(body.message).toBe('Available terminals retrieved successfully');
    expect(ns(body.data)).toEqual([4, 5, 9, 10, 6]);
    expect(body.data).toMatchObject({ totalCount: 5, page: 1, limit: 25 });
  });

  it('takes search, active, sync_status, paging and sort, and ignores assigned', async () => {
    expect(ns(await list('?active=true', '/api/v1/terminals/available'))).toEqual([4, 9]);
    expect(ns(await list('?search=kit5q', '/api/v1/terminals/available'))).toEqual([9, 10]);
    expect(ns(await list('?sync_status=error', '/api/v1/terminals/available'))).toEqual([5]);
    expect(ns(await list('?sort=-terminal_id&limit=2&page=2', '/api/v1/terminals/available'))).toEqual([6, 5]);
    expect(ns(await list('?assigned=true', '/api/v1/terminals/available'))).toEqual([4, 5, 9, 10, 6]);
    expect(ns(await list('?search=lima', '/api/v1/terminals/available'))).toEqual([]);
  });
});

describe('fleet health', () => {
  it('computes every card from the whole live inventory', async () => {
    const { status, body } = await get('/api/v1/terminals/health');
    expect(status).toBe(200);
    expect(body.message).toBe('Fleet health retrieved successfully');
    const health: FleetHealth = body.data;
    expect(health).toEqual({
      total: 10,
      priority: 3,
      standard: 7,
      active: 4,
      warning: 2,
      maintenance: 1,
      inactive: 3,
      assigned: 5,
      unassigned: 5,
      // (0.95 + 0.60 + 0.85 + 0.92) / 4 over active terminals; the inactive and removed ones' are left out.
      averageSignalQuality: 83,
      // Of the five active terminals with a reading, 1, 3 and 7 reported within 60 s of it.
      networkUptime: 60,
      // Current cycles of live lines: 40.5 + 10.25 + 9.5 + 0.
      monthlyUsageGB: 60.25,
      // 3 of the 10 live terminals are on priority lines.
      priorityShare: 30,
      sync: { synced: 7, pending: 2, error: 1 },
      lastSync: expect.objectContaining({
        kind: 'inventory',
        status: 'succeeded',
        queuedAt: '2026-03-02T08:00:00.000Z',
        finishedAt: '2026-03-02T08:00:30.000Z',
        counts: { added: 10, updated: 1, unchanged: 0, removed: 1, failed: 0 },
        providerCalls: 4,
      }),
    });
  });

  it('measures the current billing cycle from the server clock', async () => {
    const start = ctx.clock.now();
    try {
      // 2026-03-15: line 1's cycle has ended and line 4's (1 + 1 GB) is current.
      ctx.clock.set('2026-03-15T12:00:00.000Z');
      const later = (await ctx.login('admin', admin.email, admin.password)).token as string;
      const health: FleetHealth = (await get('/api/v1/terminals/health', later)).body.data;
      expect(health).toMatchObject({ monthlyUsageGB: 11.5, priorityShare: 30 });
      ctx.clock.set('2027-01-01T00:00:00.000Z');
      const muchLater = (await ctx.login('admin', admin.email, admin.password)).token as string;
      expect((await get('/api/v1/terminals/health', muchLater)).body.data).toMatchObject({ monthlyUsageGB: null, priorityShare: 30 });
    } finally {
      ctx.clock.set(start);
    }
  });
});

describe('sync stats', () => {
  it('counts the live terminals by sync status', async () => {
    const { status, body } = await get('/api/v1/terminals/sync/stats');
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: { synced: 7, pending: 2, error: 1 }, message: 'Sync statistics retrieved successfully' });
  });
});

describe('one terminal', () => {
  it('answers the details dialog: owner, data cap, line, address, telemetry in percent', async () => {
    const { status, body } = await get(`/api/v1/terminals/${idOf(1)}`);
    expect(status).toBe(200);
    expect(body.message).toBe('Terminal retrieved successfully');
    const detail: TerminalDetailWire = body.data;
    expect(detail).toMatchObject({
      user_terminal_id: idOf(1),
      assigned_to: people.ana,
      assigned_to_customer: 'Ana Lima',
      owner: { uuid: people.ana, name: 'Ana Lima', company: 'Andes Copper' },
      dataCap: { amount: 50, unit: 'GB' },
      model: 'rev4_prod2',
      accountNumber: 'ACC-TEST-0001',
      serviceLine: {
        active: true,
        productReferenceId: 'PROD-PRIORITY-50',
        startDate: '2025-06-15T00:00:00.000Z',
        endDate: null,
        addressReferenceId: 'ADDR-ANDES-1',
      },
      address: { formattedAddress: 'Mina Norte, Antofagasta, Chile', region: 'Antofagasta', latitude: -23.65, longitude: -70.4 },
      telemetry: {
        reportedAt: '2026-03-02T07:59:45.000Z',
        signalQuality: 95,
        uptimeSeconds: 86_400,
        downlinkMbps: 180.5,
        uplinkMbps: 21.25,
        latencyMs: 32,
        obstructionPercent: 0.4,
        softwareVersion: '2026.02.1',
        alerts: [],
      },
      syncError: null,
      removedAt: null,
    });
  });

  it('answers nulls for what a terminal lacks, and its sync error', async () => {
    const six: TerminalDetailWire = (await get(`/api/v1/terminals/${idOf(6)}`)).body.data;
    expect(six).toMatchObject({ owner: null, dataCap: null, serviceLine: null, address: null, telemetry: null, service_line_number: null });
    const five: TerminalDetailWire = (await get(`/api/v1/terminals/${idOf(5)}`)).body.data;
    expect(five.syncError).toMatch(/could not be read/);
    expect(five.telemetry).toMatchObject({ signalQuality: 10, alerts: [] });
    const three: TerminalDetailWire = (await get(`/api/v1/terminals/${idOf(3)}`)).body.data;
    expect(three.telemetry?.alerts).toEqual(['alertMotorsStuck']);
    expect(three.owner).toEqual({ uuid: people.bruno, name: 'Bruno Okafor', company: 'Northwind Maritime' });
  });

  it('answers a removed terminal with removedAt set', async () => {
    const { status, body } = await get(`/api/v1/terminals/${idOf(99)}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ user_terminal_id: idOf(99), removedAt: '2026-03-01T00:00:00.000Z', sync_status: 'error' });
  });

  it('answers 404 "Terminal not found" to an unknown id', async () => {
    const { status, body } = await get('/api/v1/terminals/UT-NOPE-0001');
    expect(status).toBe(404);
    expect(body).toMatchObject({ success: false, message: 'Terminal not found' });
  });

  it('answers 400 to an id that is not a provider id', async () => {
    for (const bad of ['x', '-UT1', 'UT_1', 'UT%201', `U${'T'.repeat(64)}`]) {
      await badRequest(`/api/v1/terminals/${bad}`, 'Terminal id must be 2 to 64 letters, digits or dashes');
    }
  });

  it('routes /health, /available and /sync/stats to their own handlers, not to /{id}', async () => {
    expect((await get('/api/v1/terminals/health')).body.data).toHaveProperty('networkUptime');
    expect((await get('/api/v1/terminals/available')).body.data).toHaveProperty('results');
    expect((await get('/api/v1/terminals/sync/stats')).body.data).toEqual({ synced: 7, pending: 2, error: 1 });
  });
});

describe('bad list queries', () => {
  it.each([
    ['?page=0', 'page must be a whole number from 1 to 1000000'],
    ['?page=-2', 'page must be a whole number from 1 to 1000000'],
    ['?page=abc', 'page must be a whole number from 1 to 1000000'],
    ['?page=1.5', 'page must be a whole number from 1 to 1000000'],
    ['?page=', 'page must be a whole number from 1 to 1000000'],
    ['?limit=0', 'limit must be a whole number from 1 to 100'],
    ['?limit=101', 'limit must be a whole number from 1 to 100'],
    ['?limit=ten', 'limit must be a whole number from 1 to 100'],
    ['?active=yes', 'active must be true or false'],
    ['?active=1', 'active must be true or false'],
    ['?assigned=no', 'assigned must be true or false'],
    ['?sync=maybe', 'sync must be true or false'],
    ['?sync_status=done', 'sync_status must be one of synced, pending, error'],
    ['?sort=name', 'sort must be one of service_line, -service_line, terminal_id, -terminal_id, last_synced, -last_synced, owner, -owner'],
    [`?search=${'x'.repeat(101)}`, 'search must be at most 100 characters'],
    ['?search=a&search=b', 'search must be at most 100 characters'],
  ])('answers 400 to %s', async (query, message) => {
    await badRequest(`/api/v1/terminals${query}`, message);
  });

  it('answers 400 to the same bad values on /available', async () => {
    await badRequest('/api/v1/terminals/available?limit=500', 'limit must be a whole number from 1 to 100');
    await badRequest('/api/v1/terminals/available?sync_status=x', 'sync_status must be one of synced, pending, error');
    await badRequest('/api/v1/terminals/available?active=maybe', 'active must be true or false');
  });

  it('puts every problem of a bad query in errors[]', async () => {
    const { status, body } = await get('/api/v1/terminals?page=0&limit=500&sort=x');
    expect(status).toBe(400);
    expect(body.message).toBe('Validation failed');
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { path: 'page', message: 'page must be a whole number from 1 to 1000000' },
        { path: 'limit', message: 'limit must be a whole number from 1 to 100' },
        expect.objectContaining({ path: 'sort' }),
      ]),
    );
  });
});

describe('access', () => {
  const reads = [
    '/api/v1/terminals',
    '/api/v1/terminals/available',
    '/api/v1/terminals/health',
    '/api/v1/terminals/sync/stats',
    `/api/v1/terminals/${idOf(1)}`,
    `/api/v1/terminals/service-line/${lineOf(1)}/usage`,
  ];

  it.each(reads)('GET %s answers 401 without a token and 403 to a customer', async (url) => {
    const anonymous = await ctx.request({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false, message: 'Authentication required' });
    const customer = await ctx.request({ method: 'GET', url, token: customerToken });
    expect(customer.statusCode).toBe(403);
    expect(customer.json().success).toBe(false);
    const forged = await ctx.request({ method: 'GET', url, token: 'not-a-token' });
    expect(forged.statusCode).toBe(401);
  });

  it.each([
    [`/api/v1/terminals/${idOf(4)}/assign`, { customerId: '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11' }],
    [`/api/v1/terminals/${idOf(4)}/report-issue`, { note: 'Dish is loose' }],
  ])('POST %s answers 401 without a token and 403 to a customer', async (url, payload) => {
    expect((await ctx.request({ method: 'POST', url, payload })).statusCode).toBe(401);
    expect((await ctx.request({ method: 'POST', url, payload, token: customerToken })).statusCode).toBe(403);
  });

  it('documents every terminals route in the OpenAPI document', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/docs/json' });
    const paths = Object.keys(res.json().paths as Record<string, unknown>);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/api/v1/terminals',
        '/api/v1/terminals/available',
        '/api/v1/terminals/health',
        '/api/v1/terminals/sync/stats',
        '/api/v1/terminals/{id}',
        '/api/v1/terminals/{id}/assign',
        '/api/v1/terminals/{id}/report-issue',
        '/api/v1/terminals/service-line/{sl}/usage',
      ]),
    );
  });
});
