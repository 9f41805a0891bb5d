// The audit log page's API: GET /api/v1/audit and its CSV export. Entries written by the
// real routes (an administrator changing and blocking a customer, sign-ins) and a fixed set written
// straight through the repository at known moments; each filter narrows to exactly the entries it
// should, alone and together; paging is newest first without gaps or repeats; only administrators
// read it; bad filters are 400s; the CSV holds the API's rows across export pages of 500; and no
// answer shows a password hash, MFA secret or token, even one stored by mistake.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_CSV_COLUMNS, AUDIT_EXPORT_PAGE, AUDIT_MESSAGES, REDACTED, type AuditEntryWire, type AuditListWire } from '../../src/domain/audit';
import { createRepositories } from '../../server/db/repositories';
import type { NewAuditRow } from '../../server/db/schema';
import { parseCsv } from '../fixtures/csv';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let adminToken = '';
let viewerToken = '';
let bystanderToken = '';
const ids = { admin: '', other: '', customer: '' };
let otherEmail = '';
let customerEmail = '';

/** Written straight to the log at known moments, newest last. */
const FIXED_DAY = ['2026-01-10', '2026-01-11', '2026-01-12'] as const;

async function list(query: string, token = adminToken): Promise<AuditListWire> {
  const response = await ctx.request({ method: 'GET', url: `/api/v1/audit${query}`, token });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { data: AuditListWire }).data;
}

/** Every entry of a filter, page after page. */
async function all(query: string): Promise<AuditEntryWire[]> {
  const joiner = query ? '&' : '?';
  const entries: AuditEntryWire[] = [];
  for (let page = 1; ; page++) {
    const data = await list(`${query}${joiner}limit=100&page=${page}`);
    entries.push(...data.entries);
    if (page >= data.pagination.pages) return entries;
  }
}

beforeAll(async () => {
  ctx = await createTestContext({ now: '2026-03-02T09:00:00.000Z' });
  const repos = createRepositories(ctx.database.db);
  const admin = await ctx.createAdmin({ name: 'Ada Admin' });
  const other = await ctx.createAdmin({ name: 'Otto Other' });
  const viewer = await ctx.createAdmin({ role: 'user', name: 'Vic Viewer' });
  const customer = await ctx.createCustomer({ name: 'Cora Customer' });
  ids.admin = admin.id;
  ids.other = other.id;
  ids.customer = customer.id;
  otherEmail = other.email;
  customerEmail = customer.email;
  adminToken = (await ctx.login('admin', admin.email, admin.password)).token!;
  viewerToken = (await ctx.login('admin', viewer.email, viewer.password)).token!;
  const bystander = await ctx.createCustomer({ name: 'Bo Bystander' });
  expect((await ctx.login('customer', customer.email, customer.password)).token).toBeTruthy();
  // The first customer is blocked below, which ends their session: the 403 is asked by another.
  bystanderToken = (await ctx.login('customer', bystander.email, bystander.password)).token!;

  // The real thing: an administrator renames the customer, then blocks them.
  ctx.clock.advanceMinutes(1);
  const renamed = await ctx.request({ method: 'PUT', url: `/api/v1/customers/${customer.id}`, token: adminToken, payload: { name: 'Cora Renamed' } });
  expect(renamed.statusCode, renamed.body).toBe(200);
  ctx.clock.advanceMinutes(1);
  const blocked = await ctx.request({ method: 'PUT', url: `/api/v1/customers/${customer.id}`, token: adminToken, payload: { blocked_enabled: true, blocked_reason: 'Unpaid' } });
  expect(blocked.statusCode, blocked.body).toBe(200);

  // A fixed set in January: the other administrator's changes, a system entry, and one holding
  // secrets a careless writer might have stored.
  const fixed: NewAuditRow[] = [
    { actorType: 'user', actorId: other.id, action: 'user.updated', targetType: 'user', targetId: admin.id, before: { name: 'A' }, after: { name: 'B' }, createdAt: new Date(`${FIXED_DAY[0]}T23:59:59.999Z`) },
    { actorType: 'system', actorId: null, action: 'system.demo_seeded', after: { users: 2 }, createdAt: new Date(`${FIXED_DAY[1]}T00:00:00.000Z`) },
    {
      actorType: 'user',
      actorId: other.id,
      action: 'user.password_set',
      targetType: 'user',
      targetId: other.id,
      before: { passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g', mfaSecret: 'v1:AAAAAAAAAAAA:BBBBBBBBBBBB:CCCCCCCCCCCC' },
      after: { email: other.email, token: 'setup-token-123456', nested: { backupCodes: ['1234-5678'], sessionToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln' }, note: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g' },
      createdAt: new Date(`${FIXED_DAY[2]}T12:00:00.000Z`),
    },
  ];
  await repos.audit.insertMany(fixed);
  // Enough entries on one day for the export to read more than one page of 500.
  const bulk: NewAuditRow[] = Array.from({ length: AUDIT_EXPORT_PAGE + 20 }, (_, i) => ({
    actorType: 'system',
    actorId: null,
    action: 'terminal.refreshed',
    targetType: 'terminal',
    targetId: `ut-bulk-${String(i).padStart(4, '0')}`,
    after: { i },
    // Several share a moment: the order must still be total (ties by id).
    createdAt: new Date(Date.parse('2026-02-01T00:00:00.000Z') + Math.floor(i / 3) * 1000),
  }));
  await repos.audit.insertMany(bulk);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe('GET /api/v1/audit', () => {
  it('lists newest first with the actor, the target and before/after of a real change', async () => {
    const data = await list('?action=customer.updated');
    expect(data.entries).toHaveLength(1);
    const [entry] = data.entries;
    expect(entry).toMatchObject({
      action: 'customer.updated',
      actor: { kind: 'user', id: ids.admin, name: 'Ada Admin' },
      target: { type: 'customer', id: ids.customer },
      before: { email: customerEmail, name: 'Cora Customer' },
      after: { email: customerEmail, name: 'Cora Renamed' },
    });
    expect(entry!.requestId).toEqual(expect.any(String));
    const newest = await list('?limit=3');
    expect(newest.entries.map((e) => e.action)).toEqual(['customer.blocked', 'customer.updated', 'customer.login']);
    const times = (await all('')).map((e) => e.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by actor: part of an email, a name or an id, any case', async () => {
    const byEmail = await all(`?actor=${encodeURIComponent(otherEmail.slice(2, 12).toUpperCase())}`);
    expect(byEmail.map((e) => e.action).sort()).toEqual(['auth.login', 'user.password_set', 'user.updated'].filter((a) => a !== 'auth.login').sort());
    const byName = await all('?actor=otto');
    expect(byName.map((e) => e.id)).toEqual(byEmail.map((e) => e.id));
    const byId = await all(`?actor=${ids.other.slice(0, 8)}`);
    expect(byId.map((e) => e.id)).toEqual(byEmail.map((e) => e.id));
    const customerSignIn = await all(`?actor=${encodeURIComponent(customerEmail)}`);
    expect(customerSignIn.map((e) => [e.action, e.actor.kind, e.actor.email])).toEqual([['customer.login', 'customer', customerEmail]]);
    expect((await all('?actor=bystander')).map((e) => e.action)).toEqual(['customer.login']);
    // LIKE's wildcards match themselves.
    expect(await all('?actor=%25')).toEqual([]);
  });

  it('filters by the kind of actor', async () => {
    const system = await all('?actorKind=system');
    expect(system).toHaveLength(AUDIT_EXPORT_PAGE + 21);
    expect(new Set(system.map((e) => e.actor.kind))).toEqual(new Set(['system']));
    const customers = await all('?actorKind=customer');
    expect(customers.map((e) => [e.action, e.actor.name])).toEqual([
      ['customer.login', 'Bo Bystander'],
      ['customer.login', 'Cora Renamed'],
    ]);
  });

  it('filters by one action or several, repeated or comma-separated', async () => {
    const one = await all('?action=customer.blocked');
    expect(one.map((e) => e.action)).toEqual(['customer.blocked']);
    expect(one[0]).toMatchObject({ before: { blockedEnabled: false }, after: { blockedEnabled: true, blockedReason: 'Unpaid' } });
    const repeated = await all('?action=customer.blocked&action=user.updated');
    const commas = await all('?action=customer.blocked,user.updated');
    expect(repeated.map((e) => e.action)).toEqual(['customer.blocked', 'user.updated']);
    expect(commas).toEqual(repeated);
  });

  it('filters by target type and id, each a part, any case', async () => {
    const customerTargets = await all('?targetType=CUSTOM');
    expect(customerTargets.map((e) => e.action)).toEqual(['customer.blocked', 'customer.updated', 'customer.login', 'customer.login']);
    const byId = await all(`?targetId=${ids.customer.slice(-6)}`);
    expect(byId.map((e) => e.action)).toEqual(['customer.blocked', 'customer.updated', 'customer.login']);
    const terminals = await all('?targetType=terminal&targetId=bulk-000');
    expect(terminals.map((e) => e.target.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `ut-bulk-000${i}`));
  });

  it('filters by UTC days, both ends inclusive', async () => {
    expect((await all(`?from=${FIXED_DAY[0]}&to=${FIXED_DAY[0]}`)).map((e) => e.action)).toEqual(['user.updated']);
    expect((await all(`?from=${FIXED_DAY[1]}&to=${FIXED_DAY[2]}`)).map((e) => e.action)).toEqual(['user.password_set', 'system.demo_seeded']);
    expect((await all(`?to=${FIXED_DAY[2]}`)).map((e) => e.action)).toEqual(['user.password_set', 'system.demo_seeded', 'user.updated']);
    const sinceMarch = await all('?from=2026-03-01');
    expect(sinceMarch.map((e) => e.action).sort()).toEqual(['auth.login', 'auth.login', 'customer.blocked', 'customer.login', 'customer.login', 'customer.updated']);
  });

  it('combines every filter', async () => {
    const query = `?actor=otto&actorKind=user&action=user.updated,user.password_set&targetType=user&targetId=${ids.admin.slice(0, 6)}&from=${FIXED_DAY[0]}&to=${FIXED_DAY[1]}`;
    expect((await all(query)).map((e) => e.action)).toEqual(['user.updated']);
    expect(await all(`${query}&actorKind=system`.replace('actorKind=user&', ''))).toEqual([]);
  });

  it('pages newest first with a total, without gaps or repeats', async () => {
    const first = await list('?actorKind=system&limit=100&page=1');
    expect(first.pagination).toEqual({ total: AUDIT_EXPORT_PAGE + 21, page: 1, limit: 100, pages: 6 });
    const everything = await all('?actorKind=system');
    expect(new Set(everything.map((e) => e.id)).size).toBe(everything.length);
    const last = await list('?actorKind=system&limit=100&page=6');
    expect(last.entries).toHaveLength(21);
    expect(last.entries.at(-1)!.action).toBe('system.demo_seeded');
    expect((await list('?actorKind=system&limit=100&page=7')).entries).toEqual([]);
    // Ties in time are ordered by id, newest first: the bulk rows come back in reverse insert order.
    const bulk = everything.filter((e) => e.action === 'terminal.refreshed').map((e) => e.target.id);
    expect(bulk).toEqual([...bulk].sort().reverse());
  });

  it('never shows a password hash, an MFA secret or a token, even one stored by mistake', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/v1/audit?action=user.password_set', token: adminToken });
    expect(response.statusCode).toBe(200);
    const [entry] = (response.json() as { data: AuditListWire }).data.entries;
    expect(entry!.before).toEqual({});
    expect(entry!.after).toEqual({ email: otherEmail, nested: {}, note: REDACTED });
    expect(response.body).not.toMatch(/argon2|v1:AAAA|setup-token-123456|1234-5678|eyJhbGci|passwordHash|mfaSecret/);
  });

  it('is for administrators only: 401 signed out, 403 for a portal user without the admin role and for a customer', async () => {
    for (const url of ['/api/v1/audit', '/api/v1/audit/export.csv']) {
      expect((await ctx.request({ method: 'GET', url })).statusCode).toBe(401);
      expect((await ctx.request({ method: 'GET', url, token: viewerToken })).statusCode).toBe(403);
      expect((await ctx.request({ method: 'GET', url, token: bystanderToken })).statusCode).toBe(403);
    }
  });

  it('answers a bad filter with 400 and its message', async () => {
    const cases: [string, string][] = [
      ['?action=customer.nonsense', AUDIT_MESSAGES.action('customer.nonsense')],
      ['?action=customer.updated,drop table', AUDIT_MESSAGES.action('drop table')],
      [`?action=${Array.from({ length: 21 }, () => 'customer.updated').join('&action=')}`, AUDIT_MESSAGES.tooManyActions],
      ['?actorKind=robot', AUDIT_MESSAGES.actorKind],
      ['?from=2026-02-30', AUDIT_MESSAGES.day('from')],
      ['?to=yesterday', AUDIT_MESSAGES.day('to')],
      ['?from=2026-03-02&to=2026-03-01', AUDIT_MESSAGES.range],
      [`?actor=${'x'.repeat(321)}`, AUDIT_MESSAGES.actor],
      [`?targetId=${'x'.repeat(201)}`, AUDIT_MESSAGES.targetId],
      ['?limit=101', AUDIT_MESSAGES.limit],
      ['?page=0', ''],
    ];
    for (const [query, message] of cases) {
      for (const path of ['/api/v1/audit', '/api/v1/audit/export.csv']) {
        if (path.endsWith('.csv') && /page|limit/.test(query)) continue;
        const response = await ctx.request({ method: 'GET', url: `${path}${query}`, token: adminToken });
        expect(response.statusCode, `${path}${query}`).toBe(400);
        const body = response.json() as { success: boolean; message: string; errors?: { message: string }[] };
        expect(body.success).toBe(false);
        if (message) expect(JSON.stringify(body), `${path}${query}`).toContain(message);
      }
    }
  });
});

describe('GET /api/v1/audit/export.csv', () => {
  it('holds the same rows as the API, across export pages of 500, with the filter applied', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/v1/audit/export.csv', token: adminToken });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-log-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...records] = parseCsv(response.body);
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    const api = await all('');
    expect(api.length).toBeGreaterThan(AUDIT_EXPORT_PAGE);
    expect(records.map((r) => [r[0], r[5], r[8]])).toEqual(api.map((e) => [e.createdAt, e.action, e.target.id ?? '']));
    expect(new Set(records.map((r) => r.join('|'))).size).toBe(records.length);

    const filtered = parseCsv((await ctx.request({ method: 'GET', url: '/api/v1/audit/export.csv?action=customer.blocked', token: adminToken })).body);
    expect(filtered).toHaveLength(2);
    const row = Object.fromEntries(AUDIT_CSV_COLUMNS.map((column, i) => [column, filtered[1]![i]]));
    expect(row).toMatchObject({ 'Actor kind': 'user', Actor: 'Ada Admin', 'Actor id': ids.admin, Action: 'customer.blocked', 'Action label': 'Customer blocked', 'Target type': 'customer', 'Target id': ids.customer });
    expect(row['Changed fields']!.split(' ').sort()).toEqual(['blockedEnabled', 'blockedReason']);
    expect(JSON.parse(row.After!)).toMatchObject({ blockedEnabled: true, blockedReason: 'Unpaid' });
  });

  it('redacts secrets in the file as on the page', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/v1/audit/export.csv?action=user.password_set', token: adminToken });
    expect(response.body).toContain(REDACTED);
    expect(response.body).not.toMatch(/argon2|v1:AAAA|setup-token-123456|1234-5678|eyJhbGci|passwordHash|mfaSecret/);
  });

  it('is an empty file with its header when nothing matches', async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/v1/audit/export.csv?from=2020-01-01&to=2020-01-01', token: adminToken });
    expect(parseCsv(response.body)).toEqual([[...AUDIT_CSV_COLUMNS]]);
  });
});
