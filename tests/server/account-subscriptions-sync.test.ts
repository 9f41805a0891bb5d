// The Account filter and column of the Subscriptions list and its export, the plans of each
// account (a line moves only to a plan of its own account), and the sync history and budget of
// one account, over HTTP on a portal holding two provider accounts that list the same product
// references in different currencies.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncBudget } from '../../src/domain/provider-budget';
import { SUBSCRIPTION_MESSAGES, type SubscriptionListWire, type SubscriptionPlanWire } from '../../src/domain/subscriptions';
import type { SyncQueue } from '../../src/domain/terminals';
import { insertProduct, insertServiceLines, insertTerminals, terminalRow } from '../fixtures/terminals';
import { BAD_ACCOUNT, LINE_ONE, LINE_TWO, SECOND, portalWithTwoAccounts, type TwoAccounts } from './account-lists';
import type { TestContext } from './helpers';

let ctx: TestContext;
let get: TwoAccounts['get'];
let refusal: TwoAccounts['refusal'];
let token: string;
let firstName: string;
beforeAll(async () => {
  ({ ctx, get, refusal, token, firstName } = await portalWithTwoAccounts());
  const db = ctx.database.db;
  // Both accounts list P-50, each in its own currency; P-1TB is account one's alone, P-BR account two's.
  await insertProduct(db, { productReferenceId: 'P-50', name: 'Local Priority 50 GB', price: 65, isoCurrencyCode: 'USD' });
  await insertProduct(db, { productReferenceId: 'P-1TB', name: 'Local Priority 1 TB', price: 165, isoCurrencyCode: 'USD' });
  await insertProduct(db, { productReferenceId: 'P-50', accountId: SECOND.id, name: 'Prioridade Local 50 GB', price: 320, isoCurrencyCode: 'BRL' });
  await insertProduct(db, { productReferenceId: 'P-BR', accountId: SECOND.id, name: 'Prioridade Local 1 TB', price: 810, isoCurrencyCode: 'BRL' });
  await insertServiceLines(db, [
    { serviceLineNumber: LINE_ONE, productReferenceId: 'P-50' },
    { serviceLineNumber: LINE_TWO, productReferenceId: 'P-50', accountId: SECOND.id },
  ]);
  await insertTerminals(db, [
    terminalRow({ userTerminalId: 'UT-SUB-ONE', serviceLineNumber: LINE_ONE, productReferenceId: 'P-50', dataCapAmount: 50, dataCapUnit: 'GB' }),
    terminalRow({ userTerminalId: 'UT-SUB-TWO', serviceLineNumber: LINE_TWO, productReferenceId: 'P-50', dataCapAmount: 50, dataCapUnit: 'GB', accountId: SECOND.id }),
  ]);
  // Runs of each account, the newest account two's.
  await db.execute(sql`
    INSERT INTO sync_runs (kind, account_id, trigger, status, queued_at, started_at, finished_at, provider_calls)
    VALUES ('inventory', 1, 'manual', 'succeeded', '2026-03-01T10:00:00Z', '2026-03-01T10:00:01Z', '2026-03-01T10:01:00Z', 12),
           ('inventory', ${SECOND.id}, 'schedule', 'failed', '2026-03-01T11:00:00Z', '2026-03-01T11:00:01Z', '2026-03-01T11:00:30Z', 3)`);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe('the Subscriptions list', () => {
  it("names each row's account and filters by it; an unknown account matches nothing, a malformed one is a 400", async () => {
    const all = await get<SubscriptionListWire>('/subscriptions');
    expect(all.subscriptions.map((s) => [s.terminalId, s.accountId, s.accountName]).sort()).toEqual([
      ['UT-SUB-ONE', 1, firstName],
      ['UT-SUB-TWO', SECOND.id, SECOND.name],
    ]);
    // Each row is priced in its own account's currency.
    expect(all.subscriptions.find((s) => s.accountId === SECOND.id)?.currency).toBe('BRL');
    const second = await get<SubscriptionListWire>(`/subscriptions?account_id=${SECOND.id}`);
    expect(second.subscriptions.map((s) => s.terminalId)).toEqual(['UT-SUB-TWO']);
    expect(second.pagination.total).toBe(1);
    expect((await get<SubscriptionListWire>('/subscriptions?account_id=99')).subscriptions).toEqual([]);
    expect(await refusal('/subscriptions?account_id=x')).toEqual({ status: 400, message: expect.stringContaining(BAD_ACCOUNT) as string });
  });

  /** The export of the second account's rows: its one terminal, and an Account column naming the account. */
  async function exportsSecondAccountOnly(list: 'subscriptions' | 'terminals') {
    const response = await ctx.request({ method: 'GET', url: `/api/v1/${list}/export.csv?account_id=${SECOND.id}`, token });
    expect(response.statusCode, response.body).toBe(200);
    const [header, ...rows] = response.body.trim().split(/\r?\n/);
    expect(header!.split(',').at(-1)).toBe('Account');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('UT-SUB-TWO');
    expect(rows[0]!.endsWith(SECOND.name)).toBe(true);
  }

  it('exports the filtered rows with an Account column', async () => {
    await exportsSecondAccountOnly('subscriptions');
    expect((await refusal('/subscriptions/export.csv?account_id=0')).status).toBe(400);
  });

  it("exports one account's terminals with an Account column, as the Terminals list filters them", async () => {
    await exportsSecondAccountOnly('terminals');
  });
});

describe('the plans of each account', () => {
  const ids = (plans: SubscriptionPlanWire[]) => plans.map((p) => [p.productReferenceId, p.currency]);

  it("lists one account's plans in its currency; the first account's when none is named", async () => {
    expect(ids(await get<SubscriptionPlanWire[]>(`/subscriptions/plans?account_id=${SECOND.id}`))).toEqual([
      ['P-50', 'BRL'],
      ['P-BR', 'BRL'],
    ]);
    expect(ids(await get<SubscriptionPlanWire[]>('/subscriptions/plans'))).toEqual([
      ['P-50', 'USD'],
      ['P-1TB', 'USD'],
    ]);
    expect(await get<SubscriptionPlanWire[]>('/subscriptions/plans?account_id=99')).toEqual([]);
    expect((await refusal('/subscriptions/plans?account_id=-1')).status).toBe(400);
  });

  it("refuses to move a line to a plan only another account offers, before asking the provider", async () => {
    const change = (line: string, productReferenceId: string) =>
      ctx.request({ method: 'PUT', url: `/api/v1/subscriptions/${line}/plan`, token, payload: { productReferenceId } });
    const ontoAccountOnesPlan = await change(LINE_TWO, 'P-1TB');
    expect(ontoAccountOnesPlan.statusCode, ontoAccountOnesPlan.body).toBe(400);
    expect(ontoAccountOnesPlan.json().message).toContain(SUBSCRIPTION_MESSAGES.unknownPlan);
    const ontoAccountTwosPlan = await change(LINE_ONE, 'P-BR');
    expect(ontoAccountTwosPlan.statusCode, ontoAccountTwosPlan.body).toBe(400);
    // Its own account's plan passes the check (and then needs a provider this portal lacks).
    expect((await change(LINE_TWO, 'P-BR')).statusCode).toBe(503);
  });
});

describe('the sync history and budget', () => {
  it('names the account of each run and filters the history by it', async () => {
    const all = await get<SyncQueue>('/terminals/sync/queue');
    expect(all.recent.map((r) => [r.accountId, r.accountName, r.status])).toEqual([
      [SECOND.id, SECOND.name, 'failed'],
      [1, firstName, 'succeeded'],
    ]);
    const first = await get<SyncQueue>('/terminals/sync/queue?account_id=1');
    expect(first.recent.map((r) => r.accountId)).toEqual([1]);
    expect((await get<SyncQueue>('/terminals/sync/queue?account_id=99')).recent).toEqual([]);
    expect(await refusal('/terminals/sync/queue?account_id=1.5')).toEqual({ status: 400, message: expect.stringContaining(BAD_ACCOUNT) as string });
  });

  it("answers the budget of the account asked for, the first account's by default", async () => {
    const second = await get<SyncBudget>(`/terminals/sync/budget?account_id=${SECOND.id}`);
    expect(second.budget.requestsPerMinute).toBe(SECOND.requestsPerMinute);
    expect(second.inventory.lastRun).toMatchObject({ status: 'failed', providerCalls: 3 });
    const first = await get<SyncBudget>('/terminals/sync/budget');
    expect(first.budget.requestsPerMinute).not.toBe(SECOND.requestsPerMinute);
    expect(first.inventory.lastRun).toMatchObject({ status: 'succeeded', providerCalls: 12 });
    expect((await refusal('/terminals/sync/budget?account_id=abc')).status).toBe(400);
  });
});
