// GET /api/v1/search, the command palette's search: every kind found by a part
// of it, the ranking, portal users for administrators only, bad queries, and who may ask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_MESSAGES, SEARCH_QUERY_MAX_LENGTH, type SearchAnswerWire, type SearchResultWire } from '../../src/domain/search';
import { insertTerminals, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let adminToken: string;
let userToken: string;
let customerToken: string;
const ids: Record<string, string> = {};

const KIT = 'KQX7W3E9R2T5';
const DISH = 'DSHM4N8B2V6C';
const LINE = 'AST-555001-77001-11';

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.createAdmin({ name: 'Root Admin' });
  adminToken = (await ctx.login('admin', admin.email, admin.password)).token as string;
  const user = await ctx.createAdmin({ name: 'Plain User', role: 'user' });
  userToken = (await ctx.login('admin', user.email, user.password)).token as string;
  await ctx.createAdmin({ name: 'Marta Quillfeather', email: 'marta.quill@ops.example', role: 'user' });
  await ctx.createAdmin({ name: 'Gone Quill', email: 'gone.quill@ops.example', deletedAt: ctx.clock.now() });
  const customer = await ctx.createCustomer({ password: 'Customer-pass-1' });
  customerToken = (await ctx.login('customer', customer.email, 'Customer-pass-1')).token as string;

  const make = async (key: string, name: string, extra: Record<string, unknown> = {}) => {
    ids[key] = (await ctx.createCustomer({ name, company: 'Test Company Ltd', password: null, ...extra })).id;
  };
  await make('substring', 'Apolaris Trading');
  await make('word', 'North Polaris');
  await make('exact', 'Polaris');
  await make('prefix', 'Polaris Shipping');
  await make('gone', 'Polaris Gone', { deletedAt: ctx.clock.now() });
  await make('owner', 'Harbour Freight', { company: 'Kestrel Logistics' });

  await insertTerminals(ctx.database.db, [
    terminalRow({ userTerminalId: 'UTSEARCH0001', kitSerialNumber: KIT, dishSerialNumber: DISH, serviceLineNumber: LINE, assignedCustomerId: ids.owner }),
    terminalRow({ userTerminalId: 'UTSEARCH0002', kitSerialNumber: 'KZZ000000001', dishSerialNumber: null, serviceLineNumber: LINE }),
    // Removed: never found.
    terminalRow({ userTerminalId: 'UTSEARCH0099', kitSerialNumber: `X${KIT}`, serviceLineNumber: null, removedAt: ctx.clock.now() }),
  ]);
});
afterAll(async () => {
  await ctx?.close();
});

async function search(q: string, token = adminToken) {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/search?q=${encodeURIComponent(q)}`, token });
  return { status: res.statusCode, body: res.json() };
}

async function results(q: string, token = adminToken): Promise<SearchResultWire[]> {
  const { status, body } = await search(q, token);
  expect(status, JSON.stringify(body)).toBe(200);
  expect(body).toMatchObject({ success: true, message: SEARCH_MESSAGES.found });
  return (body.data as SearchAnswerWire).results;
}

const ofKind = (found: SearchResultWire[], kind: SearchResultWire['kind']) => found.filter((r) => r.kind === kind);

describe('each kind found by a part of it', () => {
  it('finds a kit serial by its middle six characters, opened by its terminal', async () => {
    const found = await results(KIT.slice(3, 9));
    expect(ofKind(found, 'kit')).toEqual([{ kind: 'kit', id: 'UTSEARCH0001', label: KIT, detail: `Terminal UTSEARCH0001 · ${LINE} · Harbour Freight` }]);
  });

  it('finds a dish serial by a part of it, with its kit on the secondary line', async () => {
    const found = await results('n8b2v');
    expect(ofKind(found, 'dish')).toEqual([{ kind: 'dish', id: 'UTSEARCH0001', label: DISH, detail: `Kit ${KIT} · ${LINE} · Harbour Freight` }]);
  });

  it('finds a service line by a part of it, once however many terminals are on it', async () => {
    const found = await results('555001-77');
    const lines = ofKind(found, 'serviceLine');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ kind: 'serviceLine', label: LINE });
    expect(['UTSEARCH0001', 'UTSEARCH0002']).toContain(lines[0]!.id);
  });

  it('finds a customer by a part of the company, opened by its id', async () => {
    const found = await results('estrel log');
    expect(ofKind(found, 'customer')).toEqual([{ kind: 'customer', id: ids.owner, label: 'Harbour Freight', detail: expect.stringContaining('Kestrel Logistics') }]);
  });

  it('finds a portal user by a part of the email, opened by the email', async () => {
    const found = await results('quill@ops');
    expect(ofKind(found, 'user')).toEqual([{ kind: 'user', id: 'marta.quill@ops.example', label: 'Marta Quillfeather', detail: 'marta.quill@ops.example · User' }]);
  });

  it('never answers removed terminals, deleted customers or deleted users', async () => {
    expect((await results(`X${KIT}`)).filter((r) => r.id === 'UTSEARCH0099')).toEqual([]);
    expect((await results('Polaris Gone')).map((r) => r.label)).not.toContain('Polaris Gone');
    expect((await results('gone.quill')).map((r) => r.id)).not.toContain('gone.quill@ops.example');
  });

  it('finds a term too short for the trigram index anywhere in a field', async () => {
    expect(ofKind(await results('v6'), 'dish').map((r) => r.label)).toEqual([DISH]);
    expect(ofKind(await results('Q'), 'user').map((r) => r.label)).toEqual(['Marta Quillfeather']);
  });

  it('reads %, _ and regular-expression characters as themselves', async () => {
    expect(await results('%')).toEqual([]);
    expect(await results('_')).toEqual([]);
    expect(await results('(.*')).toEqual([]);
  });
});

describe('ranking', () => {
  it('puts the whole match first, then a start, then a word start, then a match inside', async () => {
    const labels = ofKind(await results('polaris'), 'customer').map((r) => r.label);
    expect(labels).toEqual(['Polaris', 'Polaris Shipping', 'North Polaris', 'Apolaris Trading']);
  });

  it('ranks a whole kit serial above what merely holds it', async () => {
    await insertTerminals(ctx.database.db, [
      terminalRow({ userTerminalId: 'UTSEARCH0003', kitSerialNumber: 'ZRANKKIT5501', serviceLineNumber: null }),
      terminalRow({ userTerminalId: 'UTSEARCH0004', kitSerialNumber: 'RANKKIT55019', serviceLineNumber: null }),
      terminalRow({ userTerminalId: 'UTSEARCH0005', kitSerialNumber: 'RANKKIT5501', serviceLineNumber: null }),
    ]);
    const kits = ofKind(await results('rankkit5501'), 'kit');
    expect(kits.map((r) => r.label)).toEqual(['RANKKIT5501', 'RANKKIT55019', 'ZRANKKIT5501']);
  });

  it('answers at most 20 results', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => terminalRow({ userTerminalId: `UTMANY${String(i).padStart(4, '0')}`, kitSerialNumber: `MANYKIT${i}`, dishSerialNumber: `MANYDISH${i}`, serviceLineNumber: `MANY-LINE-${i}` }));
    await insertTerminals(ctx.database.db, rows);
    const found = await results('many');
    expect(found.length).toBeLessThanOrEqual(20);
    expect(found.length).toBeGreaterThan(8);
    for (const kind of ['kit', 'dish', 'serviceLine'] as const) expect(ofKind(found, kind).length).toBeLessThanOrEqual(8);
  });
});

describe('portal users in the answers', () => {
  it('are answered to administrators', async () => {
    expect(ofKind(await results('quill'), 'user').map((r) => r.label)).toEqual(['Marta Quillfeather']);
  });

  it('are never answered to portal users without the admin role, who get the rest', async () => {
    expect(ofKind(await results('quill', userToken), 'user')).toEqual([]);
    expect(ofKind(await results('Plain User', userToken), 'user')).toEqual([]);
    expect(ofKind(await results(KIT.slice(3, 9), userToken), 'kit')).toHaveLength(1);
  });
});

describe('bad queries and callers', () => {
  it.each([
    ['an empty q', '?q='],
    ['a q of spaces', '?q=%20%20%20'],
    ['no q', ''],
    ['a q one character too long', `?q=${'a'.repeat(SEARCH_QUERY_MAX_LENGTH + 1)}`],
    ['two q', '?q=a&q=b'],
  ])('refuses %s with 400', async (_what, query) => {
    const res = await ctx.request({ method: 'GET', url: `/api/v1/search${query}`, token: adminToken });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: `Validation failed: ${SEARCH_MESSAGES.query}` });
  });

  it('takes a q of exactly 100 characters, and one padded with spaces', async () => {
    expect((await search('a'.repeat(SEARCH_QUERY_MAX_LENGTH))).status).toBe(200);
    expect(ofKind(await results(`  ${KIT}  `), 'kit')).toHaveLength(1);
  });

  it('refuses a request without a token with 401, and a customer with 403', async () => {
    const anonymous = await ctx.request({ method: 'GET', url: '/api/v1/search?q=polaris' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false });
    expect((await search('polaris', customerToken)).status).toBe(403);
  });
});
