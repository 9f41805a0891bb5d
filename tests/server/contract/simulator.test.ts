// Every simulator answer the portal relies on, checked against the contract over real HTTP (the
// project's own, or the provider's published document in `npm run test:provider-contract`); plus
// the 400/403/404/422 cases and the write operations' effects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../../server/simulator/index';
import { contract } from './openapi-contract';
import { connect, expectFailure } from './simulator-calls';
import { simulatorToken } from '../simulator-token';

const NOW = new Date('2026-03-18T10:30:00.000Z');

let sim: RunningSimulator;
let call: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  sim = await startSimulator({ now: () => NOW });
  call = await connect(sim);
});
afterAll(() => sim.close());

describe(`read answers match ${contract.label}`, () => {
  it('answers the account with the seed-derived account number', async () => {
    const { status, body } = await call('GET', '/public/v2/account');
    expect(status).toBe(200);
    expect(body.content.accountNumber).toMatch(/^ACC-\d{6}-\d{5}-\d{2}$/);
    expect(body.content.accountNumber).toBe(sim.fleet.accountNumber);
    expect(body).toMatchObject({ errors: null, warnings: null, information: null, isValid: true });
  });

  it('lists the three plans with prices, currency and data products', async () => {
    const { body } = await call('GET', '/public/v2/products');
    const products = body.content.results;
    expect(body.content).toMatchObject({ pageIndex: 0, limit: 100, isLastPage: true, totalCount: 3 });
    expect(products.map((p: { name: string }) => p.name)).toEqual(['Local Priority 50 GB', 'Local Priority 1 TB', 'Priority (recurring data blocks)']);
    for (const product of products) {
      expect(product.price).toBeGreaterThan(0);
      expect(product.isoCurrencyCode).toBe('USD');
      expect(product.dataProducts.topUpProduct).toMatchObject({ dataAmount: 50, dataUnit: 'GB' });
    }
    expect(products[2].dataProducts.dataBlockProducts).toEqual([
      expect.objectContaining({ dataAmount: 50, dataUnit: 'GB' }),
      expect.objectContaining({ dataAmount: 1, dataUnit: 'TB' }),
    ]);
  });

  it('answers a service line and the address it points to', async () => {
    const line = (await call('GET', `/public/v2/service-lines/${sim.fleet.knownServiceLineNumber}`)).body.content;
    expect(line).toMatchObject({ serviceLineNumber: sim.fleet.knownServiceLineNumber, active: true, endDate: null, productReferenceId: 'SUB-METERED-50GB' });
    const address = (await call('GET', `/public/v2/addresses/${line.addressReferenceId}`)).body.content;
    expect(address.addressReferenceId).toBe(line.addressReferenceId);
    expect(address.formattedAddress).toContain(address.locality);
    expect(address.formattedAddress).toContain(address.addressLines[0]);
    expect(Math.abs(address.latitude)).toBeLessThanOrEqual(90);
    expect(Math.abs(address.longitude)).toBeLessThanOrEqual(180);
  });

  it('shows a Priority line its recurring blocks for this cycle and the next', async () => {
    const number = sim.fleet.examples().priorityServiceLineNumber!;
    const { dataBlocks } = (await call('GET', `/public/v2/service-lines/${number}`)).body.content;
    expect(dataBlocks.recurringBlocksCurrentBillingCycle).toEqual([
      expect.objectContaining({ startDate: '2026-03-01T00:00:00.000Z', expirationDate: '2026-03-31T23:59:59.000Z' }),
    ]);
    expect(dataBlocks.recurringBlocksNextBillingCycle[0].startDate).toBe('2026-04-01T00:00:00.000Z');
    expect(dataBlocks.recurringBlocksCurrentBillingCycle[0].count).toBeGreaterThanOrEqual(1);
  });

  it('pages service lines, user terminals and data usage in the documented shapes', async () => {
    for (const page of [0, 1]) {
      await call('GET', `/public/v2/service-lines?page=${page}`);
      await call('GET', `/public/v2/user-terminals?page=${page}`);
    }
    await call('POST', '/public/v2/data-usage/query?limit=250', { previousBillingCycles: 3, activeServiceLinesOnly: false });
    await call('POST', '/public/v2/data-usage/query', {});
    await call('POST', '/public/v2/data-usage/query', { serviceLineNumbers: [sim.fleet.knownServiceLineNumber], queryStartDate: '2026-01-15T00:00:00Z' });
  });

  it("answers telemetry (not in the provider's published document) with one record per terminal and the project contract's fields", async () => {
    const ids = sim.fleet.userTerminalIds();
    const { status, body } = await call('POST', '/public/v2/telemetry/query', { userTerminalIds: ids });
    expect(status).toBe(200);
    const { content, ...envelope } = body;
    contract.expectSchemaMatches('ServiceResponse', envelope);
    const records = content.userTerminals;
    expect(Object.keys(records).sort()).toEqual([...ids].sort());
    for (const record of Object.values<Record<string, unknown>>(records)) {
      expect(record).toMatchObject({
        timestamp: expect.any(String),
        uptimeSeconds: expect.any(Number),
        downlinkThroughputMbps: expect.any(Number),
        uplinkThroughputMbps: expect.any(Number),
        popPingDropRateAvg: expect.any(Number),
        popPingLatencyMsAvg: expect.any(Number),
        obstructionPercentTime: expect.any(Number),
        signalQuality: expect.any(Number),
        softwareVersion: expect.stringMatching(/^\d{4}\.\d{2}\.\d{2}\.mr\d+$/),
        hardwareVersion: expect.any(String),
        alertHighTimeObstruction: expect.any(Boolean),
        alertDisabledDataUsageExceededQuota: expect.any(Boolean),
        alertMotorsStuck: expect.any(Boolean),
        alertThermalThrottle: expect.any(Boolean),
      });
      expect(record.signalQuality).toBeGreaterThanOrEqual(0);
      expect(record.signalQuality).toBeLessThanOrEqual(1);
    }
  });

  it('reports an unattached terminal as offline: its telemetry is older than 60 seconds', async () => {
    const { unattachedUserTerminalId, activeUserTerminalId } = sim.fleet.examples();
    const { body } = await call('POST', '/public/v2/telemetry/query', { userTerminalIds: [unattachedUserTerminalId, activeUserTerminalId] });
    const age = (id: string) => NOW.getTime() - Date.parse(body.content.userTerminals[id].timestamp);
    expect(age(unattachedUserTerminalId!)).toBeGreaterThan(60_000);
    expect(age(activeUserTerminalId)).toBeLessThan(15_000);
    expect(body.content.userTerminals[unattachedUserTerminalId!].downlinkThroughputMbps).toBe(0);
  });

  it('warns about unknown terminals in a telemetry query instead of failing it', async () => {
    const { body } = await call('POST', '/public/v2/telemetry/query', { userTerminalIds: ['00000000-00000000-00000000'] });
    expect(body.isValid).toBe(true);
    expect(body.content.userTerminals).toEqual({});
    expect(body.warnings[0].errorMessage).toContain('00000000-00000000-00000000');
  });
});

describe('writes', () => {
  it('attaches an unattached terminal to an active line and detaches it again', async () => {
    const terminalId = sim.fleet.examples().unattachedUserTerminalId!;
    const line = sim.fleet.knownServiceLineNumber;
    const attached = await call('POST', `/public/v2/service-lines/${line}/user-terminals`, { deviceId: terminalId });
    expect(attached.status).toBe(200);
    expect(attached.body).toEqual({ errors: null, warnings: null, information: null, isValid: true });
    const onLine = await call('GET', `/public/v2/user-terminals?serviceLineNumbers=${line}`);
    expect(onLine.body.content.results.map((t: { userTerminalId: string }) => t.userTerminalId)).toContain(terminalId);

    const detached = await call('DELETE', `/public/v2/service-lines/${line}/user-terminals/${terminalId}`);
    expect(detached.status).toBe(200);
    const after = await call('GET', `/public/v2/user-terminals?userTerminalIds=${terminalId}`);
    expect(after.body.content.results[0].serviceLineNumber).toBeNull();
  });

  it('accepts a kit serial number as the device id', async () => {
    const index = sim.fleet.terminalIndex(sim.fleet.examples().unattachedUserTerminalId!)!;
    const { kitSerialNumber, userTerminalId } = sim.fleet.terminal(index);
    const line = sim.fleet.knownServiceLineNumber;
    expect((await call('POST', `/public/v2/service-lines/${line}/user-terminals`, { deviceId: kitSerialNumber })).status).toBe(200);
    expect((await call('DELETE', `/public/v2/service-lines/${line}/user-terminals/${userTerminalId}`)).status).toBe(200);
  });

  it('reboots an online terminal and its uptime starts again', async () => {
    const id = sim.fleet.knownUserTerminalId;
    const { status, body } = await call('POST', `/public/v2/user-terminals/${id}/reboot`);
    expect(status).toBe(200);
    expect(body.information).toEqual(['Reboot command sent']);
    const telemetry = await call('POST', '/public/v2/telemetry/query', { userTerminalIds: [id] });
    expect(telemetry.body.content.userTerminals[id].uptimeSeconds).toBe(0);
  });

  it('moves a line to a bigger plan at once, and schedules a smaller one for the next cycle', async () => {
    const number = sim.fleet.serviceLineNumbers().find((n) => {
      const line = sim.fleet.serviceLine(n)!;
      return line.active && line.productReferenceId === 'SUB-METERED-50GB' && n !== sim.fleet.knownServiceLineNumber;
    })!;
    const upgrade = await call('PUT', `/public/v2/service-lines/${number}/product`, { productReferenceId: 'SUB-METERED-1TB' });
    expect(upgrade.status).toBe(200);
    let line = (await call('GET', `/public/v2/service-lines/${number}`)).body.content;
    expect(line).toMatchObject({ productReferenceId: 'SUB-METERED-1TB', delayedProductId: null });
    const usage = await call('POST', '/public/v2/data-usage/query', { serviceLineNumbers: [number] });
    expect(usage.body.content.results[0].servicePlan).toMatchObject({ productId: 'SUB-METERED-1TB', usageLimitGB: expect.any(Number) });
    expect(usage.body.content.results[0].servicePlan.usageLimitGB).toBeGreaterThanOrEqual(1000);

    const downgrade = await call('PUT', `/public/v2/service-lines/${number}/product`, { productReferenceId: 'SUB-METERED-50GB' });
    expect(downgrade.body.information[0]).toContain('scheduled for 2026-04-01');
    line = (await call('GET', `/public/v2/service-lines/${number}`)).body.content;
    expect(line).toMatchObject({ productReferenceId: 'SUB-METERED-1TB', delayedProductId: 'SUB-METERED-50GB' });
  });

  it('moves a line onto Priority with the recurring blocks asked for', async () => {
    const number = sim.fleet.serviceLineNumbers().find((n) => {
      const line = sim.fleet.serviceLine(n)!;
      return line.active && line.productReferenceId === 'SUB-METERED-1TB';
    })!;
    const body = { productReferenceId: 'SUB-PRIORITY-BLOCKS', recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 4 }], delayUpdate: false };
    expect((await call('PUT', `/public/v2/service-lines/${number}/product`, body)).status).toBe(200);
    const line = (await call('GET', `/public/v2/service-lines/${number}`)).body.content;
    expect(line.dataBlocks.recurringBlocksCurrentBillingCycle).toEqual([expect.objectContaining({ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 4, dataAmount: 50 })]);
  });
});

describe(`error answers are envelopes ${contract.label} allows`, () => {

  it('answers 404 for an unknown service line, address or terminal', async () => {
    expectFailure(await call('GET', '/public/v2/service-lines/AST-000000-00000-00'), 404, /not found/);
    expectFailure(await call('GET', '/public/v2/addresses/00000000-0000-4000-8000-000000000000'), 404, /not found/);
    expectFailure(await call('POST', `/public/v2/service-lines/${sim.fleet.knownServiceLineNumber}/user-terminals`, { deviceId: 'KIT99999999' }), 404, /not found/);
    expectFailure(await call('POST', '/public/v2/user-terminals/00000000-00000000-00000000/reboot'), 404, /not found/);
    expectFailure(await call('DELETE', `/public/v2/service-lines/AST-000000-00000-00/user-terminals/${sim.fleet.knownUserTerminalId}`), 404, /not found/);
  });

  it('answers 404 with an envelope for a route the provider does not have', async () => {
    const answer = await call('GET', '/public/v2/no-such-thing', undefined, false);
    expect(answer.status).toBe(404);
    contract.expectSchemaMatches('ServiceResponse', answer.body);
  });

  it('answers 422 when the terminal is already on a line', async () => {
    const other = sim.fleet.serviceLineNumbers().find((n) => n !== sim.fleet.knownServiceLineNumber && sim.fleet.serviceLine(n)!.active)!;
    const answer = await call('POST', `/public/v2/service-lines/${other}/user-terminals`, { deviceId: sim.fleet.knownUserTerminalId });
    expectFailure(answer, 422, new RegExp(`already on service line ${sim.fleet.knownServiceLineNumber}`));
  });

  it('answers 422 for attaching to, or changing the plan of, an inactive line', async () => {
    const { inactiveServiceLineNumber, unattachedUserTerminalId } = sim.fleet.examples();
    expectFailure(await call('POST', `/public/v2/service-lines/${inactiveServiceLineNumber}/user-terminals`, { deviceId: unattachedUserTerminalId }), 422, /not active/);
    expectFailure(await call('PUT', `/public/v2/service-lines/${inactiveServiceLineNumber}/product`, { productReferenceId: 'SUB-METERED-1TB' }), 422, /not active/);
  });

  it('answers 422 for an unknown product or a block the plan does not sell', async () => {
    const line = sim.fleet.knownServiceLineNumber;
    expectFailure(await call('PUT', `/public/v2/service-lines/${line}/product`, { productReferenceId: 'SUB-UNLIMITED' }), 422, /not available/);
    const wrongBlock = { productReferenceId: 'SUB-PRIORITY-BLOCKS', recurringDataBlocks: [{ productId: 'DATA-TOPUP-50GB', count: 1 }] };
    expectFailure(await call('PUT', `/public/v2/service-lines/${line}/product`, wrongBlock), 422, /not available/);
    const blocksOnMetered = { productReferenceId: 'SUB-METERED-1TB', recurringDataBlocks: [{ productId: 'DATA-BLOCK-PRIORITY-50GB', count: 1 }] };
    expectFailure(await call('PUT', `/public/v2/service-lines/${line}/product`, blocksOnMetered), 422, /does not take/);
  });

  it('answers 422 for rebooting an offline terminal and for detaching a terminal from a line it is not on', async () => {
    const { offlineUserTerminalId } = sim.fleet.examples();
    expectFailure(await call('POST', `/public/v2/user-terminals/${offlineUserTerminalId}/reboot`), 422, /offline/);
    expectFailure(await call('DELETE', `/public/v2/service-lines/${sim.fleet.knownServiceLineNumber}/user-terminals/${offlineUserTerminalId}`), 422, /not on service line/);
  });

  it('answers 400 for bad parameters and bodies', async () => {
    expectFailure(await call('GET', '/public/v2/user-terminals?page=-1'), 400, /page/);
    expectFailure(await call('GET', '/public/v2/user-terminals?page=first'), 400, /page/);
    expectFailure(await call('GET', '/public/v2/user-terminals?hasServiceLine=maybe'), 400, /hasServiceLine/);
    expectFailure(await call('GET', '/public/v2/addresses/not-a-uuid'), 400, /address reference id/);
    expectFailure(await call('POST', '/public/v2/data-usage/query?limit=251', {}), 400, /limit/);
    expectFailure(await call('POST', '/public/v2/data-usage/query', { previousBillingCycles: 'two' }, false), 400, /previousBillingCycles/);
    expectFailure(await call('POST', '/public/v2/data-usage/query', { queryStartDate: '2030-01-01T00:00:00Z' }), 400, /future/);
    expectFailure(await call('POST', `/public/v2/service-lines/${sim.fleet.knownServiceLineNumber}/user-terminals`, {}, false), 400, /deviceId/);
  });

  it('answers 400 with an envelope for a body that is not JSON', async () => {
    const token = { access_token: await simulatorToken(sim) };
    const response = await fetch(`${sim.baseUrl}/public/v2/data-usage/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: '{"serviceLineNumbers": [',
    });
    expect(response.status).toBe(400);
    const body = await response.json();
    contract.expectResponseMatches('POST', '/public/v2/data-usage/query', 400, body);
    expect(body.errors[0].errorMessage).toMatch(/not valid JSON/);
  });

  it('answers 403 to a POST or PUT that is not application/json, as the provider does', async () => {
    const token = { access_token: await simulatorToken(sim) };
    for (const [method, path, contentType] of [
      ['POST', '/public/v2/data-usage/query', 'text/plain'],
      ['PUT', `/public/v2/service-lines/${sim.fleet.knownServiceLineNumber}/product`, 'application/x-www-form-urlencoded'],
      ['POST', `/public/v2/user-terminals/${sim.fleet.knownUserTerminalId}/reboot`, undefined],
    ] as const) {
      const response = await fetch(`${sim.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token.access_token}`, ...(contentType ? { 'content-type': contentType } : {}) },
        body: contentType ? 'productReferenceId=SUB-METERED-1TB' : undefined,
      });
      expect(response.status).toBe(403);
      const body = await response.json();
      contract.expectResponseMatches(method, path, 403, body);
      expect(body.errors[0].errorMessage).toBe('Content-Type must be application/json');
    }
  });
});
