// The generated fleet: determinism, realistic shares, ids that decode, scale to 100,000
// terminals, and the SIM_* environment.
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import { createFleet, modelOf, simulatorOptionsFromEnv, startSimulator, PLANS } from '../../server/simulator/index';
import { thrownMessage } from './helpers';
import { simulatorToken } from './simulator-token';

const NOW = new Date('2026-03-18T10:30:00.000Z');
const now = () => NOW;

describe('determinism', () => {
  it('builds the same fleet, usage and telemetry from the same seed', () => {
    const a = createFleet({ seed: 'same', terminals: 300, now });
    const b = createFleet({ seed: 'same', terminals: 300, now });
    expect(a.accountNumber).toBe(b.accountNumber);
    expect(a.userTerminalIds()).toEqual(b.userTerminalIds());
    for (const i of [0, 1, 57, 299]) expect(a.terminal(i)).toEqual(b.terminal(i));
    for (const number of a.serviceLineNumbers().slice(0, 20)) {
      expect(a.serviceLine(number)).toEqual(b.serviceLine(number));
      const index = a.serviceLineIndex(number)!;
      expect(a.usageRecord(index, { previousBillingCycles: 3 })).toEqual(b.usageRecord(index, { previousBillingCycles: 3 }));
    }
    expect(a.telemetry().records).toEqual(b.telemetry().records);
    expect(a.stats()).toEqual(b.stats());
  });

  it('builds a different fleet from another seed', () => {
    const a = createFleet({ seed: 'one', terminals: 50, now });
    const b = createFleet({ seed: 'two', terminals: 50, now });
    expect(a.accountNumber).not.toBe(b.accountNumber);
    const shared = a.userTerminalIds().filter((id) => b.userTerminalIds().includes(id));
    expect(shared).toEqual([]);
    expect(a.usageRecord(0, {})).not.toEqual(b.usageRecord(0, {}));
  });

  it('keeps the default seed\'s account and known service line, which demos and other tests cite', () => {
    const fleet = createFleet({ now });
    expect(fleet.seed).toBe('starlink-demo');
    expect(fleet.size).toBe(156);
    expect(fleet.accountNumber).toBe('ACC-150940-77763-41');
    expect(fleet.knownServiceLineNumber).toBe('AST-150940-60742-27');
    expect(fleet.knownUserTerminalId).toBe('0002a23b-003bbdfa-416b6cd2');
  });

  it('reads a day\'s usage the same whenever it is asked, once the day is over', () => {
    const early = createFleet({ seed: 'clock', terminals: 20, now: () => new Date('2026-03-18T10:30:00Z') });
    const later = createFleet({ seed: 'clock', terminals: 20, now: () => new Date('2026-03-25T08:00:00Z') });
    const february = (fleet: typeof early) => fleet.usageRecord(0, { previousBillingCycles: 1 }).billingCycles.find((c) => c.startDate.startsWith('2026-02'));
    const march17 = (fleet: typeof early) =>
      fleet.usageRecord(0, {}).billingCycles.at(-1)!.dailyDataUsage.find((d) => d.date.startsWith('2026-03-17'));
    expect(february(later)).toEqual(february(early));
    expect(march17(later)).toEqual(march17(early));
  });
});

describe('fleet facts', () => {
  const fleet = createFleet({ seed: 'shares', terminals: 10_000, now });
  const stats = fleet.stats();

  it('leaves about 6% of terminals without a service line and about 8% of lines inactive', () => {
    expect(stats.unattachedTerminals / stats.terminals).toBeGreaterThan(0.045);
    expect(stats.unattachedTerminals / stats.terminals).toBeLessThan(0.075);
    expect(stats.inactiveServiceLines / stats.serviceLines).toBeGreaterThan(0.06);
    expect(stats.inactiveServiceLines / stats.serviceLines).toBeLessThan(0.1);
  });

  it('puts 10–15% of active lines over their cap in the last full cycle', () => {
    const share = stats.overCapLastCycle / (stats.serviceLines - stats.inactiveServiceLines);
    expect(share).toBeGreaterThan(0.1);
    expect(share).toBeLessThan(0.15);
  });

  it('uses all three plans, five models and six continents', () => {
    expect(Object.keys(stats.linesByProduct).sort()).toEqual(PLANS.map((p) => p.productReferenceId).sort());
    expect(Object.keys(stats.terminalsByModel).sort()).toEqual(['Enterprise', 'Flat High Performance', 'Mini', 'Standard', 'Standard Actuated']);
    expect(Object.keys(stats.linesByContinent).sort()).toEqual(['Africa', 'Asia', 'Europe', 'North America', 'Oceania', 'South America']);
  });

  it('reports mostly good signal (0.8–1.0) with some poor terminals, and some obstruction alerts', () => {
    const records = Object.values(createFleet({ seed: 'shares', terminals: 2000, now }).telemetry().records);
    const good = records.filter((r) => r.signalQuality >= 0.8).length / records.length;
    expect(good).toBeGreaterThan(0.82);
    expect(good).toBeLessThan(0.97);
    expect(records.some((r) => r.alertHighTimeObstruction)).toBe(true);
    expect(records.some((r) => r.alertDisabledDataUsageExceededQuota)).toBe(true);
    expect(records.some((r) => r.alertMotorsStuck)).toBe(true);
    expect(records.every((r) => r.obstructionPercentTime >= 0 && r.obstructionPercentTime <= 100)).toBe(true);
  });

  it('decodes every id kind back to its terminal, and rejects look-alikes', () => {
    for (const i of [0, 1, 999, 9_999]) {
      const t = fleet.terminal(i);
      expect(fleet.terminalIndex(t.userTerminalId)).toBe(i);
      expect(fleet.terminalIndex(t.kitSerialNumber)).toBe(i);
      expect(fleet.terminalIndex(t.dishSerialNumber)).toBe(i);
      expect(t.userTerminalId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}$/);
      expect(t.kitSerialNumber).toMatch(/^KIT\d{8}$/);
      expect(t.dishSerialNumber).toMatch(/^[0-9A-Z]{4}\d{8}$/);
    }
    expect(fleet.terminalIndex('00020900-002220cc-225b9199')).toBeUndefined();
    expect(fleet.serviceLineIndex('AST-511274-31364-54')).toBeUndefined();
    const numbers = fleet.serviceLineNumbers();
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(numbers.slice(0, 50).every((n) => fleet.serviceLineIndex(n) !== undefined)).toBe(true);
  });

  it('derives each terminal\'s model from its telemetry hardware version and its dish serial', () => {
    const records = fleet.telemetry(fleet.userTerminalIds().slice(0, 40)).records;
    for (const [id, record] of Object.entries(records)) {
      const index = fleet.terminalIndex(id)!;
      expect(modelOf(record.hardwareVersion)).toBe(fleet.terminalModel(index));
      expect(modelOf(fleet.terminal(index).dishSerialNumber)).toBe(fleet.terminalModel(index));
    }
  });

  it('gives every line a real-looking address with coordinates near its town', () => {
    for (const number of fleet.serviceLineNumbers().slice(0, 200)) {
      const line = fleet.serviceLine(number)!;
      const address = fleet.address(line.addressReferenceId)!;
      expect(address.addressReferenceId).toBe(line.addressReferenceId);
      expect(address.addressLines[0]).toMatch(/^\d+ \S/);
      expect(address.formattedAddress).toBe(
        `${address.addressLines[0]}, ${address.locality}, ${address.administrativeAreaCode}${address.postalCode ? ` ${address.postalCode}` : ''}, ${address.regionCode}`,
      );
      expect(Math.abs(address.latitude)).toBeLessThan(71);
    }
  });

  it('gives some active lines one-time top-up blocks', () => {
    const withTopUps = fleet
      .serviceLineNumbers()
      .slice(0, 500)
      .map((n) => fleet.serviceLine(n)!)
      .filter((l) => (l.dataBlocks.topUpBlocksOneTimePurchase ?? []).length > 0);
    expect(withTopUps.length).toBeGreaterThan(10);
    expect(withTopUps.every((l) => l.active)).toBe(true);
  });
});

describe('scale', () => {
  it('serves 100,000 terminals: quick start, quick first page and usage query, modest memory', async () => {
    globalThis.gc?.();
    const before = process.memoryUsage();
    const startedAt = performance.now();
    const sim = await startSimulator({ terminals: 100_000, now });
    const startMs = performance.now() - startedAt;
    try {
      const token = { access_token: await simulatorToken(sim) };
      const headers = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
      const timed = async (path: string, body?: unknown) => {
        const t0 = performance.now();
        const response = await fetch(`${sim.baseUrl}${path}`, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) });
        const json = (await response.json()) as { content: { totalCount: number; results: unknown[] } };
        return { ms: performance.now() - t0, status: response.status, json };
      };
      const firstPage = await timed('/public/v2/user-terminals');
      const lastPage = await timed('/public/v2/user-terminals?page=999');
      const linesPage = await timed('/public/v2/service-lines?page=500');
      const usage = await timed('/public/v2/data-usage/query?limit=250&page=10', { previousBillingCycles: 1 });
      const unattached = await timed('/public/v2/user-terminals?hasServiceLine=false&page=3');
      const search = await timed('/public/v2/user-terminals?searchString=kit0012');
      const after = process.memoryUsage();
      const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
      const figures = {
        startMs: Math.round(startMs),
        firstPageMs: Math.round(firstPage.ms),
        lastPageMs: Math.round(lastPage.ms),
        serviceLinesPageMs: Math.round(linesPage.ms),
        usage250LinesMs: Math.round(usage.ms),
        hasServiceLineFilterMs: Math.round(unattached.ms),
        searchStringMs: Math.round(search.ms),
        heapUsedDeltaMB: mb(after.heapUsed - before.heapUsed),
        // The per-index flags and line orders are typed arrays, counted here rather than in the heap.
        arrayBuffersDeltaMB: mb(after.arrayBuffers - before.arrayBuffers),
      };
      console.log(`simulator at 100,000 terminals: ${JSON.stringify(figures)}`);

      expect(firstPage.json.content.totalCount).toBe(100_000);
      expect(firstPage.json.content.results).toHaveLength(100);
      expect(lastPage.json.content.results).toHaveLength(100);
      expect(usage.json.content.results).toHaveLength(250);
      expect(unattached.json.content.totalCount).toBeGreaterThan(5000);
      expect(figures.startMs).toBeLessThan(3000);
      expect(figures.firstPageMs).toBeLessThan(500);
      expect(figures.usage250LinesMs).toBeLessThan(2000);
      expect(figures.heapUsedDeltaMB + figures.arrayBuffersDeltaMB).toBeLessThan(150);
    } finally {
      await sim.close();
    }
  });
});

describe('environment', () => {
  it('maps SIM_* variables to options, leaving unset ones to the defaults', () => {
    expect(simulatorOptionsFromEnv({})).toEqual({});
    expect(
      simulatorOptionsFromEnv({
        SIM_SEED: 'field-trial',
        SIM_TERMINALS: '2500',
        SIM_RATE_LIMIT: '250',
        SIM_LATENCY_MS: '120',
        SIM_429_RATE: '0.05',
        SIM_5XX_RATE: '0.02',
        SIM_DROP_RATE: '0.01',
        SIM_SHUFFLE_PAGES: 'yes',
        SIM_CLIENT_ID: 'reseller',
        SIM_CLIENT_SECRET: 'a-secret',
        UNRELATED: 'x',
      }),
    ).toEqual({
      seed: 'field-trial',
      terminals: 2500,
      rateLimitPerMinute: 250,
      credentials: { clientId: 'reseller', clientSecret: 'a-secret' },
      faults: { latencyMs: 120, rate429: 0.05, rate5xx: 0.02, dropRate: 0.01, shufflePages: true },
    });
    expect(simulatorOptionsFromEnv({ SIM_RATE_LIMIT: 'off' })).toEqual({ rateLimitPerMinute: null });
    expect(simulatorOptionsFromEnv({ SIM_TERMINALS: '' })).toEqual({});
  });

  it('rejects bad values with one message naming every variable, and never echoes the secret', () => {
    const attempt = () =>
      simulatorOptionsFromEnv({ SIM_TERMINALS: 'lots', SIM_429_RATE: '1.5', SIM_SHUFFLE_PAGES: 'sometimes', SIM_CLIENT_SECRET: 'hidden-value' });
    expect(attempt).toThrow(ConfigError);
    const message = thrownMessage(attempt);
    expect(message).toContain('SIM_TERMINALS: must be a whole number from 1 to 1000000 (got "lots")');
    expect(message).toContain('SIM_429_RATE: must be a number from 0 to 1 (got "1.5")');
    expect(message).toContain('SIM_SHUFFLE_PAGES: must be 1 or 0');
    expect(message).toContain('SIM_CLIENT_ID: SIM_CLIENT_ID and SIM_CLIENT_SECRET must be set together');
    expect(message).not.toContain('hidden-value');
  });
});
