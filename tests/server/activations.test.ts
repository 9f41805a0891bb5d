// Activating a terminal over HTTP against the real simulator: a kit from stock to an active, named
// line assigned to a customer, each step recorded; a failure part-way stops with what was done and
// Resume finishes it without a second line, also when the provider made the line but its answer
// was lost; two admins activating one kit get one activation; bad input is refused before any
// provider call.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVATION_MESSAGES as M, type ActivationWire } from '../../src/domain/activations';
import { ProviderTimeoutError, ProviderUnavailableError, type StarlinkClient } from '../../server/provider';
import type { RunningSimulator } from '../../server/simulator';
import { insertAddress, insertProduct } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let ctx: TestContext;
let admin: string;
let reader: string;
let customerId: string;
let providerClient: StarlinkClient;
/** Set by a test to make the next call of a client method fail (after doing it, when `after`). */
let sabotage: { method: keyof StarlinkClient; after: boolean } | null = null;

function sabotaged(client: StarlinkClient): StarlinkClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function' || sabotage?.method !== property) return value;
      return async (...args: unknown[]) => {
        const plan = sabotage!;
        sabotage = null;
        if (!plan.after) throw new ProviderUnavailableError('The provider failed with 503', { status: 503, attempts: 1, method: 'POST', path: String(property) });
        await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        throw new ProviderTimeoutError('The provider did not answer in time', { timeoutMs: 3000, method: 'POST', path: String(property) });
      };
    },
  });
}

const SITE = {
  addressLines: ['9 Quarry Lane'],
  locality: 'Moab',
  administrativeArea: 'Utah',
  region: 'United States',
  postalCode: '84532',
  formattedAddress: '9 Quarry Lane, Moab, UT 84532, US',
  latitude: 38.57,
  longitude: -109.55,
};

beforeAll(async () => {
  sim = await startFleet({ terminals: 60 });
  providerClient = fastClient(sim);
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => sabotaged(providerClient) } });
  const created = await ctx.createAdmin();
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  const user = await ctx.createAdmin({ role: 'user' });
  reader = (await ctx.login('admin', user.email, user.password)).token!;
  customerId = (await ctx.createCustomer({ name: 'Ana Costa' })).id;
  for (const product of sim.fleet.products()) {
    await insertProduct(ctx.database.db, { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
  }
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

const stockKit = (k = 0) => sim.fleet.stockKitSerials()[k]!;
const activate = (payload: Record<string, unknown>, token = admin) => ctx.request({ method: 'POST', url: '/api/v1/activations', token, payload });
const activation = (res: { json(): unknown }) => (res.json() as { data: ActivationWire }).data;
const linesAt = (addressReferenceId: string) => sim.fleet.serviceLineNumbers().filter((n) => sim.fleet.serviceLine(n)!.addressReferenceId === addressReferenceId);

async function localTerminal(kit: string) {
  const result = await ctx.database.db.execute(sql`SELECT user_terminal_id, service_line_number, assigned_customer_id FROM terminals WHERE kit_serial_number = ${kit} AND removed_at IS NULL`);
  return (result as unknown as { rows: { user_terminal_id: string; service_line_number: string | null; assigned_customer_id: string | null }[] }).rows;
}

describe('activating a kit', () => {
  it('takes a kit from stock to an active, named line at a new address, in the inventory and assigned to the customer', async () => {
    const kit = stockKit();
    const requestsBefore = providerClient.usage().requests;
    const started = performance.now();
    const res = await activate({ deviceId: kit.toLowerCase(), customerUuid: customerId, newAddress: SITE, productReferenceId: 'SUB-METERED-1TB', nickname: 'Quarry office' });
    const figures = { providerRequests: providerClient.usage().requests - requestsBefore, durationMs: Math.round(performance.now() - started) };
    console.log('activation figures', JSON.stringify(figures));
    expect(res.statusCode).toBe(201);
    // Each step's look-up and write, and the inventory refresh: a handful of calls, not a sync.
    expect(figures.providerRequests).toBeLessThanOrEqual(16);
    const done = activation(res);
    expect(done).toMatchObject({ status: 'completed', error: null, customer: { uuid: customerId, name: 'Ana Costa' }, nickname: 'Quarry office' });
    expect(done.steps.every((s) => s.doneAt !== null && !s.skipped)).toBe(true);
    expect((res.json() as { message: string }).message).toBe(M.completed(done.serviceLineNumber!));

    const line = sim.fleet.serviceLine(done.serviceLineNumber!)!;
    expect(line).toMatchObject({ active: true, nickname: 'Quarry office', productReferenceId: 'SUB-METERED-1TB', addressReferenceId: done.addressReferenceId });
    expect(sim.fleet.address(done.addressReferenceId!)).toMatchObject({ formattedAddress: SITE.formattedAddress });
    expect(await localTerminal(kit)).toEqual([{ user_terminal_id: done.userTerminalId, service_line_number: done.serviceLineNumber, assigned_customer_id: customerId }]);
    const audits = await ctx.database.db.execute(sql`SELECT action FROM audit_log WHERE target_id IN (${done.id}, ${done.serviceLineNumber!}) ORDER BY created_at`);
    expect((audits as unknown as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual(['activation.started', 'service_line.activated']);

    const read = await ctx.request({ method: 'GET', url: `/api/v1/activations/${done.id}`, token: reader });
    expect(activation(read)).toEqual({ ...done, updatedAt: expect.any(String) });
  });

  it('uses an address the account has, and skips the steps it has nothing for', async () => {
    const address = sim.fleet.serviceLine(sim.fleet.knownServiceLineNumber)!.addressReferenceId!;
    const before = linesAt(address).length;
    const res = await activate({ deviceId: stockKit(), addressReferenceId: address, productReferenceId: 'SUB-METERED-50GB' });
    const done = activation(res);
    expect(done.status).toBe('completed');
    expect(done.steps.filter((s) => s.skipped).map((s) => s.step)).toEqual(['address', 'nickname', 'assign']);
    expect(linesAt(address)).toHaveLength(before + 1);
    expect((await localTerminal(done.deviceId))[0]).toMatchObject({ service_line_number: done.serviceLineNumber, assigned_customer_id: null });
  });
});

describe('failures part-way', () => {
  it('stops where the provider failed, with what was done, and Resume finishes it with one line', async () => {
    const kit = stockKit();
    sabotage = { method: 'createServiceLine', after: false };
    const res = await activate({ deviceId: kit, newAddress: { ...SITE, formattedAddress: '10 Quarry Lane, Moab' }, productReferenceId: 'SUB-METERED-1TB' });
    expect(res.statusCode).toBe(201);
    const stopped = activation(res);
    expect(stopped).toMatchObject({ status: 'failed', serviceLineNumber: null, error: expect.stringContaining('the provider is unavailable right now') });
    expect(stopped.steps.filter((s) => s.doneAt).map((s) => s.step)).toEqual(['terminal', 'address']);
    expect(linesAt(stopped.addressReferenceId!)).toEqual([]);

    const resumed = await ctx.request({ method: 'POST', url: `/api/v1/activations/${stopped.id}/resume`, token: admin });
    expect(resumed.statusCode).toBe(200);
    const done = activation(resumed);
    expect(done.status).toBe('completed');
    expect(linesAt(stopped.addressReferenceId!)).toEqual([done.serviceLineNumber]);
    const again = await ctx.request({ method: 'POST', url: `/api/v1/activations/${stopped.id}/resume`, token: admin });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: M.notResumable });
  });

  it('adopts the line the provider made when its answer was lost, instead of making a second', async () => {
    sabotage = { method: 'createServiceLine', after: true };
    const stopped = activation(await activate({ deviceId: stockKit(), newAddress: { ...SITE, formattedAddress: '11 Quarry Lane, Moab' }, productReferenceId: 'SUB-METERED-50GB' }));
    expect(stopped).toMatchObject({ status: 'failed', error: expect.stringContaining('did not answer in time') });
    expect(linesAt(stopped.addressReferenceId!)).toHaveLength(1);
    const done = activation(await ctx.request({ method: 'POST', url: `/api/v1/activations/${stopped.id}/resume`, token: admin }));
    expect(done.status).toBe('completed');
    expect(linesAt(stopped.addressReferenceId!)).toEqual([done.serviceLineNumber]);
  });

  it("stops with the provider's words for a kit it does not know or one already on a line", async () => {
    const unknown = activation(await activate({ deviceId: 'KIT99999999', newAddress: SITE, productReferenceId: 'SUB-METERED-50GB' }));
    expect(unknown).toMatchObject({ status: 'failed', error: 'No user terminal matches KIT99999999: check the kit or dish serial number' });
    const active = sim.fleet.terminal(0);
    const busy = activation(await activate({ deviceId: active.kitSerialNumber, newAddress: SITE, productReferenceId: 'SUB-METERED-50GB' }));
    expect(busy).toMatchObject({ status: 'failed', error: M.alreadyOnLine(active.serviceLineNumber!) });
  });
});

describe("the account's addresses to choose from", () => {
  it('answers the synced addresses by formatted address, narrowed by a search where % and _ are literal, without removed ones', async () => {
    const db = ctx.database.db;
    // Earlier activations stored addresses too: these carry words of their own.
    await insertAddress(db, { addressReferenceId: 'a1', formattedAddress: 'Bravo Quokka Street, Moab, UT', locality: 'Quokkaville', region: 'United States' });
    await insertAddress(db, { addressReferenceId: 'a2', formattedAddress: 'Charlie Quokka Street, Inverness', locality: 'Quokkaville', region: 'Wombat Kingdom' });
    await insertAddress(db, { addressReferenceId: 'a3', formattedAddress: 'Alpha 100% Quokka Farm, Moab', locality: 'Quokkaville', region: 'United States' });
    await insertAddress(db, { addressReferenceId: 'a4', formattedAddress: '4 Quokka Lane, Moab', removedAt: new Date('2026-03-01T00:00:00Z') });
    const list = async (query: string) => {
      const res = await ctx.request({ method: 'GET', url: `/api/v1/activations/addresses${query}`, token: reader });
      expect(res.statusCode).toBe(200);
      return (res.json() as { data: { addressReferenceId: string }[] }).data.map((a) => a.addressReferenceId);
    };
    const all = await list('');
    expect(all.filter((id) => /^a\d$/.test(id))).toEqual(['a3', 'a1', 'a2']);
    expect(await list('?search=QUOKKA')).toEqual(['a3', 'a1', 'a2']);
    expect(await list('?search=100%25%20quokka')).toEqual(['a3']);
    expect(await list('?search=wombat')).toEqual(['a2']);
    expect(await list('?search=quokka_')).toEqual([]);
    expect((await ctx.request({ method: 'GET', url: `/api/v1/activations/addresses?search=${'x'.repeat(101)}`, token: admin })).statusCode).toBe(400);
  });
});

describe('one activation per kit, and bad input', () => {
  it('gives two admins activating one kit at once one activation and one line', async () => {
    const kit = stockKit();
    const payload = { deviceId: kit, newAddress: { ...SITE, formattedAddress: '12 Quarry Lane, Moab' }, productReferenceId: 'SUB-METERED-50GB' };
    const [a, b] = await Promise.all([activate(payload), activate(payload)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const conflict = a.statusCode === 409 ? a : b;
    expect(conflict.json()).toMatchObject({ success: false, message: M.inProgress });
    const done = activation(a.statusCode === 201 ? a : b);
    expect(done.status).toBe('completed');
    const onLines = sim.fleet.serviceLineNumbers().filter((n) => sim.fleet.serviceLine(n)!.addressReferenceId === done.addressReferenceId);
    expect(onLines).toHaveLength(1);
  });

  it('activates for a customer who has not set a password yet (inactive), as assignment allows (a browser-journey finding)', async () => {
    const fresh = await ctx.createCustomer({ name: 'New Co', isActive: false });
    const done = activation(await activate({ deviceId: stockKit(), customerUuid: fresh.id, newAddress: { ...SITE, formattedAddress: '13 Quarry Lane, Moab' }, productReferenceId: 'SUB-METERED-50GB' }));
    expect(done).toMatchObject({ status: 'completed', customer: { uuid: fresh.id } });
    expect((await localTerminal(done.deviceId))[0]).toMatchObject({ assigned_customer_id: fresh.id });
  });

  it('refuses bad input before any provider call, and a user-role portal user', async () => {
    const kit = stockKit();
    const base = { deviceId: kit, newAddress: SITE, productReferenceId: 'SUB-METERED-50GB' };
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...base, deviceId: 'not a kit' }, 400, `Validation failed: ${M.deviceInvalid}`],
      [{ ...base, addressReferenceId: '00000000-0000-4000-8000-000000000000' }, 400, M.addressChoice],
      [{ deviceId: kit, productReferenceId: 'SUB-METERED-50GB' }, 400, M.addressChoice],
      [{ ...base, productReferenceId: 'SUB-UNLIMITED' }, 400, M.productUnknown],
      [{ ...base, customerUuid: '00000000-0000-4000-8000-000000000000' }, 404, M.customerUnknown],
      [{ ...base, newAddress: { ...SITE, latitude: 95 } }, 400, 'Validation failed: latitude must be a number from -90 to 90'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await activate(payload);
      expect(res.statusCode, message).toBe(status);
      expect(res.json(), message).toMatchObject({ success: false, message });
    }
    const expired = await ctx.createCustomer({ name: 'Expired Co', accountExpiresAt: new Date('2026-03-01T00:00:00Z') });
    const lapsed = await activate({ ...base, customerUuid: expired.id });
    expect(lapsed.statusCode).toBe(409);
    expect(lapsed.json()).toMatchObject({ message: M.customerExpired });
    const blocked = await ctx.createCustomer({ name: 'Blocked Co', blockedEnabled: true });
    const refused = await activate({ ...base, customerUuid: blocked.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: M.customerBlocked });
    expect((await activate(base, reader)).statusCode).toBe(403);
    expect(sim.fleet.stockKitSerials()).toContain(kit);
  });
});
