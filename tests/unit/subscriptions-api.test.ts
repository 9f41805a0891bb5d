import { describe, expect, it } from 'vitest';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import { normalisePlan, normaliseSubscription, normaliseSubscriptionPage } from '../../src/api/subscriptions';
import { apiAnswering, envelope } from '../fixtures/api-fetch';
import { plan1TB, plan50, SL, subscription, subscriptionPage } from '../fixtures/subscriptions-client';

describe('normaliseSubscription', () => {
  it('reads a row as the server sends it', () => {
    expect(normaliseSubscription(subscription())).toEqual(subscription());
  });

  it('reads snake_case fields and fills what is missing with safe defaults', () => {
    const row = normaliseSubscription({
      terminal_id: 'UT-9',
      service_line_number: 'AST-9',
      monthly_data_gb: 1000,
      used_gb: '12.5',
      terminal_type: 'Satellite Phone',
      status: 'Mystery',
      billing_cycle: { start_date: '2026-11-01', end_date: '2026-11-30' },
    });
    expect(row).toMatchObject({
      terminalId: 'UT-9',
      serviceLineNumber: 'AST-9',
      plan: '1 TB',
      monthlyDataGB: 1000,
      usedGB: 12.5,
      terminalType: null,
      // Not known to be within its plan is not shown as Active.
      status: 'Suspended',
      currency: 'USD',
      billingCycle: { startDate: '2026-11-01', endDate: '2026-11-30' },
      forecast: null,
    });
  });

  it('skips rows naming no terminal nor line, or no plan size', () => {
    expect(normaliseSubscription({ monthlyDataGB: 50 })).toBeNull();
    expect(normaliseSubscription({ terminalId: 'UT-1' })).toBeNull();
    expect(normaliseSubscription('UT-1')).toBeNull();
  });
});

describe('normaliseSubscriptionPage and normalisePlan', () => {
  it('skips unreadable rows and keeps the pagination and summary', () => {
    const page = normaliseSubscriptionPage({ ...subscriptionPage(), subscriptions: [subscription(), null, { location: 'x' }] });
    expect(page?.subscriptions).toEqual([subscription()]);
    expect(page?.summary).toEqual(subscriptionPage().summary);
  });

  it('an answer without a subscriptions list is a failure, not an empty page', () => {
    expect(normaliseSubscriptionPage({ rows: [] })).toBeNull();
    expect(normaliseSubscriptionPage([])).toBeNull();
  });

  it('reads plans and skips those without an id or a size', () => {
    expect(normalisePlan(plan1TB)).toEqual(plan1TB);
    expect(normalisePlan({ product_reference_id: 'p', monthly_data_gb: 50 })).toEqual({ productReferenceId: 'p', name: '50 GB', monthlyDataGB: 50, price: null, currency: 'USD' });
    expect(normalisePlan({ name: 'No id', monthlyDataGB: 50 })).toBeNull();
  });
});

describe('subscriptions api', () => {
  it('list asks for the page with its search, plan, over-plan and account filters', async () => {
    const { api, sent } = apiAnswering(200, envelope(subscriptionPage()));
    const result = await api.subscriptions.list({ page: 2, limit: 25, search: '  lisbon ', plan: '1tb', overPlan: true, accountId: 2 });
    expect(sent()).toMatchObject({
      path: '/api/v1/subscriptions',
      method: 'GET',
      query: { page: '2', limit: '25', search: 'lisbon', plan: '1tb', over_plan: 'true', account_id: '2' },
    });
    expect(result).toMatchObject({ ok: true, data: subscriptionPage() });
  });

  it('list leaves out the filters not chosen', async () => {
    const { api, sent } = apiAnswering(200, envelope(subscriptionPage()));
    await api.subscriptions.list({ search: ' ', plan: 'all', overPlan: false });
    expect(sent().query).toEqual({ page: '1', limit: '25' });
  });

  it('list reads an unreadable answer as a failure', async () => {
    const { api } = apiAnswering(200, envelope({ nothing: true }));
    expect(await api.subscriptions.list()).toMatchObject({ ok: false, message: UNEXPECTED_RESPONSE });
  });

  it('plans reads the offered plans', async () => {
    const { api, sent } = apiAnswering(200, envelope([plan50, { name: 'broken' }, plan1TB]));
    expect(await api.subscriptions.plans()).toMatchObject({ ok: true, data: [plan50, plan1TB] });
    expect(sent().path).toBe('/api/v1/subscriptions/plans');
    expect(sent().query).toEqual({});
  });

  it("plansOf asks for one account's plans", async () => {
    const { api, sent } = apiAnswering(200, envelope([plan50]));
    await api.subscriptions.plansOf(2);
    expect(sent()).toMatchObject({ path: '/api/v1/subscriptions/plans', query: { account_id: '2' } });
  });

  it('reads the account of a row, and a row naming none as of no known account', () => {
    expect(normaliseSubscription({ ...subscription(), accountId: undefined, account_id: 2, accountName: undefined, account_name: 'Demo Brasil' })).toMatchObject({ accountId: 2, accountName: 'Demo Brasil' });
    expect(normaliseSubscription({ ...subscription(), accountId: 0, accountName: '' })).toMatchObject({ accountId: null, accountName: null });
  });

  it('changePlan puts the product on the line and reads the changed subscription', async () => {
    const changed = subscription({ plan: '1 TB', productReferenceId: 'prod-1tb', monthlyDataGB: 1000, status: 'Active' });
    const { api, sent } = apiAnswering(200, envelope({ subscription: changed }));
    const result = await api.subscriptions.changePlan(SL, 'prod-1tb');
    expect(sent()).toMatchObject({ path: `/api/v1/subscriptions/${SL}/plan`, method: 'PUT', body: { productReferenceId: 'prod-1tb' } });
    expect(result).toMatchObject({ ok: true, data: changed });
  });

  it("changePlan passes on the provider's refusal as its message", async () => {
    const { api } = apiAnswering(422, { success: false, message: 'Product is not available for this service line' });
    expect(await api.subscriptions.changePlan(SL, 'prod-1tb')).toMatchObject({ ok: false, status: 422, message: 'Product is not available for this service line' });
  });
});
