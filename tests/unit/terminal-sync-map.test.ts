// The sync's mapping from provider records to rows: plan, priority, cap, type, location,
// condition, the content hash, when a record cannot be applied, and usage cycles.
import { describe, expect, it } from 'vitest';
import type { ProviderAddress, ProviderDataUsage, ProviderProduct, ProviderServiceLine, ProviderTelemetry, ProviderUserTerminal } from '../../server/provider';
import { MODELS, modelOf, terminalModelOf } from '../../server/provider/hardware';
import { MODELS as SIMULATOR_MODELS } from '../../server/simulator/catalog';
import {
  activeAlerts,
  addressRow,
  dataCapOf,
  productRow,
  serviceLineRow,
  telemetryRow,
  terminalRecord,
  usageRows,
  type TerminalSources,
} from '../../server/services/terminal-sync-map';

const AT = new Date('2026-03-18T10:30:00.000Z');
const ACCOUNT = 'ACC-150940-77763-41';

const terminal = (overrides: Partial<ProviderUserTerminal> = {}): ProviderUserTerminal => ({
  userTerminalId: '00020900-002220cc-225b9199',
  nickname: 'Moab Ranch dish',
  kitSerialNumber: 'KIT00142069',
  dishSerialNumber: '2ENT00542069',
  serviceLineNumber: 'AST-511274-31364-54',
  l2VpnCircuits: [],
  routers: [],
  ...overrides,
});

const block = (count: number, dataAmount: number, dataUnitType: string | null) => ({
  productId: 'DATA-BLOCK',
  startDate: '2026-03-01T00:00:00.000Z',
  expirationDate: '2026-03-31T23:59:59.000Z',
  count,
  dataAmount,
  dataUnitType,
});

const line = (overrides: Partial<ProviderServiceLine> = {}): ProviderServiceLine => ({
  serviceLineNumber: 'AST-511274-31364-54',
  addressReferenceId: '55ec6574-10d8-4d9c-a951-d4184f4ae467',
  nickname: 'Moab Ranch',
  productReferenceId: 'SUB-PRIORITY-BLOCKS',
  delayedProductId: null,
  optInProductId: null,
  startDate: '2025-01-01T00:00:00.000Z',
  endDate: null,
  publicIp: false,
  active: true,
  aviationMetadata: null,
  dataBlocks: {
    recurringBlocksCurrentBillingCycle: [block(2, 1, 'TB')],
    recurringBlocksNextBillingCycle: [],
    delayedProductRecurringBlocksNextCycle: [],
    topUpBlocksOptInPurchase: [],
    topUpBlocksOneTimePurchase: [],
  },
  ...overrides,
});

const product: ProviderProduct = {
  productReferenceId: 'SUB-PRIORITY-BLOCKS',
  name: 'Priority (recurring data blocks)',
  price: 25,
  isoCurrencyCode: 'USD',
  isSla: true,
  maxNumberOfUserTerminals: null,
  dataProducts: null,
};

const address: ProviderAddress = {
  addressReferenceId: '55ec6574-10d8-4d9c-a951-d4184f4ae467',
  addressLines: ['12 Main Street'],
  locality: 'Moab',
  administrativeArea: 'Utah',
  administrativeAreaCode: 'UT',
  region: 'United States',
  regionCode: 'US',
  postalCode: '84532',
  metadata: null,
  formattedAddress: '12 Main Street, Moab, UT 84532, US',
  latitude: 38.5,
  longitude: -109.5,
};

const telemetry = (overrides: Partial<ProviderTelemetry> = {}): ProviderTelemetry => ({
  userTerminalId: '00020900-002220cc-225b9199',
  timestamp: '2026-03-18T10:29:55.000Z',
  uptimeSeconds: 86_400,
  downlinkThroughputMbps: 120,
  uplinkThroughputMbps: 12,
  popPingDropRateAvg: 0.001,
  popPingLatencyMsAvg: 31,
  obstructionPercentTime: 0.4,
  signalQuality: 0.93,
  softwareVersion: '2026.02.11.mr62310',
  hardwareVersion: 'enterprise_prod1',
  alerts: { alertMotorsStuck: false, alertIsHeating: false },
  ...overrides,
});

const sources = (overrides: Partial<TerminalSources> = {}): TerminalSources => ({
  terminal: terminal(),
  accountNumber: ACCOUNT,
  line: line(),
  product,
  address,
  telemetry: telemetry(),
  at: AT,
  ...overrides,
});

describe('a terminal row from its provider records', () => {
  it('denormalises plan, priority, cap, type, location and an active condition', () => {
    const record = terminalRecord(sources());
    expect(record.ok).toBe(true);
    if (!record.ok) return;
    expect(record.row).toMatchObject({
      userTerminalId: '00020900-002220cc-225b9199',
      accountNumber: ACCOUNT,
      kitSerialNumber: 'KIT00142069',
      serviceLineNumber: 'AST-511274-31364-54',
      active: true,
      condition: 'active',
      isPriority: true,
      plan: 'Priority (recurring data blocks)',
      productReferenceId: 'SUB-PRIORITY-BLOCKS',
      dataCapAmount: 2,
      dataCapUnit: 'TB',
      terminalType: 'Enterprise',
      model: 'enterprise_prod1',
      location: '12 Main Street, Moab, UT 84532, US',
      region: 'United States',
      latitude: 38.5,
      longitude: -109.5,
    });
    expect(record.row.contentHash).toMatch(/^[\w-]{20,}$/);
  });

  it('reports a terminal whose service line the listing does not hold as a failure with the reason', () => {
    const record = terminalRecord(sources({ line: undefined }));
    expect(record).toEqual({
      ok: false,
      failure: expect.objectContaining({
        userTerminalId: '00020900-002220cc-225b9199',
        serviceLineNumber: 'AST-511274-31364-54',
        error: "Service line AST-511274-31364-54 is not in the provider's service line listing",
      }),
    });
  });

  it('takes a terminal on no service line as inactive, with no plan, cap or place', () => {
    const record = terminalRecord(sources({ terminal: terminal({ serviceLineNumber: null }), line: undefined, product: undefined, address: undefined }));
    expect(record.ok && record.row).toMatchObject({ active: false, condition: 'inactive', plan: null, dataCapAmount: null, location: null, isPriority: false });
  });

  it('reads the type from the dish serial when there is no telemetry, and marks the terminal a warning', () => {
    const record = terminalRecord(sources({ terminal: terminal({ dishSerialNumber: '5MNI00000001' }), telemetry: undefined }));
    expect(record.ok && record.row).toMatchObject({ terminalType: 'Mini', model: 'mini1_prod2', condition: 'warning' });
  });

  it('falls back to the locality when the address has no formatted form', () => {
    const record = terminalRecord(sources({ address: { ...address, formattedAddress: null } }));
    expect(record.ok && record.row.location).toBe('Moab');
  });

  it('turns on maintenance for a hardware alert and warning for an old report or a weak signal', () => {
    const condition = (t: ProviderTelemetry) => {
      const record = terminalRecord(sources({ telemetry: t }));
      return record.ok ? record.row.condition : null;
    };
    expect(condition(telemetry({ alerts: { alertMotorsStuck: true } }))).toBe('maintenance');
    expect(condition(telemetry({ timestamp: '2026-03-18T10:20:00.000Z' }))).toBe('warning');
    expect(condition(telemetry({ signalQuality: 0.5 }))).toBe('warning');
    expect(condition(telemetry({ alerts: { alertIsHeating: true } }))).toBe('warning');
    expect(terminalRecord(sources({ line: line({ active: false }) }))).toMatchObject({ row: { condition: 'inactive', active: false } });
  });

  it('hashes what the provider said, not when: the same records give the same hash, a change a new one', () => {
    const hash = (s: TerminalSources) => {
      const record = terminalRecord(s);
      return record.ok ? record.row.contentHash : null;
    };
    const base = hash(sources());
    expect(hash(sources({ at: new Date(AT.getTime() + 5_000), telemetry: telemetry({ timestamp: '2026-03-18T10:30:00.000Z', uptimeSeconds: 99 }) }))).toBe(base);
    expect(hash(sources({ terminal: terminal({ nickname: 'Renamed' }) }))).not.toBe(base);
    expect(hash(sources({ line: line({ active: false }) }))).not.toBe(base);
  });
});

describe('data caps from recurring blocks', () => {
  const withBlocks = (...blocks: ReturnType<typeof block>[]) =>
    line({ dataBlocks: { ...line().dataBlocks!, recurringBlocksCurrentBillingCycle: blocks } });

  it('keeps TB when every block is in TB, and counts GB otherwise (1 TB = 1,000 GB)', () => {
    expect(dataCapOf(withBlocks(block(2, 1, 'TB')))).toEqual({ amount: 2, unit: 'TB' });
    expect(dataCapOf(withBlocks(block(5, 50, 'GB')))).toEqual({ amount: 250, unit: 'GB' });
    expect(dataCapOf(withBlocks(block(1, 1, 'TB'), block(2, 50, 'GB')))).toEqual({ amount: 1100, unit: 'GB' });
    expect(dataCapOf(withBlocks(block(3, 50, null)))).toEqual({ amount: 150, unit: 'GB' });
  });

  it('has no cap without recurring blocks (metered plans get theirs from the usage sync)', () => {
    expect(dataCapOf(withBlocks())).toBeNull();
    expect(dataCapOf(line({ dataBlocks: null }))).toBeNull();
  });
});

describe('reference rows and telemetry', () => {
  it('maps products, addresses and service lines field by field', () => {
    expect(productRow(product, ACCOUNT, 1)).toMatchObject({ productReferenceId: 'SUB-PRIORITY-BLOCKS', isSla: true, price: 25, raw: product });
    expect(productRow({ ...product, isSla: null }, ACCOUNT, 1).isSla).toBe(false);
    expect(addressRow(address, ACCOUNT, 1)).toMatchObject({ formattedAddress: address.formattedAddress, locality: 'Moab', regionCode: 'US' });
    expect(serviceLineRow(line(), ACCOUNT, 1)).toMatchObject({ serviceLineNumber: 'AST-511274-31364-54', active: true, productReferenceId: 'SUB-PRIORITY-BLOCKS' });
  });

  it('stores telemetry as sent (signal 0–1) with the alerts that are on, by name', () => {
    const row = telemetryRow(telemetry({ alerts: { alertMotorsStuck: true, alertIsHeating: false, alertRoaming: true } }));
    expect(row).toMatchObject({ signalQuality: 0.93, latencyMs: 31, hardwareVersion: 'enterprise_prod1', alerts: ['alertMotorsStuck', 'alertRoaming'] });
    expect(activeAlerts(telemetry())).toEqual([]);
  });
});

describe('the hardware table', () => {
  it('is the one table the simulator builds its fleet from', () => {
    expect(SIMULATOR_MODELS).toBe(MODELS);
    expect(modelOf('2DHT00542069')?.name).toBe('Standard Actuated');
    expect(modelOf('hp1_proto1')?.name).toBe('Flat High Performance');
    expect(modelOf('ZZZZ0000')).toBeUndefined();
  });

  it('prefers what the dish reports about itself over its serial prefix', () => {
    expect(terminalModelOf({ hardwareVersion: 'mini1_prod2', dishSerialNumber: '2ENT00000001' })?.name).toBe('Mini');
    expect(terminalModelOf({ hardwareVersion: 'unknown_rev', dishSerialNumber: '2ENT00000001' })?.name).toBe('Enterprise');
    expect(terminalModelOf({ hardwareVersion: null, dishSerialNumber: null })).toBeUndefined();
  });
});

describe('usage rows', () => {
  const cycle = (start: string, end: string, days: { date: string; priorityGB: number; standardGB: number }[], overageGB: number | null = null) => ({
    startDate: start,
    endDate: end,
    dailyDataUsage: days.map((d) => ({ ...d, optInPriorityGB: 0, nonBillableGB: 0.01 })),
    overageLines:
      overageGB === null
        ? []
        : [{ restricted: 3, unrestricted: 4, pricePerGB: 1, usageLimitGB: 50, overageAmountGB: overageGB, consumedAmountGB: 50, overagePrice: overageGB, productId: 'OVERAGE', dataOverageType: 1, activeFrom: null }],
    dataPoolUsage: [],
    totalPriorityGB: days.reduce((s, d) => s + d.priorityGB, 0),
    totalStandardGB: days.reduce((s, d) => s + d.standardGB, 0),
    totalOptInPriorityGB: 0,
    totalNonBillableGB: 0.01 * days.length,
  });

  const record: ProviderDataUsage = {
    accountNumber: ACCOUNT,
    serviceLineNumber: 'AST-511274-31364-54',
    startDate: '2026-02-01T00:00:00.000Z',
    endDate: '2026-03-31T23:59:59.000Z',
    billingCycles: [
      cycle('2026-02-01T00:00:00.000Z', '2026-02-28T23:59:59.000Z', [{ date: '2026-02-03T00:00:00.000Z', priorityGB: 30, standardGB: 0 }, { date: '2026-02-04T00:00:00.000Z', priorityGB: 32.5, standardGB: 0 }], 12.5),
      cycle('2026-03-01T00:00:00.000Z', '2026-03-31T23:59:59.000Z', [{ date: '2026-03-02T00:00:00.000Z', priorityGB: 4.25, standardGB: 1 }]),
    ],
    servicePlan: {
      productId: 'SUB-METERED-1TB',
      usageLimitGB: 1000,
      isOptedIntoOverage: true,
      isMobilePlan: false,
      isoCurrencyCode: 'USD',
      activeFrom: null,
      subscriptionActiveFrom: null,
      subscriptionEndDate: null,
      overageName: null,
      overageDescription: null,
      overageLineDeactivatedDate: null,
      overageLine: null,
      dataCategoryMapping: null,
    },
    lastUpdated: '2026-03-18T10:10:00.000Z',
  };

  it('gives a row per cycle (dates only; the current limit from the plan, earlier ones from their overage line) and a row per day', () => {
    const rows = usageRows(record);
    expect(rows.usageLimitGb).toBe(1000);
    expect(rows.cycles).toEqual([
      expect.objectContaining({ cycleStart: '2026-02-01', cycleEnd: '2026-02-28', priorityGb: 62.5, usageLimitGb: 50, overageGb: 12.5, productId: 'SUB-METERED-1TB' }),
      expect.objectContaining({ cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 4.25, standardGb: 1, usageLimitGb: 1000, overageGb: null }),
    ]);
    expect(rows.daily.map((d) => [d.usageDate, d.priorityGb])).toEqual([
      ['2026-02-03', 30],
      ['2026-02-04', 32.5],
      ['2026-03-02', 4.25],
    ]);
  });

  it('has no limit when the provider sent no plan', () => {
    expect(usageRows({ ...record, servicePlan: null }).usageLimitGb).toBeNull();
  });
});
