// Several provider accounts in one portal, end to end through the app and two simulated providers
// over real HTTP: the single account a portal had becomes account one from its STARLINK_* settings;
// a second account is added, tested and synced into its own rows; the lists filter by account and
// name it; refused credentials pause only that account; the same terminals seen under a second
// account are kept apart, never merged; and an account holding lines cannot be deleted.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVATION_MESSAGES } from '../../src/domain/activations';
import type { DashboardSummary } from '../../src/domain/dashboard';
import type { ProviderAccountWire, ProviderConnectionTestWire } from '../../src/domain/provider-accounts';
import type { TerminalPageWire } from '../../src/domain/terminals';
import { rowsOf } from '../../server/db/repositories/results';
import { providerRegistryFromEnv } from '../../server/provider-access';
import { PROVIDER_ACCOUNTS_MESSAGES as M } from '../../server/services/provider-accounts';
import type { RunningSimulator } from '../../server/simulator';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, startFleet } from './terminal-sync-fixtures';

const US_TERMINALS = 16;
const BR_TERMINALS = 10;

let us: RunningSimulator;
let br: RunningSimulator;
let ctx: TestContext;
let token: string;

beforeAll(async () => {
  us = await startFleet({ seed: 'accounts-us', terminals: US_TERMINALS });
  br = await startFleet({ seed: 'accounts-br', terminals: BR_TERMINALS, currency: 'BRL' });
  // What a single-account portal was configured with: it becomes account one.
  const registry = providerRegistryFromEnv(
    { STARLINK_API_URL: us.baseUrl, STARLINK_TOKEN_URL: us.tokenUrl, STARLINK_CLIENT_ID: us.credentials.clientId, STARLINK_CLIENT_SECRET: us.credentials.clientSecret },
    () => new Date(SYNC_TEST_TIME),
  );
  // One cycle of usage history: what the usage runs read is not what this file is about.
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_HISTORY_CYCLES: '1' }, provider: registry });
  await ctx.app.services.providerAccounts.adoptPending({ seedDemo: false });
  const admin = await ctx.createAdmin();
  token = (await ctx.login('admin', admin.email, admin.password)).token!;
});

afterAll(async () => {
  await ctx?.close();
  await us?.close();
  await br?.close();
});

const db = () => ctx.database.db;
/** Each call a second after the last, so that runs queued by different calls are told apart by time. */
const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
  ctx.clock.advance(1_000);
  return ctx.request({ method, url, token, ...(payload ? { payload } : {}) });
};
const accounts = async () => (await call('GET', '/api/v1/provider-accounts')).json().data as ProviderAccountWire[];
const accountNamed = async (name: string) => (await accounts()).find((a) => a.name === name)!;

/** Until no run of any account is queued or running (usage runs follow inventory ones). */
async function syncsSettled(timeoutMs = 40_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = rowsOf<{ n: number }>(await db().execute(sql`SELECT count(*)::int AS n FROM sync_runs WHERE status IN ('queued', 'running')`));
    if (row!.n === 0) return;
    if (Date.now() > deadline) throw new Error('sync runs still active');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function latestInventoryRun(accountId: number) {
  const [row] = rowsOf<{ status: string; failed: number; message: string | null; trigger: string }>(
    await db().execute(sql`SELECT status, failed, message, trigger FROM sync_runs WHERE account_id = ${accountId} AND kind = 'inventory' ORDER BY queued_at DESC LIMIT 1`),
  );
  return row ?? null;
}

async function terminalsPerAccount(): Promise<Record<number, number>> {
  const rows = rowsOf<{ account_id: number; n: number }>(
    await db().execute(sql`SELECT account_id, count(*)::int AS n FROM terminals WHERE removed_at IS NULL GROUP BY account_id`),
  );
  return Object.fromEntries(rows.map((r) => [Number(r.account_id), r.n]));
}

describe('provider accounts', () => {
  it("makes the single account of a portal's STARLINK_* settings account one, its secret sealed and never answered", async () => {
    const [first, ...others] = await accounts();
    expect(others).toEqual([]);
    expect(first).toMatchObject({ id: 1, kind: 'starlink', name: 'Starlink account', apiUrl: us.baseUrl, clientId: us.credentials.clientId, hasSecret: true, status: 'active' });
    const body = (await call('GET', '/api/v1/provider-accounts')).body;
    expect(body).not.toContain(us.credentials.clientSecret);
    const [stored] = rowsOf<{ sealed: string }>(await db().execute(sql`SELECT client_secret_sealed AS sealed FROM provider_accounts WHERE id = 1`));
    expect(stored!.sealed).toMatch(/^v1:/);
    expect(stored!.sealed).not.toContain(us.credentials.clientSecret);
  });

  it('adds a second account, and Test connection says what the provider answered', async () => {
    const created = await call('POST', '/api/v1/provider-accounts', {
      name: 'Brasil',
      kind: 'starlink',
      apiUrl: br.baseUrl,
      tokenUrl: br.tokenUrl,
      clientId: br.credentials.clientId,
      clientSecret: br.credentials.clientSecret,
      requestsPerMinute: 120,
    });
    expect(created.statusCode, created.body).toBe(201);
    const account = created.json().data as ProviderAccountWire;
    expect(account).toMatchObject({ id: 2, name: 'Brasil', hasSecret: true, requestsPerMinute: 120, status: 'active', lineCount: 0 });
    const tested = (await call('POST', `/api/v1/provider-accounts/${account.id}/test`)).json().data as ProviderConnectionTestWire;
    expect(tested).toMatchObject({ ok: true, accountNumber: br.fleet.account().accountNumber, message: M.connected(br.fleet.account().accountNumber) });
    // A new account syncs at once, not at the next tick.
    await syncsSettled();
    expect(await latestInventoryRun(2)).toMatchObject({ status: 'succeeded', trigger: 'manual' });
  });

  it('refuses a URL that is not https, and a name already in use', async () => {
    const base = { kind: 'starlink', clientId: 'x', clientSecret: 'y' };
    const badUrl = await call('POST', '/api/v1/provider-accounts', { ...base, name: 'Plain', apiUrl: 'http://provider.example/api' });
    expect(badUrl.statusCode).toBe(400);
    expect(badUrl.body).toContain('https://');
    const taken = await call('POST', '/api/v1/provider-accounts', { ...base, name: 'brasil', apiUrl: 'https://provider.example/api' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(M.nameTaken('brasil'));
  });

  it('syncs each account into its own rows, on its own budget; the list names the account and filters by it', async () => {
    expect((await call('POST', '/api/v1/terminals/sync')).statusCode).toBe(202);
    await syncsSettled();
    expect(await latestInventoryRun(1)).toMatchObject({ status: 'succeeded', failed: 0 });
    expect(await latestInventoryRun(2)).toMatchObject({ status: 'succeeded', failed: 0 });
    expect(await terminalsPerAccount()).toEqual({ 1: US_TERMINALS, 2: BR_TERMINALS });
    // Both list the same product references, each at its own price and currency.
    const products = rowsOf<{ account_id: number; currency: string; n: number }>(
      await db().execute(sql`SELECT account_id, iso_currency_code AS currency, count(*)::int AS n FROM provider_products GROUP BY account_id, iso_currency_code ORDER BY account_id`),
    );
    expect(products).toEqual([
      { account_id: 1, currency: 'USD', n: 3 },
      { account_id: 2, currency: 'BRL', n: 3 },
    ]);
    expect(await accountNamed('Brasil')).toMatchObject({ currency: 'BRL', accountNumber: br.fleet.account().accountNumber, terminalCount: BR_TERMINALS });

    const all = (await call('GET', '/api/v1/terminals?limit=100')).json().data as TerminalPageWire;
    expect(all.totalCount).toBe(US_TERMINALS + BR_TERMINALS);
    const brasil = (await call('GET', '/api/v1/terminals?limit=100&account_id=2')).json().data as TerminalPageWire;
    expect(brasil.totalCount).toBe(BR_TERMINALS);
    expect(new Set(brasil.results.map((t) => t.account_name))).toEqual(new Set(['Brasil']));
    expect(new Set(brasil.results.map((t) => t.user_terminal_id))).toEqual(new Set(br.fleet.userTerminalIds()));

    // The dashboard sums across the accounts and splits the fleet by account.
    const summary = (await call('GET', '/api/v1/dashboard/summary')).json().data as DashboardSummary;
    expect(summary.accounts.map((a) => [a.name, a.currency, a.terminals])).toEqual([
      ['Starlink account', 'USD', US_TERMINALS],
      ['Brasil', 'BRL', BR_TERMINALS],
    ]);
    expect(summary.activeTerminals).toBe(summary.accounts.reduce((sum, a) => sum + a.activeTerminals, 0));
  });

  it("offers the activation wizard the chosen account's addresses, and refuses another account's address or plan", async () => {
    type Address = { addressReferenceId: string };
    const ids = async (query: string) => ((await call('GET', `/api/v1/activations/addresses${query}`)).json().data as Address[]).map((a) => a.addressReferenceId);
    const held = async (accountId: number) =>
      rowsOf<{ id: string }>(await db().execute(sql`SELECT address_reference_id AS id FROM provider_addresses WHERE account_id = ${accountId} AND removed_at IS NULL`)).map((r) => r.id);
    const [usAddresses, brAddresses] = [await held(1), await held(2)];
    expect(brAddresses.length).toBeGreaterThan(0);
    expect(new Set(await ids('?account_id=2'))).toEqual(new Set(brAddresses.slice(0, 50)));
    // No account named: the first one's, as before the portal held several.
    expect((await ids('')).every((id) => usAddresses.includes(id))).toBe(true);
    expect((await call('GET', '/api/v1/activations/addresses?account_id=x')).statusCode).toBe(400);

    const start = (payload: Record<string, unknown>) => call('POST', '/api/v1/activations', { deviceId: 'KIT99990001', ...payload });
    const otherAddress = await start({ accountId: 1, addressReferenceId: brAddresses[0], productReferenceId: 'SUB-METERED-50GB' });
    expect(otherAddress.statusCode, otherAddress.body).toBe(400);
    expect(otherAddress.json().message).toContain(ACTIVATION_MESSAGES.addressOtherAccount);
    const planElsewhere = await db().execute(sql`SELECT product_reference_id AS id FROM provider_products WHERE account_id = 2 LIMIT 1`);
    await db().execute(sql`UPDATE provider_products SET removed_at = now() WHERE account_id = 2 AND product_reference_id = ${rowsOf<{ id: string }>(planElsewhere)[0]!.id}`);
    const removedPlan = await start({ accountId: 2, addressReferenceId: brAddresses[0], productReferenceId: rowsOf<{ id: string }>(planElsewhere)[0]!.id });
    expect(removedPlan.statusCode, removedPlan.body).toBe(400);
    expect(removedPlan.json().message).toContain(ACTIVATION_MESSAGES.productUnknown);
    await db().execute(sql`UPDATE provider_products SET removed_at = NULL WHERE account_id = 2`);
  });

  it('shows "authentication failed" for refused credentials and pauses that account alone; new credentials lift it', async () => {
    // New credentials sync at once: here the provider refuses them.
    await call('PATCH', '/api/v1/provider-accounts/2', { clientSecret: 'not-the-secret' });
    await syncsSettled();
    expect(await latestInventoryRun(2)).toMatchObject({ status: 'failed', trigger: 'manual' });
    expect(await accountNamed('Brasil')).toMatchObject({ status: 'auth_failed' });
    const tested = (await call('POST', '/api/v1/provider-accounts/2/test')).json().data as ProviderConnectionTestWire;
    expect(tested.ok).toBe(false);
    expect(tested.message).toMatch(/^Authentication failed: the provider refused the client id and secret/);
    expect(await accountNamed('Brasil')).toMatchObject({ status: 'auth_failed', statusMessage: tested.message });

    const before = await latestInventoryRun(2);
    expect((await call('POST', '/api/v1/terminals/sync')).statusCode).toBe(202);
    await syncsSettled();
    expect(await latestInventoryRun(1)).toMatchObject({ status: 'succeeded' });
    // Account two was not asked: its last run is still the one before.
    expect(await latestInventoryRun(2)).toEqual(before);

    await call('PATCH', '/api/v1/provider-accounts/2', { clientSecret: br.credentials.clientSecret });
    expect(await accountNamed('Brasil')).toMatchObject({ status: 'active', statusMessage: null });
    await syncsSettled();
    const run = await latestInventoryRun(2);
    expect(run, run?.message ?? '').toMatchObject({ status: 'succeeded' });
  });

  it('keeps the same terminals seen under another account apart, never merged', async () => {
    const created = await call('POST', '/api/v1/provider-accounts', {
      name: 'Same fleet again',
      kind: 'starlink',
      apiUrl: us.baseUrl,
      clientId: us.credentials.clientId,
      clientSecret: us.credentials.clientSecret,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json().data as ProviderAccountWire).id;
    // Its first sync starts as it is added.
    await syncsSettled();
    const run = await latestInventoryRun(id);
    expect(run).toMatchObject({ status: 'succeeded', failed: US_TERMINALS });
    expect(run!.message).toContain('already held under another provider account: kept apart there, not merged into this one');
    expect(await terminalsPerAccount()).toEqual({ 1: US_TERMINALS, 2: BR_TERMINALS });
    const [lines] = rowsOf<{ n: number }>(await db().execute(sql`SELECT count(*)::int AS n FROM service_lines WHERE account_id = ${id}`));
    expect(lines!.n).toBe(0);
  });

  it('refuses to delete an account that still holds lines, with the count; disabled, it is not synced; an empty one deletes', async () => {
    const lines = br.fleet.serviceLineNumbers().length;
    const refused = await call('DELETE', '/api/v1/provider-accounts/2');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(M.stillHoldsLines(lines));

    expect((await call('POST', '/api/v1/provider-accounts/2/disable')).json().data).toMatchObject({ status: 'disabled', lineCount: lines });
    const before = await latestInventoryRun(2);
    await call('POST', '/api/v1/terminals/sync');
    await syncsSettled();
    expect(await latestInventoryRun(2)).toEqual(before);
    // Its data stays, and the lists still show it.
    expect(((await call('GET', '/api/v1/terminals?account_id=2')).json().data as TerminalPageWire).totalCount).toBe(BR_TERMINALS);

    const empty = (await accountNamed('Same fleet again')).id;
    expect((await call('DELETE', `/api/v1/provider-accounts/${empty}`)).statusCode).toBe(200);
    expect((await accounts()).map((a) => a.name)).toEqual(['Starlink account', 'Brasil']);
  });
});
