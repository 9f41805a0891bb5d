// Paging, filters and shuffled pages of the simulator's lists, and the data-usage answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../server/simulator/index';
import { simulatorToken } from './simulator-token';

const NOW = new Date('2026-03-18T10:30:00.000Z');

interface Page<T> {
  pageIndex: number;
  limit: number;
  isLastPage: boolean;
  totalCount: number;
  results: T[];
}
interface Terminal {
  userTerminalId: string;
  kitSerialNumber: string;
  nickname: string | null;
  serviceLineNumber: string | null;
}
interface Line {
  serviceLineNumber: string;
  addressReferenceId: string;
  nickname: string | null;
  startDate: string;
  active: boolean;
}
interface Daily {
  date: string;
  priorityGB: number;
  optInPriorityGB: number;
  standardGB: number;
  nonBillableGB: number;
}
interface Cycle {
  startDate: string;
  endDate: string;
  dailyDataUsage: Daily[];
  overageLines: { usageLimitGB: number; overageAmountGB: number; consumedAmountGB: number; dataOverageType: number }[];
  totalPriorityGB: number;
  totalStandardGB: number;
  totalOptInPriorityGB: number;
  totalNonBillableGB: number;
}
interface Usage {
  serviceLineNumber: string;
  billingCycles: Cycle[];
  servicePlan: { usageLimitGB: number; isOptedIntoOverage: boolean; productId: string; activeFrom: string; subscriptionEndDate: string | null };
  lastUpdated: string;
}

async function connect(sim: RunningSimulator) {
  const token = await simulatorToken(sim);
  return async <T>(path: string, body?: unknown): Promise<{ status: number; content: T; warnings: { errorMessage: string }[] | null }> => {
    const response = await fetch(`${sim.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as { content: T; warnings: { errorMessage: string }[] | null };
    return { status: response.status, content: json.content, warnings: json.warnings };
  };
}

let sim: RunningSimulator;
let get: Awaited<ReturnType<typeof connect>>;

beforeAll(async () => {
  sim = await startSimulator({ now: () => NOW });
  get = await connect(sim);
});
afterAll(() => sim.close());

async function allPages<T>(path: string, body?: unknown): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  const join = path.includes('?') ? '&' : '?';
  for (let page = 0; page < 1000; page++) {
    const { content } = await get<Page<T>>(`${path}${join}page=${page}`, body);
    pages.push(content);
    if (content.isLastPage) break;
  }
  return pages;
}

describe('user terminals', () => {
  it('pages 156 terminals as 100 then 56, with isLastPage on the second page only', async () => {
    const first = (await get<Page<Terminal>>('/public/v2/user-terminals')).content;
    const second = (await get<Page<Terminal>>('/public/v2/user-terminals?page=1')).content;
    expect(first).toMatchObject({ pageIndex: 0, limit: 100, isLastPage: false, totalCount: 156 });
    expect(first.results).toHaveLength(100);
    expect(second).toMatchObject({ pageIndex: 1, limit: 100, isLastPage: true, totalCount: 156 });
    expect(second.results).toHaveLength(56);
    const ids = [...first.results, ...second.results].map((t) => t.userTerminalId);
    expect(new Set(ids).size).toBe(156);
    expect(ids.sort()).toEqual(sim.fleet.userTerminalIds().sort());
  });

  it('answers an empty last page past the end', async () => {
    const { content } = await get<Page<Terminal>>('/public/v2/user-terminals?page=7');
    expect(content).toMatchObject({ pageIndex: 7, isLastPage: true, totalCount: 156, results: [] });
  });

  it('filters by hasServiceLine both ways', async () => {
    const without = (await get<Page<Terminal>>('/public/v2/user-terminals?hasServiceLine=false')).content;
    const withLine = await allPages<Terminal>('/public/v2/user-terminals?hasServiceLine=true');
    expect(without.totalCount).toBe(sim.fleet.stats().unattachedTerminals);
    expect(without.totalCount).toBeGreaterThan(0);
    expect(without.results.every((t) => t.serviceLineNumber === null)).toBe(true);
    expect(withLine[0]!.totalCount + without.totalCount).toBe(156);
    expect(withLine.flatMap((p) => p.results).every((t) => t.serviceLineNumber !== null)).toBe(true);
  });

  it('filters by repeated serviceLineNumbers and userTerminalIds keys', async () => {
    const [a, b] = sim.fleet.serviceLineNumbers();
    const byLine = (await get<Page<Terminal>>(`/public/v2/user-terminals?serviceLineNumbers=${a}&serviceLineNumbers=${b}`)).content;
    expect(byLine.results.map((t) => t.serviceLineNumber).sort()).toEqual([a, b].sort());

    const ids = sim.fleet.userTerminalIds().slice(10, 13);
    const byId = (await get<Page<Terminal>>(`/public/v2/user-terminals?${ids.map((id) => `userTerminalIds=${id}`).join('&')}`)).content;
    expect(byId.results.map((t) => t.userTerminalId)).toEqual(ids);
  });

  it('searches by substring over ids, serials, service line and nickname', async () => {
    const terminal = sim.fleet.terminal(3);
    const search = async (text: string) =>
      (await get<Page<Terminal>>(`/public/v2/user-terminals?searchString=${encodeURIComponent(text)}`)).content.results.map((t) => t.userTerminalId);
    expect(await search(terminal.userTerminalId.slice(-8))).toEqual([terminal.userTerminalId]);
    expect(await search(terminal.kitSerialNumber.toLowerCase())).toEqual([terminal.userTerminalId]);
    expect(await search(terminal.dishSerialNumber)).toEqual([terminal.userTerminalId]);
    expect(await search(terminal.serviceLineNumber!)).toContain(terminal.userTerminalId);
    const nicknamed = sim.fleet.userTerminalIds().map((_, i) => sim.fleet.terminal(i)).find((t) => t.nickname?.includes(' '))!;
    const word = nicknamed.nickname!.split(' ')[0]!;
    const found = await search(word);
    expect(found).toContain(nicknamed.userTerminalId);
    for (const id of found) {
      const t = sim.fleet.terminal(sim.fleet.terminalIndex(id)!);
      expect([t.userTerminalId, t.kitSerialNumber, t.dishSerialNumber, t.nickname ?? '', t.serviceLineNumber ?? ''].join(' ').toLowerCase()).toContain(word.toLowerCase());
    }
  });
});

describe('service lines', () => {
  it('pages every line newest first, 100 a page', async () => {
    const pages = await allPages<Line>('/public/v2/service-lines');
    const lines = pages.flatMap((p) => p.results);
    expect(pages.map((p) => p.results.length)).toEqual([100, sim.fleet.serviceLineNumbers().length - 100]);
    expect(lines.map((l) => l.serviceLineNumber).sort()).toEqual(sim.fleet.serviceLineNumbers().sort());
    const starts = lines.map((l) => Date.parse(l.startDate));
    expect(starts).toEqual([...starts].sort((x, y) => y - x));
  });

  it('lists oldest first when orderByCreatedDateDescending=false', async () => {
    const { content } = await get<Page<Line>>('/public/v2/service-lines?orderByCreatedDateDescending=false');
    const starts = content.results.map((l) => Date.parse(l.startDate));
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
  });

  it('filters by address and searches nicknames and exact ids', async () => {
    const line = sim.fleet.serviceLine(sim.fleet.knownServiceLineNumber)!;
    const byAddress = (await get<Page<Line>>(`/public/v2/service-lines?addressReferenceId=${line.addressReferenceId}`)).content;
    expect(byAddress.results.map((l) => l.serviceLineNumber)).toEqual([line.serviceLineNumber]);
    const byTerminal = (await get<Page<Line>>(`/public/v2/service-lines?searchString=${sim.fleet.knownUserTerminalId}`)).content;
    expect(byTerminal.results.map((l) => l.serviceLineNumber)).toEqual([line.serviceLineNumber]);
    const byNickname = (await get<Page<Line>>(`/public/v2/service-lines?searchString=${encodeURIComponent(line.nickname!.toLowerCase())}`)).content;
    expect(byNickname.results.map((l) => l.serviceLineNumber)).toContain(line.serviceLineNumber);
  });
});

describe('shuffled pages', () => {
  it('keep every id exactly once across all pages, in a different order on each request', async () => {
    const shuffled = await startSimulator({ now: () => NOW, faults: { shufflePages: true } });
    try {
      const call = await connect(shuffled);
      const page = async (n: number) => (await call<Page<Terminal>>(`/public/v2/user-terminals?page=${n}`)).content.results.map((t) => t.userTerminalId);
      const firstA = await page(0);
      const firstB = await page(0);
      expect(new Set(firstA)).toEqual(new Set(firstB));
      expect(firstA).not.toEqual(firstB);
      expect(firstA).not.toEqual(shuffled.fleet.userTerminalIds().slice(0, 100));
      const all = [...firstA, ...(await page(1))];
      expect(all).toHaveLength(156);
      expect(new Set(all).size).toBe(156);

      const usage = [];
      for (let n = 0; n < 4; n++) {
        const { content } = await call<Page<Usage>>(`/public/v2/data-usage/query?page=${n}`, {});
        usage.push(...content.results.map((r) => r.serviceLineNumber));
        if (content.isLastPage) break;
      }
      expect(new Set(usage).size).toBe(usage.length);
    } finally {
      await shuffled.close();
    }
  });
});

describe('data usage', () => {
  it('pages 50 lines by default and up to 250, active lines only unless asked', async () => {
    const active = sim.fleet.serviceLineNumbers().filter((n) => sim.fleet.serviceLine(n)!.active);
    const first = (await get<Page<Usage>>('/public/v2/data-usage/query', {})).content;
    expect(first).toMatchObject({ pageIndex: 0, limit: 50, isLastPage: false, totalCount: active.length });
    expect(first.results).toHaveLength(50);
    const pages = await allPages<Usage>('/public/v2/data-usage/query?limit=50', {});
    expect(pages.flatMap((p) => p.results.map((r) => r.serviceLineNumber)).sort()).toEqual(active.sort());

    const big = (await get<Page<Usage>>('/public/v2/data-usage/query?limit=250', { activeServiceLinesOnly: false })).content;
    expect(big).toMatchObject({ limit: 250, isLastPage: true, totalCount: sim.fleet.serviceLineNumbers().length });
    expect((await get('/public/v2/data-usage/query?limit=251', {})).status).toBe(400);
    expect((await get('/public/v2/data-usage/query?limit=0', {})).status).toBe(400);
  });

  it('answers the asked service lines and warns about unknown ones', async () => {
    const known = sim.fleet.knownServiceLineNumber;
    const { content, warnings } = await get<Page<Usage>>('/public/v2/data-usage/query', { serviceLineNumbers: [known, 'AST-000000-00000-00'] });
    expect(content.results.map((r) => r.serviceLineNumber)).toEqual([known]);
    expect(warnings?.[0]?.errorMessage).toContain('AST-000000-00000-00');
  });

  it('gives the current cycle plus the previous ones, oldest first, as calendar months', async () => {
    const { content } = await get<Page<Usage>>('/public/v2/data-usage/query', { serviceLineNumbers: [sim.fleet.knownServiceLineNumber], previousBillingCycles: 3 });
    const cycles = content.results[0]!.billingCycles;
    expect(cycles.map((c) => [c.startDate, c.endDate])).toEqual([
      ['2025-12-01T00:00:00.000Z', '2025-12-31T23:59:59.000Z'],
      ['2026-01-01T00:00:00.000Z', '2026-01-31T23:59:59.000Z'],
      ['2026-02-01T00:00:00.000Z', '2026-02-28T23:59:59.000Z'],
      ['2026-03-01T00:00:00.000Z', '2026-03-31T23:59:59.000Z'],
    ]);
    const defaultCycles = (await get<Page<Usage>>('/public/v2/data-usage/query', { serviceLineNumbers: [sim.fleet.knownServiceLineNumber] })).content.results[0]!.billingCycles;
    expect(defaultCycles.map((c) => c.startDate)).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
  });

  it('starts the first cycle at queryStartDate when one is given', async () => {
    const { content } = await get<Page<Usage>>('/public/v2/data-usage/query', { serviceLineNumbers: [sim.fleet.knownServiceLineNumber], queryStartDate: '2026-01-15T06:00:00Z' });
    const cycles = content.results[0]!.billingCycles;
    expect(cycles.map((c) => c.startDate)).toEqual(['2026-01-15T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']);
    expect(cycles[0]!.dailyDataUsage.every((d) => d.date >= '2026-01-15')).toBe(true);
  });

  it('omits days without usage, stops at the feed time, and rounds every figure to 2 decimals', async () => {
    const pages = await allPages<Usage>('/public/v2/data-usage/query?limit=250', { previousBillingCycles: 2, activeServiceLinesOnly: false });
    const records = pages.flatMap((p) => p.results);
    const twoDecimals = (n: number) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6;
    let daysSeen = 0;
    let zeroDaysSkipped = 0;
    for (const record of records) {
      expect(Date.parse(record.lastUpdated)).toBeLessThanOrEqual(NOW.getTime() - 15 * 60_000);
      for (const cycle of record.billingCycles) {
        const dates = cycle.dailyDataUsage.map((d) => d.date);
        expect(dates).toEqual([...dates].sort());
        const ranWholeCycle = record.servicePlan.activeFrom < cycle.startDate && record.servicePlan.subscriptionEndDate === null;
        if (ranWholeCycle && Date.parse(cycle.endDate) < NOW.getTime()) {
          zeroDaysSkipped += (Date.parse(cycle.endDate) + 1000 - Date.parse(cycle.startDate)) / 86_400_000 - dates.length;
        }
        for (const day of cycle.dailyDataUsage) {
          daysSeen++;
          expect(day.date >= cycle.startDate && day.date <= cycle.endDate).toBe(true);
          expect(Date.parse(day.date)).toBeLessThan(NOW.getTime());
          expect(day.priorityGB + day.standardGB + day.nonBillableGB).toBeGreaterThan(0);
          expect(day.optInPriorityGB).toBeLessThanOrEqual(day.priorityGB);
          for (const value of [day.priorityGB, day.optInPriorityGB, day.standardGB, day.nonBillableGB]) expect(twoDecimals(value)).toBe(true);
        }
        const sum = (pick: (d: Daily) => number) => Math.round(cycle.dailyDataUsage.reduce((s, d) => s + pick(d), 0) * 100) / 100;
        expect(cycle.totalPriorityGB).toBe(sum((d) => d.priorityGB));
        expect(cycle.totalStandardGB).toBe(sum((d) => d.standardGB));
        expect(cycle.totalOptInPriorityGB).toBe(sum((d) => d.optInPriorityGB));
        expect(cycle.totalNonBillableGB).toBe(sum((d) => d.nonBillableGB));
        for (const value of [cycle.totalPriorityGB, cycle.totalStandardGB, cycle.totalOptInPriorityGB, cycle.totalNonBillableGB]) expect(twoDecimals(value)).toBe(true);
      }
    }
    expect(daysSeen).toBeGreaterThan(1000);
    // Lines that ran all month still have quiet days, and those are left out.
    expect(zeroDaysSkipped).toBeGreaterThan(10);
  });

  it('shows some lines over their cap, with overage lines that add up', async () => {
    const records = (await allPages<Usage>('/public/v2/data-usage/query?limit=250', {})).flatMap((p) => p.results);
    const lastFull = records.map((r) => r.billingCycles[0]!);
    const over = records.filter((r, k) => lastFull[k]!.overageLines.length > 0);
    const share = over.length / records.length;
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.25);
    for (const record of over) {
      const cycle = record.billingCycles[0]!;
      const [line] = cycle.overageLines;
      expect(cycle.totalPriorityGB + cycle.totalStandardGB).toBeGreaterThan(line!.usageLimitGB);
      if (record.servicePlan.isOptedIntoOverage) {
        expect(line).toMatchObject({ dataOverageType: 1, overageAmountGB: cycle.totalOptInPriorityGB });
        expect(cycle.totalOptInPriorityGB).toBeGreaterThan(0);
      } else {
        expect(line).toMatchObject({ dataOverageType: 3, overageAmountGB: 0 });
        expect(cycle.totalStandardGB).toBeGreaterThan(0);
        expect(cycle.totalPriorityGB).toBeLessThanOrEqual(line!.usageLimitGB + 0.01);
      }
    }
    const under = records.filter((r) => r.billingCycles[0]!.overageLines.length === 0 && r.billingCycles[0]!.totalStandardGB > 0);
    expect(under).toEqual([]);
  });
});
