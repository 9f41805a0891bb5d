// A service line's settings and lifecycle actions over HTTP against the real simulator: each
// accepted change is made at the provider, the stored line is the provider's fresh record, and an
// audit entry says who did what; each refusal (ours or the provider's) is a 4xx that writes
// nothing; a user-role portal user reads but cannot change.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_LINE_MESSAGES as M, MAX_TOP_UP_BLOCKS_PER_CYCLE, type ServiceLineSettingsWire } from '../../src/domain/service-lines';
import type { RunningSimulator } from '../../server/simulator';
import { describeActivity } from '../../server/services/dashboard-service';
import { insertProduct, insertServiceLines, insertTerminals, idOf, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let ctx: TestContext;
let admin: string;
let reader: string;
let metered: string;
let priority: string;
let customerId: string;

/** An active line of the simulator on a product, not yet set to end. */
const lineOn = (productReferenceId: string, skip: string[] = []) =>
  sim.fleet.serviceLineNumbers().find((n) => {
    const line = sim.fleet.serviceLine(n)!;
    return line.active && !line.endDate && line.productReferenceId === productReferenceId && !skip.includes(n);
  })!;

beforeAll(async () => {
  sim = await startFleet({ terminals: 60 });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => fastClient(sim) } });
  const created = await ctx.createAdmin();
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  const user = await ctx.createAdmin({ role: 'user' });
  reader = (await ctx.login('admin', user.email, user.password)).token!;
  const customer = await ctx.createCustomer({ name: 'Ana Costa' });
  customerId = customer.id;
  const db = ctx.database.db;
  for (const product of sim.fleet.products()) {
    await insertProduct(db, { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
  }
  metered = lineOn('SUB-METERED-50GB', [sim.fleet.knownServiceLineNumber]);
  priority = lineOn('SUB-PRIORITY-BLOCKS');
  await insertServiceLines(db, [
    { serviceLineNumber: metered, productReferenceId: 'SUB-METERED-50GB', nickname: 'old name' },
    { serviceLineNumber: priority, productReferenceId: 'SUB-PRIORITY-BLOCKS' },
  ]);
  await insertTerminals(db, [
    terminalRow({ userTerminalId: idOf(1), serviceLineNumber: metered, assignedCustomerId: customerId }),
    terminalRow({ userTerminalId: idOf(2), serviceLineNumber: priority }),
  ]);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

const settingsOf = async (line: string, token = admin) => {
  const res = await ctx.request({ method: 'GET', url: `/api/v1/service-lines/${line}/settings`, token });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: ServiceLineSettingsWire }).data;
};
const act = (method: 'PUT' | 'POST', line: string, action: string, payload: Record<string, unknown>, token = admin) =>
  ctx.request({ method, url: `/api/v1/service-lines/${line}/${action}`, token, payload });

async function stored(line: string) {
  const result = await ctx.database.db.execute(sql`SELECT nickname, public_ip, active, end_date FROM service_lines WHERE service_line_number = ${line}`);
  return (result as unknown as { rows: { nickname: string | null; public_ip: boolean | null; active: boolean; end_date: unknown }[] }).rows[0]!;
}
async function audits(line: string) {
  const result = await ctx.database.db.execute(sql`SELECT action, before, after FROM audit_log WHERE target_type = 'service_line' AND target_id = ${line} ORDER BY created_at`);
  return (result as unknown as { rows: { action: string; before: Record<string, unknown>; after: Record<string, unknown> }[] }).rows;
}

describe('reading settings', () => {
  it("answers the provider's line now, with what its plan sells and who holds it", async () => {
    const settings = await settingsOf(metered);
    const line = sim.fleet.serviceLine(metered)!;
    expect(settings).toMatchObject({
      serviceLineNumber: metered,
      nickname: line.nickname,
      productReferenceId: 'SUB-METERED-50GB',
      planName: 'Local Priority 50 GB',
      planKind: 'metered',
      active: true,
      endDate: null,
      publicIp: line.publicIp,
      optedIn: line.optInProductId !== null,
      recurringBlocks: null,
      blockProducts: [],
      topUpProduct: { productId: 'DATA-TOPUP-50GB', dataGB: 50, price: 50, currency: 'USD' },
      customer: { uuid: customerId, name: 'Ana Costa' },
      terminals: [{ deviceId: idOf(1), kitSerialNumber: `KIT${idOf(1).replace(/^UT/, '')}`, nickname: null }],
    });
    expect(settings.topUpBlocksThisCycle + settings.topUpBlocksLeft).toBe(MAX_TOP_UP_BLOCKS_PER_CYCLE);
    expect(settings.partialPeriods.length).toBeGreaterThanOrEqual(1);

    const blocks = await settingsOf(priority, reader);
    expect(blocks.planKind).toBe('blocks');
    expect(blocks.blockProducts.map((p) => p.productId)).toEqual(['DATA-BLOCK-PRIORITY-50GB', 'DATA-BLOCK-PRIORITY-1TB']);
    expect(blocks.recurringBlocks).toMatchObject({ productId: expect.stringMatching(/^DATA-BLOCK-PRIORITY/), count: expect.any(Number) });
  });

  it('answers 404 for a line it does not hold and 400 for a malformed number', async () => {
    const unknown = await ctx.request({ method: 'GET', url: '/api/v1/service-lines/AST-999999-99999-99/settings', token: admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, message: M.notFound });
    expect((await ctx.request({ method: 'GET', url: '/api/v1/service-lines/bad!/settings', token: admin })).statusCode).toBe(400);
  });
});

describe('changing a line', () => {
  it('renames it at the provider, stores the fresh line and audits the change', async () => {
    const res = await act('PUT', metered, 'nickname', { nickname: '  North Barn  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: M.renamed, data: { nickname: 'North Barn' } });
    expect(sim.fleet.serviceLine(metered)!.nickname).toBe('North Barn');
    expect((await stored(metered)).nickname).toBe('North Barn');
    expect((await audits(metered)).at(-1)).toMatchObject({ action: 'service_line.renamed', before: { nickname: expect.any(String) }, after: { serviceLineNumber: metered, nickname: 'North Barn' } });
  });

  it('turns public IP on and refuses to turn it on twice', async () => {
    const before = (await settingsOf(metered)).publicIp;
    const res = await act('PUT', metered, 'public-ip', { publicIp: !before });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: ServiceLineSettingsWire }).data.publicIp).toBe(!before);
    expect((await stored(metered)).public_ip).toBe(!before);
    const again = await act('PUT', metered, 'public-ip', { publicIp: !before });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: M.noChange });
  });

  it("switches priority data, and passes the provider's cool-down refusal on in its words, writing nothing", async () => {
    const before = (await settingsOf(metered)).optedIn;
    // Asking for what the line already has is refused before the provider is asked.
    const same = await act('PUT', metered, 'priority-data', { optedIn: before });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({ message: M.noChange });
    expect((await act('PUT', metered, 'priority-data', { optedIn: !before })).statusCode).toBe(200);
    const count = (await audits(metered)).length;
    const back = await act('PUT', metered, 'priority-data', { optedIn: before });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ success: false, message: expect.stringContaining('recently; try again after') });
    expect((await audits(metered)).length).toBe(count);
  });

  it("sets a Priority line's blocks for the next cycle, and refuses blocks on a metered plan or a block the plan does not sell", async () => {
    const res = await act('PUT', priority, 'recurring-blocks', { productId: 'DATA-BLOCK-PRIORITY-1TB', count: 2, applyToCurrentCycle: false });
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: ServiceLineSettingsWire }).data.nextRecurringBlocks).toEqual({ productId: 'DATA-BLOCK-PRIORITY-1TB', count: 2, dataGB: 2000 });
    expect((await act('PUT', metered, 'recurring-blocks', { productId: 'DATA-BLOCK-PRIORITY-1TB', count: 1 })).json()).toMatchObject({ message: M.notPriorityPlan });
    const unknown = await act('PUT', priority, 'recurring-blocks', { productId: 'DATA-TOPUP-50GB', count: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: M.unknownBlock });
  });

  it('buys a top-up, counts it against what the cycle sells, and refuses more than is left', async () => {
    const before = await settingsOf(metered);
    const res = await act('POST', metered, 'top-up', { productId: 'DATA-TOPUP-50GB', count: 2 });
    expect(res.statusCode).toBe(200);
    const after = (res.json() as { data: ServiceLineSettingsWire }).data;
    expect(after.topUpBlocksThisCycle).toBe(before.topUpBlocksThisCycle + 2);
    expect((await audits(metered)).at(-1)).toMatchObject({ action: 'service_line.topped_up', after: { count: 2, price: 100, currency: 'USD' } });
    const tooMany = await act('POST', metered, 'top-up', { productId: 'DATA-TOPUP-50GB', count: after.topUpBlocksLeft + 1 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ message: M.topUpLimit(after.topUpBlocksLeft) });
    expect((await settingsOf(metered)).topUpBlocksThisCycle).toBe(after.topUpBlocksThisCycle);
  });

  it('ends a line at the end of its cycle: "Ends on" until then, stored, audited with the customer and terminals; a second end is refused', async () => {
    const res = await act('POST', metered, 'deactivate', { when: 'end_of_cycle', reason: 'Customer moved' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: M.deactivationScheduled, data: { active: true, endDate: '2026-03-31T23:59:59.000Z' } });
    expect(await stored(metered)).toMatchObject({ active: true });
    expect((await stored(metered)).end_date).not.toBeNull();
    expect((await audits(metered)).at(-1)).toMatchObject({
      action: 'service_line.deactivation_scheduled',
      after: { when: 'end_of_cycle', reason: 'Customer moved', customer: 'Ana Costa', terminals: [`KIT${idOf(1).replace(/^UT/, '')}`] },
    });
    const again = await act('POST', metered, 'deactivate', { when: 'now', reason: 'Twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: M.alreadyEnding });
  });

  it('ends a line now, after which nothing more can be done on it', async () => {
    const res = await act('POST', priority, 'deactivate', { when: 'now', reason: 'Site closed' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: M.deactivatedNow, data: { active: false } });
    expect((await stored(priority)).active).toBe(false);
    const topUp = await act('POST', priority, 'top-up', { productId: 'DATA-TOPUP-50GB', count: 1 });
    expect(topUp.statusCode).toBe(409);
    expect(topUp.json()).toMatchObject({ message: M.inactive });
  });
});

describe('the audit trail', () => {
  it('tells Recent Activity what each change was', async () => {
    const said = (await audits(metered)).map((entry) => describeActivity({ action: entry.action, actorName: 'Ada', actorType: 'user', after: entry.after }));
    expect(said).toEqual(
      expect.arrayContaining([
        `Ada renamed ${metered} to "North Barn"`,
        expect.stringMatching(new RegExp(`^Ada turned public IP (on|off) on ${metered}$`)),
        expect.stringMatching(new RegExp(`^Ada turned priority data past the limit (on|off) on ${metered}$`)),
        `Ada bought 2 top-up blocks for ${metered}`,
        `Ada set ${metered} to end at the end of its billing cycle`,
      ]),
    );
    const [ended] = (await audits(priority)).filter((entry) => entry.action === 'service_line.deactivated');
    expect(describeActivity({ action: ended!.action, actorName: 'Ada', actorType: 'user', after: ended!.after })).toBe(`Ada deactivated ${priority}`);
  });
});

describe('bad input and who may', () => {
  it('refuses bad bodies with the field’s message, writing nothing', async () => {
    const count = (await audits(metered)).length;
    for (const [method, action, payload, message] of [
      ['PUT', 'nickname', { nickname: ' ' }, M.nicknameRequired],
      ['PUT', 'nickname', { nickname: 'x'.repeat(101) }, M.nicknameTooLong],
      ['PUT', 'public-ip', { publicIp: 'yes' }, 'publicIp must be true or false'],
      ['POST', 'top-up', { productId: 'DATA-TOPUP-50GB', count: 0 }, `count must be a whole number from 1 to ${MAX_TOP_UP_BLOCKS_PER_CYCLE}`],
      ['POST', 'deactivate', { when: 'later', reason: 'x' }, M.whenInvalid],
      ['POST', 'deactivate', { when: 'now', reason: '  ' }, M.reasonRequired],
    ] as const) {
      const res = await act(method, metered, action, payload);
      expect(res.statusCode, action).toBe(400);
      expect(res.json(), action).toMatchObject({ success: false, message: `Validation failed: ${message}` });
    }
    expect((await audits(metered)).length).toBe(count);
  });

  it('lets a user-role portal user read but not change', async () => {
    expect((await settingsOf(metered, reader)).serviceLineNumber).toBe(metered);
    const res = await act('PUT', metered, 'nickname', { nickname: 'Not mine to change' }, reader);
    expect(res.statusCode).toBe(403);
    expect(sim.fleet.serviceLine(metered)!.nickname).not.toBe('Not mine to change');
  });
});
