// The list past 10,000 terminals, where the count and paging strategies change: an unsearched
// list reports the planner's estimate instead of counting, searches stay exact, and deep pages
// in the back half are read from the far end. Every page must still be exactly the rows the
// plain forward order would give, for every sort (NULL placement included).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMINAL_SORTS, type TerminalPageWire, type TerminalSort } from '../../src/domain/terminals';
import { prng } from '../../server/random';
import { EXACT_COUNT_UP_TO } from '../../server/services/terminals';
import { createRepositories } from '../../server/db/repositories';
import { insertTerminalsBulk, type BulkTerminal } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';

const TOTAL = 10_800;
const LIMIT = 100;

let ctx: TestContext;
let token: string;
let live: (BulkTerminal & { ownerName: string | null })[];

beforeAll(async () => {
  ctx = await createTestContext();
  const admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token as string;
  // Mixed case on purpose: the owner order ignores case.
  const owners = await Promise.all(
    ['Zed Alpha', 'amy Beta', 'Bob Gamma', 'carl Delta'].map(async (name) => ({ id: (await ctx.createCustomer({ name, password: null })).id, name })),
  );
  const next = prng(42);
  const digits = (n: number) => String(Math.floor(next() * 10 ** n)).padStart(n, '0');
  const base = Date.parse('2026-02-01T00:00:00Z');
  // Short ids keep the trigram index small, so seeding stays quick on the embedded database.
  const rows = Array.from({ length: TOTAL }, (_, i) => {
    const owner = next() < 0.4 ? owners[Math.floor(next() * owners.length)]! : null;
    return {
      userTerminalId: `T${digits(3)}-${String(i).padStart(5, '0')}`,
      kitSerialNumber: `K${String(i).padStart(5, '0')}`,
      dishSerialNumber: null,
      // Few distinct lines: many ties for the id to break; some terminals have none.
      serviceLineNumber: next() < 0.03 ? null : `AST-${digits(3)}`,
      active: next() < 0.8,
      condition: 'active' as const,
      isPriority: false,
      assignedCustomerId: owner?.id ?? null,
      ownerName: owner?.name ?? null,
      syncStatus: 'synced' as const,
      lastSyncedAt: next() < 0.05 ? null : new Date(base + Math.floor(next() * 30 * 86_400) * 1000),
      plan: null,
      terminalType: null,
      removed: next() < 0.01,
    };
  });
  for (let i = 0; i < rows.length; i += 5_000) await insertTerminalsBulk(ctx.database.db, rows.slice(i, i + 5_000));
  // What the server does at start-up on the embedded database, and autovacuum on PostgreSQL.
  await ctx.database.exec('ANALYZE');
  live = rows.filter((r) => !r.removed);
}, 120_000);
afterAll(async () => {
  await ctx?.close();
});

async function list(query: string): Promise<TerminalPageWire> {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/terminals${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

type Row = (typeof live)[number];
type Key = { get: (r: Row) => string | number | null; descending: boolean; nullsFirst: boolean };
const k = (get: Key['get'], descending: boolean, nullsFirst = descending): Key => ({ get, descending, nullsFirst });
const id = (r: Row) => r.userTerminalId;
const line = (r: Row) => r.serviceLineNumber;
const synced = (r: Row) => r.lastSyncedAt?.getTime() ?? null;
const owner = (r: Row) => r.ownerName?.toLowerCase() ?? null;

/** The orders as the API defines them (src/domain/terminals.ts TERMINAL_SORTS), in plain code. */
const ORDERS: Record<TerminalSort, Key[]> = {
  service_line: [k(line, false), k(id, false)],
  '-service_line': [k(line, true), k(id, true)],
  terminal_id: [k(id, false)],
  '-terminal_id': [k(id, true)],
  last_synced: [k(synced, false, false), k(id, false)],
  '-last_synced': [k(synced, true, false), k(id, true)],
  owner: [k(owner, false, false), k(id, false)],
  '-owner': [k(owner, true, false), k(id, true)],
};

function sorted(rows: Row[], sort: TerminalSort): string[] {
  const keys = ORDERS[sort];
  return [...rows]
    .sort((a, b) => {
      for (const { get, descending, nullsFirst } of keys) {
        const x = get(a);
        const y = get(b);
        if (x === y) continue;
        if (x === null) return nullsFirst ? -1 : 1;
        if (y === null) return nullsFirst ? 1 : -1;
        const order = x < y ? -1 : 1;
        return descending ? -order : order;
      }
      return 0;
    })
    .map(id);
}

const ids = (page: TerminalPageWire) => page.results.map((r) => r.user_terminal_id);

describe('the terminals list past 10,000 terminals', () => {
  it('reports the planner estimate as the total of an unsearched first page, within 2 % of the count', async () => {
    const page = await list('');
    expect(live.length).toBeGreaterThan(EXACT_COUNT_UP_TO);
    expect(Math.abs(page.totalCount - live.length) / live.length).toBeLessThan(0.02);
    expect(ids(page)).toEqual(sorted(live, 'service_line').slice(0, 25));
  });

  it('counts searches exactly, however many match', async () => {
    const matching = live.filter((r) => r.serviceLineNumber !== null);
    expect(matching.length).toBeGreaterThan(EXACT_COUNT_UP_TO);
    expect((await list('?search=ast-')).totalCount).toBe(matching.length);
    expect((await list('?search=t0')).totalCount).toBe(live.filter((r) => r.userTerminalId.toLowerCase().includes('t0')).length);
  });

  it('counts filters the planner expects under 10,000 rows exactly', async () => {
    expect((await list('?active=false')).totalCount).toBe(live.filter((r) => !r.active).length);
    expect((await list('?assigned=true')).totalCount).toBe(live.filter((r) => r.assignedCustomerId).length);
  });

  it.each(TERMINAL_SORTS)('answers every deep page sorted by %s with the rows of the forward order, and the exact total', async (sort) => {
    const expected = sorted(live, sort);
    const lastPage = Math.ceil(live.length / LIMIT);
    // Forward (front half), far-end reads (back half past offset 10,000), the partly filled last page.
    for (const page of [1, 2, 60, 101, 105, lastPage - 1, lastPage]) {
      const data = await list(`?sort=${sort}&limit=${LIMIT}&page=${page}`);
      expect(ids(data), `page ${page}`).toEqual(expected.slice((page - 1) * LIMIT, page * LIMIT));
      if (page > 100) expect(data.totalCount, `page ${page}`).toBe(live.length);
    }
    expect(await list(`?sort=${sort}&limit=${LIMIT}&page=${lastPage + 1}`)).toEqual({
      results: [],
      totalCount: live.length,
      page: lastPage + 1,
      limit: LIMIT,
    });
  });

  it('reads a deep page of a search from the far end too', async () => {
    const matching = live.filter((r) => r.serviceLineNumber !== null);
    const expected = sorted(matching, '-last_synced');
    const lastPage = Math.ceil(matching.length / LIMIT);
    for (const page of [lastPage - 2, lastPage]) {
      const data = await list(`?search=AST-&sort=-last_synced&limit=${LIMIT}&page=${page}`);
      expect(ids(data)).toEqual(expected.slice((page - 1) * LIMIT, page * LIMIT));
      expect(data.totalCount).toBe(matching.length);
    }
  });
});

describe('the list query built once per shape', () => {
  it('answers every shape with its values as the query built for those values does', async () => {
    const repos = createRepositories(ctx.database.db);
    const searches = [undefined, 'amy', 'K0001', 'ast-1', 'zz'];
    const checked = new Set<string>();
    for (const [i, search] of searches.entries()) {
      for (const active of [null, true, false]) {
        for (const assigned of [null, true, false]) {
          const sort = TERMINAL_SORTS[(i + (active === null ? 0 : 1) + (assigned === null ? 0 : 2)) % TERMINAL_SORTS.length]!;
          const query = await repos.terminals.resolve({ search, active, assigned, syncStatus: assigned === false ? 'synced' : null });
          checked.add(query.named === 'many' ? 'many' : query.named.length > 0 ? 'ids' : 'no ids');
          for (const page of [{ sort, limit: 25, offset: 0 }, { sort, limit: 7, offset: 30 }]) {
            for (const reversed of [false, true]) {
              // A transaction takes the query built for its values; the database the shape's.
              const built = await ctx.database.db.transaction((tx) => repos.terminals.list(query, page, { reversed }, tx));
              const shaped = await repos.terminals.list(query, page, { reversed });
              expect(shaped).toEqual(built);
            }
          }
        }
      }
    }
    // Searches by a customer's name pass the customers' ids; the others do not.
    expect(checked).toEqual(new Set(['ids', 'no ids']));
  });
});
