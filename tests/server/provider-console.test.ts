// The provider console endpoints against the built-in simulator over real HTTP, through the real client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStarlinkClient, type StarlinkClient } from '../../server/provider';
import { startSimulator, type RunningSimulator } from '../../server/simulator';
import type { ServiceLineSearchResponse, UserTerminalsResponse } from '../../src/domain/provider-console';
import { createTestContext, type TestContext } from './helpers';

let sim: RunningSimulator;
let client: StarlinkClient;
let ctx: TestContext;
let admin: string;

// Provider failures must surface quickly in these tests, but a slow answer on a loaded CI machine
// is not a failure: the time limit is generous except in the test that is about it.
const clientFor = (timeoutMs: number) =>
  createStarlinkClient({
    apiUrl: sim.baseUrl,
    tokenUrl: sim.tokenUrl,
    ...sim.credentials,
    maxRetries: 1,
    backoffBaseMs: 1,
    backoffMaxMs: 5,
    timeoutMs,
  });

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = clientFor(15_000);
  ctx = await createTestContext({ provider: { kind: 'simulator', client: () => client } });
  await ctx.createAdmin({ email: 'console.admin@example.com', password: 'Console-Passw0rd' });
  admin = (await ctx.login('admin', 'console.admin@example.com', 'Console-Passw0rd')).token!;
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

const search = (serviceLineNumber: unknown, token = admin) =>
  ctx.request({ method: 'POST', url: '/api/v1/starlink-simulator/search', payload: { serviceLineNumber }, token });

describe('provider console: service line search', () => {
  it('finds a known service line with details, daily usage, stats, metadata and the raw provider answers', async () => {
    const sl = sim.fleet.examples().activeServiceLineNumber;
    const res = await search(sl);
    expect(res.statusCode).toBe(200);
    const data = res.json().data as ServiceLineSearchResponse;
    expect(data).toMatchObject({ success: true, serviceLineFound: true, error: null });
    expect(data.serviceLineDetails).toMatchObject({ serviceLineNumber: sl, active: true, status: 'Active' });
    expect(data.serviceLineDetails?.userTerminalId).toBeTruthy();
    expect(data.serviceLineDetails?.billingCycle.start).toBeTruthy();
    expect(data.serviceLineDetails?.account?.accountNumber).toBe(sim.fleet.accountNumber);
    expect(data.metadata).toMatchObject({ apiVersion: 'v2', accountNumber: sim.fleet.accountNumber });
    expect(data.apiCallDuration).toBeGreaterThanOrEqual(0);
    expect((data.rawApiResponses.serviceLineDetails as { content: { serviceLineNumber: string } }).content.serviceLineNumber).toBe(sl);
    expect(data.usageData.length).toBeGreaterThan(0);
    expect(data.usageStats.totalRecords).toBe(data.usageData.length);
    const sum = Math.round(data.usageData.reduce((s, r) => s + r.total_gb, 0) * 100) / 100;
    expect(data.usageStats.totalUsageGB).toBeCloseTo(sum, 2);
    // Newest first, one record per day in the 0:00 bucket (the provider reports daily totals).
    const dates = data.usageData.map((r) => r.usage_date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(new Set(data.usageData.map((r) => r.data_bucket))).toEqual(new Set([0]));
  });

  it('answers a service line the provider does not know with serviceLineFound false', async () => {
    const res = await search('AST-000000-00000-00');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: 'Service line not found', data: { serviceLineFound: false, serviceLineDetails: null } });
  });

  it.each([
    ['blank', '   ', 'Service line number is required'],
    ['missing', undefined, 'Service line number is required'],
    ['malformed', 'AST 1/2', 'may contain only'],
    ['too long', 'A'.repeat(65), 'too long'],
    ['not a string', 42, 'Service line number is required'],
  ])('refuses a %s service line number with 400 and a message', async (_name, value, message) => {
    const res = await search(value);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it('is for administrators only', async () => {
    expect((await ctx.request({ method: 'GET', url: '/api/v1/starlink-simulator/health' })).statusCode).toBe(401);
    await ctx.createCustomer({ email: 'cust@example.com', password: 'Customer-Passw0rd' });
    const customer = (await ctx.login('customer', 'cust@example.com', 'Customer-Passw0rd')).token!;
    expect((await search(sim.fleet.examples().activeServiceLineNumber, customer)).statusCode).toBe(403);
  });
});

describe('provider console: user terminals, details, usage, health', () => {
  it('lists every terminal of the account with consistent counts by status, region and model', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/starlink-simulator/user-terminals', token: admin });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as UserTerminalsResponse;
    expect(data.totalCount).toBe(sim.fleet.size);
    expect(new Set(data.terminals.map((t) => t.userTerminalId)).size).toBe(sim.fleet.size);
    const { stats } = data;
    expect(stats.activeTerminals + stats.inactiveTerminals).toBe(stats.totalTerminals);
    expect(stats.connectedTerminals).toBeLessThanOrEqual(stats.totalTerminals);
    expect(Object.values(stats.regions).reduce((a, b) => a + b, 0)).toBe(stats.totalTerminals);
    expect(Object.values(stats.models).reduce((a, b) => a + b, 0)).toBe(stats.totalTerminals);
    expect(Object.keys(stats.models).length).toBeGreaterThan(1);
    const unattached = sim.fleet.examples().unattachedUserTerminalId;
    if (unattached) expect(data.terminals.find((t) => t.userTerminalId === unattached)).toMatchObject({ active: false, serviceLineNumber: null });
  });

  it('gives one service line its details and its usage filtered by date and limit', async () => {
    const sl = sim.fleet.examples().activeServiceLineNumber;
    const details = await ctx.request({ method: 'GET', url: `/api/v1/starlink-simulator/service-lines/${sl}/details`, token: admin });
    expect(details.statusCode).toBe(200);
    expect(details.json().data.serviceLineNumber).toBe(sl);

    const all = (await ctx.request({ method: 'GET', url: `/api/v1/starlink-simulator/service-lines/${sl}/usage`, token: admin })).json().data;
    const newest = all.usageData[0].usage_date as string;
    const limited = await ctx.request({
      method: 'GET',
      url: `/api/v1/starlink-simulator/service-lines/${sl}/usage?start_date=${newest}&end_date=${newest}&limit=5`,
      token: admin,
    });
    expect(limited.statusCode).toBe(200);
    expect(limited.json().data.usageData.map((r: { usage_date: string }) => r.usage_date)).toEqual([newest]);
  });

  it('answers 404 for an unknown service line and 400 for a reversed date range', async () => {
    expect((await ctx.request({ method: 'GET', url: '/api/v1/starlink-simulator/service-lines/AST-000000-00000-00/details', token: admin })).statusCode).toBe(404);
    const sl = sim.fleet.examples().activeServiceLineNumber;
    const reversed = await ctx.request({
      method: 'GET',
      url: `/api/v1/starlink-simulator/service-lines/${sl}/usage?start_date=2026-11-10&end_date=2026-11-01`,
      token: admin,
    });
    expect(reversed.statusCode).toBe(400);
    expect((await ctx.request({ method: 'GET', url: `/api/v1/starlink-simulator/service-lines/${sl}/usage?start_date=yesterday`, token: admin })).statusCode).toBe(400);
  });

  it('reports the connection as healthy with the account number, and the dashboard shows it', async () => {
    const health = (await ctx.request({ method: 'GET', url: '/api/v1/starlink-simulator/health', token: admin })).json().data;
    expect(health).toMatchObject({ status: 'Healthy', provider: 'simulator', accountNumber: sim.fleet.accountNumber });
    const summary = (await ctx.request({ method: 'GET', url: '/api/v1/dashboard/summary', token: admin })).json().data;
    expect(summary.providerHealth.status).toBe('Healthy');
    expect(summary.providerHealth.detail).toContain(sim.fleet.accountNumber);
  });
});

describe('provider console: provider failures', () => {
  it('maps a failing provider to 502 with a clear message, and the connection test to Down', async () => {
    sim.setFaults({ rate5xx: 1 });
    try {
      const res = await search(sim.fleet.examples().activeServiceLineNumber);
      expect(res.statusCode).toBe(502);
      expect(res.json()).toMatchObject({ success: false, message: 'API request failed: the provider is unavailable right now' });
      const health = (await ctx.request({ method: 'GET', url: '/api/v1/starlink-simulator/health', token: admin })).json().data;
      expect(health).toMatchObject({ status: 'Down', accountNumber: null });
      expect(health.message).toContain('Connection test failed');
    } finally {
      sim.setFaults({ rate5xx: 0 });
    }
  });

  it('maps a provider that does not answer in time to 504', async () => {
    const patient = client;
    client = clientFor(300);
    sim.setFaults({ latencyMs: 1_000 });
    try {
      const res = await ctx.request({ method: 'GET', url: '/api/v1/starlink-simulator/user-terminals', token: admin });
      expect(res.statusCode).toBe(504);
      expect(res.json().message).toContain('did not answer in time');
    } finally {
      sim.setFaults({ latencyMs: 0 });
      client = patient;
    }
  });
});

describe('provider console without a provider', () => {
  it('answers 503 with how to configure one, and the dashboard says Not connected', async () => {
    const bare = await createTestContext({ provider: null });
    try {
      await bare.createAdmin({ email: 'bare@example.com', password: 'Bare-Passw0rd' });
      const token = (await bare.login('admin', 'bare@example.com', 'Bare-Passw0rd')).token!;
      const res = await bare.request({ method: 'GET', url: '/api/v1/starlink-simulator/user-terminals', token });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toContain('STARLINK_CLIENT_ID');
      const summary = (await bare.request({ method: 'GET', url: '/api/v1/dashboard/summary', token })).json().data;
      expect(summary.providerHealth.status).toBe('Not connected');
    } finally {
      await bare.close();
    }
  });
});
