// The provider's service lifecycle in the simulator, over real HTTP, every request and answer held
// to the contract (the project's own, or the provider's published document in
// `npm run test:provider-contract`): kits added from stock and removed, addresses created and
// replaced, lines created, renamed, given public IP, opted in and out, their recurring blocks set,
// topped up and ended; their partial periods; and the provider's refusals of each.
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_TOP_UP_BLOCKS_PER_CYCLE, OPT_IN_COOL_DOWN_MS } from '../../../server/simulator/fleet/index';
import type { RunningSimulator } from '../../../server/simulator/index';
import { expectFailure, simulatorPerTest } from './simulator-calls';

const START = Date.parse('2026-03-18T10:30:00.000Z');
const HOUR = 3_600_000;

const env = simulatorPerTest(new Date(START).toISOString());
const { call, advance } = env;
let sim: RunningSimulator;
beforeEach(() => {
  sim = env.sim;
});

const SITE = {
  addressLines: ['1 Rocket Road'],
  locality: 'Hawthorne',
  administrativeArea: 'California',
  region: 'United States',
  postalCode: '90250',
  metadata: 'portal-key-1',
  formattedAddress: '1 Rocket Road, Hawthorne, CA 90250, US',
  latitude: 33.92,
  longitude: -118.33,
};

async function createAddress(body: object = SITE) {
  const answer = await call('POST', '/public/v2/addresses', body);
  expect(answer.status).toBe(201);
  return answer.body.content as { addressReferenceId: string };
}

async function createLine(body: object) {
  const answer = await call('POST', '/public/v2/service-lines', body);
  expect(answer.status).toBe(201);
  return answer.body.content as { serviceLineNumber: string };
}

const getLine = async (number: string) => (await call('GET', `/public/v2/service-lines/${number}`)).body.content;

/** An active line of the generated fleet on a metered plan, other than the known one. */
const meteredLine = () =>
  sim.fleet.serviceLineNumbers().find((n) => {
    const line = sim.fleet.serviceLine(n)!;
    return line.active && line.productReferenceId === 'SUB-METERED-50GB' && n !== sim.fleet.knownServiceLineNumber && !line.endDate;
  })!;

describe('user terminals on the account', () => {
  it('adds a kit from stock by its serial, which no other call knew before, and refuses to add it twice', async () => {
    const kit = sim.fleet.examples().stockKitSerialNumber!;
    expect(kit).toMatch(/^KIT\d{8}$/);
    expect((await call('GET', `/public/v2/user-terminals?searchString=${kit}`)).body.content.totalCount).toBe(0);
    expectFailure(await call('POST', `/public/v2/user-terminals/${kit}/reboot`), 404, /not found/);

    const added = await call('POST', '/public/v2/user-terminals', { deviceId: kit });
    expect(added.status).toBe(200);
    const listed = (await call('GET', `/public/v2/user-terminals?searchString=${kit}`)).body.content.results;
    expect(listed).toEqual([expect.objectContaining({ kitSerialNumber: kit, serviceLineNumber: null })]);
    expect(sim.fleet.stockKitSerials()).not.toContain(kit);

    expectFailure(await call('POST', '/public/v2/user-terminals', { deviceId: kit }), 422, /already on this account/);
    expectFailure(await call('POST', '/public/v2/user-terminals', { deviceId: 'KIT99999999' }), 422, /No user terminal matches KIT99999999/);
    expectFailure(await call('POST', '/public/v2/user-terminals', { deviceId: '' }, false), 400, /deviceId/);
  });

  it('removes a terminal only once it is on no line, and it can be added again', async () => {
    const terminal = sim.fleet.knownUserTerminalId;
    const line = sim.fleet.knownServiceLineNumber;
    expectFailure(await call('DELETE', `/public/v2/user-terminals/${terminal}`), 422, new RegExp(`on service line ${line}: remove it from the line first`));
    expect((await call('DELETE', `/public/v2/service-lines/${line}/user-terminals/${terminal}`)).status).toBe(200);
    expect((await call('DELETE', `/public/v2/user-terminals/${terminal}`)).status).toBe(200);
    expect((await call('GET', `/public/v2/user-terminals?userTerminalIds=${terminal}`)).body.content.totalCount).toBe(0);
    expect(sim.fleet.stats().terminals).toBe(sim.fleet.size - 1);
    expectFailure(await call('DELETE', `/public/v2/user-terminals/${terminal}`), 404, /not found/);
    expect((await call('POST', '/public/v2/user-terminals', { deviceId: terminal })).status).toBe(200);
    expect(sim.fleet.stats().terminals).toBe(sim.fleet.size);
  });
});

describe('addresses', () => {
  it('creates an address, fills its region codes from the coordinates, finds it by metadata and replaces it', async () => {
    const created = await call('POST', '/public/v2/addresses', SITE);
    expect(created.status).toBe(201);
    const address = created.body.content;
    expect(address).toMatchObject({ formattedAddress: SITE.formattedAddress, metadata: 'portal-key-1', regionCode: 'US', latitude: 33.92 });
    expect(address.addressReferenceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await call('GET', `/public/v2/addresses/${address.addressReferenceId}`)).body.content).toEqual(address);
    const found = (await call('GET', '/public/v2/addresses?metadata=portal-key-1')).body.content;
    expect(found.results).toEqual([address]);
    expect((await call('GET', '/public/v2/addresses?metadata=portal-key-2')).body.content.totalCount).toBe(0);

    const replaced = await call('PUT', `/public/v2/addresses/${address.addressReferenceId}`, { ...SITE, addressLines: ['2 Rocket Road'], formattedAddress: '2 Rocket Road, Hawthorne' });
    expect(replaced.status).toBe(200);
    expect(replaced.body.content).toMatchObject({ addressReferenceId: address.addressReferenceId, addressLines: ['2 Rocket Road'], formattedAddress: '2 Rocket Road, Hawthorne' });
    const all = (await call('GET', '/public/v2/addresses')).body.content;
    expect(all.totalCount).toBe(sim.fleet.stats().serviceLines + 1);
  });

  it('replaces a generated address too, keeping its id', async () => {
    const line = await getLine(sim.fleet.knownServiceLineNumber);
    const answer = await call('PUT', `/public/v2/addresses/${line.addressReferenceId}`, { ...SITE, metadata: null, latitude: 57.15, longitude: -2.1 });
    expect(answer.body.content).toMatchObject({ addressReferenceId: line.addressReferenceId, regionCode: 'GB' });
  });

  it('refuses an address it cannot locate or serve (422), and bad fields (400)', async () => {
    expectFailure(await call('POST', '/public/v2/addresses', { ...SITE, latitude: 0, longitude: 0 }), 422, /could not be located/);
    expectFailure(await call('POST', '/public/v2/addresses', { ...SITE, latitude: 89.5 }), 422, /not available at this location/);
    expectFailure(await call('POST', '/public/v2/addresses', { ...SITE, formattedAddress: '' }, false), 400, /formattedAddress/);
    expectFailure(await call('POST', '/public/v2/addresses', { ...SITE, latitude: 91 }, false), 400, /latitude/);
    expectFailure(await call('POST', '/public/v2/addresses', { ...SITE, addressLines: [] }, false), 400, /addressLines/);
    expectFailure(await call('PUT', '/public/v2/addresses/00000000-0000-4000-8000-000000000000', SITE), 404, /not found/);
    expect((await call('GET', '/public/v2/addresses?metadata=portal-key-1')).body.content.totalCount).toBe(0);
  });
});

describe('creating a service line', () => {
  it('creates an active Priority line with its blocks, listed first, and a kit from stock goes on it', async () => {
    const address = await createAddress();
    const created = await call('POST', '/public/v2/service-lines', {
      addressReferenceId: address.addressReferenceId,
      productReferenceId: 'SUB-PRIORITY-BLOCKS',
      dataBlockProducts: { recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 3 }] },
    });
    expect(created.status).toBe(201);
    const line = created.body.content;
    expect(line).toMatchObject({
      addressReferenceId: address.addressReferenceId,
      productReferenceId: 'SUB-PRIORITY-BLOCKS',
      active: true,
      startDate: new Date(START).toISOString(),
      endDate: null,
      nickname: null,
      publicIp: false,
    });
    expect(line.dataBlocks.recurringBlocksCurrentBillingCycle).toEqual([expect.objectContaining({ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 3 })]);
    expect(line.serviceLineNumber).toMatch(/^AST-\d{6}-\d{5}-\d{2}$/);

    expect((await call('GET', '/public/v2/service-lines')).body.content.results[0].serviceLineNumber).toBe(line.serviceLineNumber);
    const atAddress = (await call('GET', `/public/v2/service-lines?addressReferenceId=${address.addressReferenceId}`)).body.content;
    expect(atAddress.results.map((l: { serviceLineNumber: string }) => l.serviceLineNumber)).toEqual([line.serviceLineNumber]);
    const usage = (await call('POST', '/public/v2/data-usage/query', { serviceLineNumbers: [line.serviceLineNumber] })).body.content.results[0];
    expect(usage.servicePlan).toMatchObject({ productId: 'SUB-PRIORITY-BLOCKS', usageLimitGB: 150 });

    const kit = sim.fleet.examples().stockKitSerialNumber!;
    expect((await call('POST', '/public/v2/user-terminals', { deviceId: kit })).status).toBe(200);
    expect((await call('POST', `/public/v2/service-lines/${line.serviceLineNumber}/user-terminals`, { deviceId: kit })).status).toBe(200);
    const terminal = (await call('GET', `/public/v2/user-terminals?serviceLineNumbers=${line.serviceLineNumber}`)).body.content.results[0];
    expect(terminal.kitSerialNumber).toBe(kit);
    const telemetry = (await call('POST', '/public/v2/telemetry/query', { userTerminalIds: [terminal.userTerminalId] })).body.content;
    expect(env.nowMs - Date.parse(telemetry.userTerminals[terminal.userTerminalId].timestamp)).toBeLessThan(15_000);
  });

  it('gives each line its own number, and two lines at one address are both listed there', async () => {
    const address = await createAddress();
    const body = { addressReferenceId: address.addressReferenceId, productReferenceId: 'SUB-METERED-50GB' };
    const first = await createLine(body);
    const second = await createLine(body);
    expect(first.serviceLineNumber).not.toBe(second.serviceLineNumber);
    const atAddress = (await call('GET', `/public/v2/service-lines?addressReferenceId=${address.addressReferenceId}&orderByCreatedDateDescending=false`)).body.content;
    expect(atAddress.results.map((l: { serviceLineNumber: string }) => l.serviceLineNumber)).toEqual([first.serviceLineNumber, second.serviceLineNumber]);
  });

  it('refuses an unknown address or product, blocks on a metered plan and data pools (422), and a missing product (400)', async () => {
    const address = await createAddress();
    const id = address.addressReferenceId;
    expectFailure(await call('POST', '/public/v2/service-lines', { addressReferenceId: '00000000-0000-4000-8000-000000000000', productReferenceId: 'SUB-METERED-50GB' }), 422, /Address .* was not found/);
    expectFailure(await call('POST', '/public/v2/service-lines', { addressReferenceId: id, productReferenceId: 'SUB-UNLIMITED' }), 422, /not available on this account/);
    const blocks = { recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 1 }] };
    expectFailure(await call('POST', '/public/v2/service-lines', { addressReferenceId: id, productReferenceId: 'SUB-METERED-1TB', dataBlockProducts: blocks }), 422, /does not take recurring data blocks/);
    expectFailure(await call('POST', '/public/v2/service-lines', { addressReferenceId: id, productReferenceId: 'SUB-PRIORITY-BLOCKS', dataBlockProducts: { dataPoolId: 'pool-1' } }), 422, /Data pool pool-1 was not found/);
    expectFailure(await call('POST', '/public/v2/service-lines', { addressReferenceId: id }, false), 400, /productReferenceId/);
    expect((await call('GET', `/public/v2/service-lines?addressReferenceId=${id}`)).body.content.totalCount).toBe(0);
  });
});

describe('changing a line', () => {
  it('renames a line, and the new name is searchable', async () => {
    const number = meteredLine();
    expect((await call('PUT', `/public/v2/service-lines/${number}/nickname`, { nickname: '  North Barn  ' })).status).toBe(200);
    expect((await getLine(number)).nickname).toBe('North Barn');
    const found = (await call('GET', '/public/v2/service-lines?searchString=north barn')).body.content.results;
    expect(found.map((l: { serviceLineNumber: string }) => l.serviceLineNumber)).toEqual([number]);
    expectFailure(await call('PUT', `/public/v2/service-lines/${number}/nickname`, { nickname: ' ' }, false), 400, /nickname/);
    expectFailure(await call('PUT', '/public/v2/service-lines/AST-000000-00000-00/nickname', { nickname: 'x' }), 404, /not found/);
  });

  it('turns public IP on and off, but not on an inactive line', async () => {
    const number = meteredLine();
    expect((await call('PUT', `/public/v2/service-lines/${number}/public-ip`, { publicIp: true })).status).toBe(200);
    expect((await getLine(number)).publicIp).toBe(true);
    expect((await call('PUT', `/public/v2/service-lines/${number}/public-ip`, { publicIp: false })).status).toBe(200);
    expect((await getLine(number)).publicIp).toBe(false);
    expectFailure(await call('PUT', `/public/v2/service-lines/${sim.fleet.examples().inactiveServiceLineNumber}/public-ip`, { publicIp: true }), 422, /not active/);
    expectFailure(await call('PUT', `/public/v2/service-lines/${number}/public-ip`, { publicIp: 'yes' }, false), 400, /publicIp/);
  });

  it('opts a line in to priority data, refuses to change it back during the cool-down, and lets it after', async () => {
    const number = meteredLine();
    await call('POST', `/public/v2/service-lines/${number}/data/opt-out`);
    await advance(OPT_IN_COOL_DOWN_MS);
    const optIn = await call('POST', `/public/v2/service-lines/${number}/data/opt-in`);
    expect(optIn.status).toBe(200);
    expect(optIn.body.content).toMatchObject({ productId: 'OVERAGE-PRIORITY-PER-GB', activatedDate: new Date(env.nowMs).toISOString(), deactivatedDate: null, isInOptInCoolDown: true });
    expect((await getLine(number)).optInProductId).toBe('OVERAGE-PRIORITY-PER-GB');
    // Asking again for the state it is in changes nothing.
    expect((await call('POST', `/public/v2/service-lines/${number}/data/opt-in`)).status).toBe(200);
    expectFailure(await call('POST', `/public/v2/service-lines/${number}/data/opt-out`), 422, /recently; try again after/);

    await advance(OPT_IN_COOL_DOWN_MS);
    const optOut = await call('POST', `/public/v2/service-lines/${number}/data/opt-out`);
    expect(optOut.body.content).toMatchObject({ deactivatedDate: new Date(env.nowMs).toISOString(), isInOptInCoolDown: true });
    expect((await getLine(number)).optInProductId).toBeNull();
    expectFailure(await call('POST', `/public/v2/service-lines/${sim.fleet.examples().inactiveServiceLineNumber}/data/opt-in`), 422, /not active/);
  });

  it("sets a Priority line's recurring blocks from the next cycle, or also for this one", async () => {
    const number = sim.fleet.examples().priorityServiceLineNumber!;
    const before = (await getLine(number)).dataBlocks;
    const next = { recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-1TB', count: 2 }] };
    expect((await call('PUT', `/public/v2/service-lines/${number}/data/recurring`, next)).status).toBe(200);
    let blocks = (await getLine(number)).dataBlocks;
    expect(blocks.recurringBlocksCurrentBillingCycle).toEqual(before.recurringBlocksCurrentBillingCycle);
    expect(blocks.recurringBlocksNextBillingCycle).toEqual([expect.objectContaining({ productId: 'DATA-BLOCK-PRIORITY-1TB', count: 2, startDate: '2026-04-01T00:00:00.000Z' })]);

    expect((await call('PUT', `/public/v2/service-lines/${number}/data/recurring`, { ...next, applyToCurrentMonth: true })).status).toBe(200);
    blocks = (await getLine(number)).dataBlocks;
    expect(blocks.recurringBlocksCurrentBillingCycle).toEqual([expect.objectContaining({ productId: 'DATA-BLOCK-PRIORITY-1TB', count: 2 })]);

    expectFailure(await call('PUT', `/public/v2/service-lines/${meteredLine()}/data/recurring`, next), 422, /does not take recurring data blocks/);
    expectFailure(await call('PUT', `/public/v2/service-lines/${number}/data/recurring`, { recurringDataBlocks: [] }), 422, /at least one/);
    expectFailure(await call('PUT', `/public/v2/service-lines/${number}/data/recurring`, { recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-1TB', count: 101 }] }), 422, /from 1 to 100/);
  });

  it('buys top-up blocks that raise the cycle limit, up to the most a cycle sells', async () => {
    const number = meteredLine();
    const limit = async () => (await call('POST', '/public/v2/data-usage/query', { serviceLineNumbers: [number] })).body.content.results[0].servicePlan.usageLimitGB;
    const bought = (line: { dataBlocks: { topUpBlocksOneTimePurchase: { count: number }[] } }) =>
      line.dataBlocks.topUpBlocksOneTimePurchase.reduce((sum, block) => sum + block.count, 0);
    const limitBefore = await limit();
    const countBefore = bought(await getLine(number));
    const answer = await call('POST', `/public/v2/service-lines/${number}/data/top-up`, { productId: 'DATA-TOPUP-50GB', count: 2 });
    expect(answer.status).toBe(200);
    expect(await limit()).toBe(limitBefore + 100);
    const line = await getLine(number);
    expect(bought(line)).toBe(countBefore + 2);
    expect(line.dataBlocks.topUpBlocksOneTimePurchase.at(-1)).toMatchObject({ productId: 'DATA-TOPUP-50GB', count: 2, startDate: new Date(START).toISOString(), expirationDate: '2026-03-31T23:59:59.000Z' });

    expectFailure(await call('POST', `/public/v2/service-lines/${number}/data/top-up`, { productId: 'DATA-BLOCK-PRIORITY-1TB', count: 1 }), 422, /not a top-up of SUB-METERED-50GB/);
    const left = MAX_TOP_UP_BLOCKS_PER_CYCLE - countBefore - 2;
    expectFailure(await call('POST', `/public/v2/service-lines/${number}/data/top-up`, { productId: 'DATA-TOPUP-50GB', count: left + 1 }), 422, new RegExp(`\\(${left} left\\)`));
    expect(bought(await getLine(number))).toBe(countBefore + 2);
  });
});

describe('partial periods', () => {
  const periodsOf = async (number: string) => (await call('GET', `/public/v2/service-lines/${number}/billing-cycles/partial-periods`)).body.content;

  it("has the first cycle of a line that started mid-cycle, and nothing for its full cycles since", async () => {
    const number = meteredLine();
    const line = await getLine(number);
    const start = new Date(line.startDate);
    const nextMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)).toISOString();
    expect(await periodsOf(number)).toEqual([{ productReferenceId: 'SUB-METERED-50GB', periodStart: line.startDate, periodEnd: nextMonth }]);
  });

  it('has one period for a line created this cycle, and two more around a plan change', async () => {
    const address = await createAddress();
    const created = await createLine({ addressReferenceId: address.addressReferenceId, productReferenceId: 'SUB-METERED-50GB' });
    expect(await periodsOf(created.serviceLineNumber)).toEqual([{ productReferenceId: 'SUB-METERED-50GB', periodStart: new Date(START).toISOString(), periodEnd: '2026-04-01T00:00:00.000Z' }]);

    const number = meteredLine();
    const history = await periodsOf(number);
    await advance(48 * HOUR);
    expect((await call('PUT', `/public/v2/service-lines/${number}/product`, { productReferenceId: 'SUB-METERED-1TB' })).status).toBe(200);
    expect(await periodsOf(number)).toEqual([
      ...history,
      { productReferenceId: 'SUB-METERED-50GB', periodStart: '2026-03-01T00:00:00.000Z', periodEnd: new Date(env.nowMs).toISOString() },
      { productReferenceId: 'SUB-METERED-1TB', periodStart: new Date(env.nowMs).toISOString(), periodEnd: '2026-04-01T00:00:00.000Z' },
    ]);
    expectFailure(await call('GET', '/public/v2/service-lines/AST-000000-00000-00/billing-cycles/partial-periods'), 404, /not found/);
  });
});

describe('ending a line', () => {
  it('ends a line at the end of its cycle: active until then with the end date, inactive after', async () => {
    const number = meteredLine();
    const answer = await call('DELETE', `/public/v2/service-lines/${number}?endNow=false&reasonForCancellation=Customer%20moved`);
    expect(answer.status).toBe(200);
    expect(answer.body.information).toEqual([`Service line ${number} will be deactivated on 2026-03-31`]);
    expect(await getLine(number)).toMatchObject({ active: true, endDate: '2026-03-31T23:59:59.000Z' });
    expect((await getLine(number)).dataBlocks.recurringBlocksNextBillingCycle).toEqual([]);
    expectFailure(await call('DELETE', `/public/v2/service-lines/${number}`), 422, /already set to end on 2026-03-31/);

    await advance(Date.parse('2026-04-01T00:00:05.000Z') - env.nowMs);
    expect(await getLine(number)).toMatchObject({ active: false, endDate: '2026-03-31T23:59:59.000Z' });
    // Ended on the cycle's last second: March was a whole month, not a partial one.
    const partial = (await call('GET', `/public/v2/service-lines/${number}/billing-cycles/partial-periods`)).body.content;
    expect(partial.filter((p: { periodStart: string }) => p.periodStart >= '2026-03-01')).toEqual([]);
  });

  it('ends a line now: inactive at once, a partial period to the moment, and nothing more can be done on it', async () => {
    const address = await createAddress();
    const created = await createLine({ addressReferenceId: address.addressReferenceId, productReferenceId: 'SUB-METERED-1TB' });
    const number = created.serviceLineNumber;
    await advance(24 * HOUR);
    expect((await call('DELETE', `/public/v2/service-lines/${number}?endNow=true`)).body.information).toEqual([`Service line ${number} deactivated`]);
    expect(await getLine(number)).toMatchObject({ active: false, endDate: new Date(env.nowMs).toISOString() });
    const periods = (await call('GET', `/public/v2/service-lines/${number}/billing-cycles/partial-periods`)).body.content;
    expect(periods).toEqual([{ productReferenceId: 'SUB-METERED-1TB', periodStart: new Date(START).toISOString(), periodEnd: new Date(env.nowMs + 1000).toISOString() }]);
    expectFailure(await call('DELETE', `/public/v2/service-lines/${number}?endNow=true`), 422, /not active/);
    expectFailure(await call('POST', `/public/v2/service-lines/${number}/data/top-up`, { productId: 'DATA-TOPUP-50GB', count: 1 }), 422, /not active/);
    const active = (await call('POST', '/public/v2/data-usage/query', { serviceLineNumbers: [number] })).body.content;
    expect(active.totalCount).toBe(0);
  });

  it('refuses a bad endNow (400) and an unknown line (404)', async () => {
    expectFailure(await call('DELETE', `/public/v2/service-lines/${meteredLine()}?endNow=soon`), 400, /endNow/);
    expectFailure(await call('DELETE', '/public/v2/service-lines/AST-000000-00000-00?endNow=true'), 404, /not found/);
  });
});
