// The billing rules: cycles, the day rule of pro-rating at cycle edges and leap days,
// which price applies, a line's statement items and a customer's statements — on examples and as
// properties: the days of a line's spans never exceed the cycle, fees pro-rated over a split
// cycle stay within a unit per span of the whole month, and a statement always adds up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  billedDays,
  buildStatements,
  cycleBounds,
  cycleOf,
  feePeriods,
  fingerprint,
  lineItems,
  priceOn,
  resolvePrice,
  shiftCycle,
  statementNumber,
  type CustomerPriceEntry,
  type LineCycleFacts,
  type PriceEntry,
  type ResolvedPrice,
} from '../../src/domain/billing';
import { csvField } from '../../src/domain/csv';
import { sumMinor } from '../../src/domain/money';

const price = (over: Partial<ResolvedPrice> = {}): ResolvedPrice => ({
  productReferenceId: 'SUB-METERED-50GB',
  currency: 'USD',
  monthlyMinor: 8350,
  overagePerGbMinor: 200,
  topUpMinor: 6500,
  discountBp: 0,
  ...over,
});

const facts = (over: Partial<LineCycleFacts> = {}): LineCycleFacts => ({
  serviceLineNumber: 'AST-000001-00001-01',
  productReferenceId: 'SUB-METERED-50GB',
  startDate: '2025-01-10T08:00:00.000Z',
  endDate: null,
  periods: [],
  overageGb: 0,
  topUpBlocks: 0,
  ...over,
});

const name = (id: string) => (id === 'SUB-METERED-1TB' ? 'Local Priority 1 TB' : 'Local Priority 50 GB');

describe('cycles', () => {
  it('are calendar months, UTC, with their length in days, leap Februaries included', () => {
    expect(cycleBounds('2026-11')).toEqual({ start: '2026-11-01', end: '2026-12-01', days: 30 });
    expect(cycleBounds('2026-12')).toEqual({ start: '2026-12-01', end: '2027-01-01', days: 31 });
    expect(cycleBounds('2028-02').days).toBe(29);
    expect(cycleBounds('2026-02').days).toBe(28);
    expect(cycleBounds('2100-02').days).toBe(28);
    expect(cycleBounds('2000-02').days).toBe(29);
  });

  it('name the month an instant falls in, in UTC, and step across years', () => {
    expect(cycleOf('2026-11-30T23:59:59.999Z')).toBe('2026-11');
    expect(cycleOf('2026-12-01T00:00:00.000Z')).toBe('2026-12');
    expect(shiftCycle('2026-12', 1)).toBe('2027-01');
    expect(shiftCycle('2026-01', -1)).toBe('2025-12');
    expect(shiftCycle('2026-03', -13)).toBe('2025-02');
  });
});

describe('the day rule', () => {
  it('bills a day to whoever holds the line at its last second', () => {
    // Starts during the 10th: pays the 10th.
    expect(billedDays({ start: '2026-11-10T14:00:00Z', end: null }, '2026-11')).toBe(21);
    // Ends during the 20th: does not pay the 20th.
    expect(billedDays({ start: '2026-01-01T00:00:00Z', end: '2026-11-20T15:00:00Z' }, '2026-11')).toBe(19);
    // Ends at the 20th's last second (the span's end is midnight after it): pays the 20th.
    expect(billedDays({ start: '2026-01-01T00:00:00Z', end: '2026-11-21T00:00:00Z' }, '2026-11')).toBe(20);
    // Entirely outside the cycle.
    expect(billedDays({ start: '2026-12-01T00:00:00Z', end: null }, '2026-11')).toBe(0);
    expect(billedDays({ start: '2026-01-01T00:00:00Z', end: '2026-11-01T00:00:00Z' }, '2026-11')).toBe(0);
  });

  it('counts the 29th of a leap February', () => {
    expect(billedDays({ start: '2028-02-29T06:00:00Z', end: null }, '2028-02')).toBe(1);
    expect(billedDays({ start: '2028-01-15T00:00:00Z', end: null }, '2028-02')).toBe(29);
  });

  it('splits a cycle at a plan change without a day billed twice or lost', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2000, max: 2100 }), fc.integer({ min: 1, max: 12 }), fc.double({ min: 0, max: 1, noNaN: true }), (y, m, at) => {
        const cycle = `${y}-${String(m).padStart(2, '0')}`;
        const { start, end, days } = cycleBounds(cycle);
        const startMs = Date.parse(`${start}T00:00:00Z`);
        const cut = new Date(startMs + Math.floor(at * (Date.parse(`${end}T00:00:00Z`) - startMs))).toISOString();
        const first = billedDays({ start: `${start}T00:00:00Z`, end: cut }, cycle);
        const second = billedDays({ start: cut, end: `${end}T00:00:00Z` }, cycle);
        return first + second === days && first >= 0 && second >= 0;
      }),
    );
  });
});

describe('prices', () => {
  const list: PriceEntry[] = [
    { productReferenceId: 'SUB-METERED-50GB', currency: 'USD', monthlyMinor: 7900, overagePerGbMinor: 150, topUpMinor: 6000, effectiveFrom: '2026-01-01' },
    { productReferenceId: 'SUB-METERED-50GB', currency: 'USD', monthlyMinor: 8350, overagePerGbMinor: 200, topUpMinor: 6500, effectiveFrom: '2026-11-01' },
    { productReferenceId: 'SUB-METERED-50GB', currency: 'USD', monthlyMinor: 9900, overagePerGbMinor: 200, topUpMinor: 6500, effectiveFrom: '2027-01-01' },
  ];

  it('takes the list row in effect on the day asked for', () => {
    expect(priceOn(list, 'SUB-METERED-50GB', '2026-10-01')?.monthlyMinor).toBe(7900);
    expect(priceOn(list, 'SUB-METERED-50GB', '2026-11-01')?.monthlyMinor).toBe(8350);
    expect(priceOn(list, 'SUB-METERED-50GB', '2026-12-01')?.monthlyMinor).toBe(8350);
    expect(priceOn(list, 'SUB-METERED-50GB', '2025-12-01')).toBeNull();
    expect(priceOn(list, 'SUB-OTHER', '2026-12-01')).toBeNull();
  });

  it("lets a customer's product row win figure by figure over their every-product row, and ends rows on their end date", () => {
    const own: CustomerPriceEntry[] = [
      { productReferenceId: null, effectiveFrom: '2026-01-01', effectiveUntil: null, discountBp: 1000, monthlyMinor: null, overagePerGbMinor: 100, topUpMinor: null },
      { productReferenceId: 'SUB-METERED-50GB', effectiveFrom: '2026-06-01', effectiveUntil: '2026-12-01', discountBp: null, monthlyMinor: 5000, overagePerGbMinor: null, topUpMinor: null },
    ];
    expect(resolvePrice(list, own, 'SUB-METERED-50GB', '2026-11-01')).toEqual({
      productReferenceId: 'SUB-METERED-50GB',
      currency: 'USD',
      monthlyMinor: 5000,
      overagePerGbMinor: 100,
      topUpMinor: 6500,
      discountBp: 1000,
    });
    // The negotiated monthly price ended on Dec 1: the list's comes back, the discount stays.
    expect(resolvePrice(list, own, 'SUB-METERED-50GB', '2026-12-01')?.monthlyMinor).toBe(8350);
    expect(resolvePrice(list, own, 'SUB-METERED-50GB', '2026-12-01')?.discountBp).toBe(1000);
    expect(resolvePrice(list, own, 'SUB-UNPRICED', '2026-12-01')).toBeNull();
  });
});

describe("a line's items", () => {
  it('bills a whole cycle as one fee line at the monthly price', () => {
    const { priced, unpriced } = lineItems(facts(), '2026-11', () => price(), name);
    expect(unpriced).toEqual([]);
    expect(priced.map((p) => p.item)).toEqual([
      expect.objectContaining({ kind: 'plan', description: 'Local Priority 50 GB', periodStart: '2026-11-01', periodEnd: '2026-11-30', quantity: '30', unitMinor: 8350, amountMinor: 8350 }),
    ]);
  });

  it('pro-rates a line that started mid-cycle by days, rounded once, halves to even', () => {
    // 8350 × 21 / 30 = 5845 exactly; 100 × 1 / 8 = 12.5 → 12 (even).
    const started = lineItems(facts({ startDate: '2026-11-10T14:00:00Z' }), '2026-11', () => price(), name);
    expect(started.priced[0]!.item).toMatchObject({ description: 'Local Priority 50 GB, 21 of 30 days', periodStart: '2026-11-10', quantity: '21', amountMinor: 5845 });
    const odd = lineItems(facts({ startDate: '2026-11-30T00:00:00Z' }), '2026-11', () => price({ monthlyMinor: 15 }), name);
    // 15 × 1 / 30 = 0.5 → 0 (even).
    expect(odd.priced[0]!.item.amountMinor).toBe(0);
  });

  it("bills a line that ended mid-cycle up to its last day (the provider's end is the last second of service)", () => {
    const ended = lineItems(facts({ endDate: '2026-11-20T23:59:59Z' }), '2026-11', () => price(), name);
    expect(ended.priced[0]!.item).toMatchObject({ periodEnd: '2026-11-20', quantity: '20', amountMinor: 5567 });
  });

  it("uses the provider's partial periods for a plan change: a fee per product, the days adding up to the cycle", () => {
    const changed = facts({
      productReferenceId: 'SUB-METERED-1TB',
      periods: [
        { productReferenceId: 'SUB-METERED-1TB', start: '2026-11-12T09:30:00Z', end: '2026-12-01T00:00:00Z' },
        { productReferenceId: 'SUB-METERED-50GB', start: '2026-11-01T00:00:00Z', end: '2026-11-12T09:30:00Z' },
        // Another cycle's period is ignored.
        { productReferenceId: 'SUB-METERED-50GB', start: '2026-09-20T00:00:00Z', end: '2026-10-01T00:00:00Z' },
      ],
      overageGb: '12.75',
      topUpBlocks: 2,
    });
    const prices: Record<string, ResolvedPrice> = {
      'SUB-METERED-50GB': price(),
      'SUB-METERED-1TB': price({ productReferenceId: 'SUB-METERED-1TB', monthlyMinor: 21_500, overagePerGbMinor: 150, topUpMinor: 6000 }),
    };
    const { priced } = lineItems(changed, '2026-11', (id) => prices[id] ?? null, name);
    expect(priced.map((p) => [p.item.kind, p.item.productReferenceId, p.item.quantity, p.item.amountMinor])).toEqual([
      ['plan', 'SUB-METERED-50GB', '11', 3062], // 8350 × 11 / 30 = 3061.67
      ['plan', 'SUB-METERED-1TB', '19', 13617], // 21500 × 19 / 30 = 13616.67
      ['overage', 'SUB-METERED-1TB', '12.75', 1912], // 150 × 12.75 = 1912.5 → 1912 (even)
      ['top_up', 'SUB-METERED-1TB', '2', 12000],
    ]);
  });

  it('sets aside what has no price instead of billing it at zero', () => {
    const { priced, unpriced } = lineItems(facts({ overageGb: 3 }), '2026-11', () => null, name);
    expect(priced).toEqual([]);
    expect(unpriced).toEqual(['SUB-METERED-50GB']);
  });

  it('bills nothing for a line without service in the cycle', () => {
    expect(feePeriods(facts({ startDate: '2026-12-03T00:00:00Z' }), '2026-11')).toEqual([]);
    expect(feePeriods(facts({ endDate: '2026-10-31T23:59:59Z' }), '2026-11')).toEqual([]);
  });

  it('never bills more days than the cycle has, however the spans fall', () => {
    const instant = fc.integer({ min: Date.UTC(2026, 9, 1), max: Date.UTC(2027, 0, 31) }).map((ms) => new Date(ms).toISOString());
    fc.assert(
      fc.property(instant, fc.option(instant, { nil: null }), fc.constantFrom('2026-11', '2026-12', '2027-01'), (start, end, cycle) => {
        const periods = feePeriods(facts({ startDate: start, endDate: end !== null && end > start ? end : null }), cycle);
        const days = periods.reduce((sum, p) => sum + p.days, 0);
        return days >= 0 && days <= cycleBounds(cycle).days;
      }),
    );
  });

  it('pro-rates fees of a split cycle to within a unit per span of the monthly price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 29 }), (monthly, cutDay) => {
        const cut = `2026-11-${String(cutDay + 1).padStart(2, '0')}T12:00:00Z`;
        const split = facts({
          periods: [
            { productReferenceId: 'A', start: '2026-11-01T00:00:00Z', end: cut },
            { productReferenceId: 'B', start: cut, end: '2026-12-01T00:00:00Z' },
          ],
        });
        const { priced } = lineItems(split, '2026-11', (id) => price({ productReferenceId: id, monthlyMinor: monthly }), (id) => id);
        const total = sumMinor(priced.map((p) => p.item.amountMinor));
        return Math.abs(total - monthly) <= 1;
      }),
    );
  });
});

describe('statements', () => {
  it('add up: total = items + one discount per rate + corrections, per currency', () => {
    const usd = lineItems(facts({ overageGb: '3.5' }), '2026-11', () => price({ discountBp: 1000 }), name).priced;
    const other = lineItems(facts({ serviceLineNumber: 'AST-2', productReferenceId: 'SUB-METERED-1TB' }), '2026-11', () => price({ productReferenceId: 'SUB-METERED-1TB', monthlyMinor: 1999, discountBp: 1250 }), name).priced;
    const eur = lineItems(facts({ serviceLineNumber: 'AST-3' }), '2026-11', () => price({ currency: 'EUR', monthlyMinor: 7000 }), name).priced;
    const statements = buildStatements([...usd, ...other, ...eur], [
      { id: 'c1', currency: 'USD', amountMinor: -500, reason: 'Outage credit' },
      { id: 'c2', currency: 'JPY', amountMinor: 300, reason: 'Late fee' },
    ]);
    expect(statements.map((s) => s.currency)).toEqual(['EUR', 'JPY', 'USD']);
    const dollars = statements.find((s) => s.currency === 'USD')!;
    // 8350 + 700 = 9050 at 10 % → −905; 1999 at 12.5 % = 249.875 → −250.
    expect(dollars.items.filter((i) => i.kind === 'discount').map((i) => [i.description, i.amountMinor])).toEqual([
      ['Discount 10 %', -905],
      ['Discount 12.5 %', -250],
    ]);
    expect(dollars).toMatchObject({ serviceLines: 2, subtotalMinor: 11_049, discountMinor: -1155, adjustmentMinor: -500, totalMinor: 9394 });
    expect(dollars.items.at(-1)).toMatchObject({ kind: 'adjustment', adjustmentId: 'c1', amountMinor: -500 });
    // A correction alone makes a statement in its currency.
    expect(statements.find((s) => s.currency === 'JPY')).toMatchObject({ serviceLines: 0, totalMinor: 300 });
  });

  it('always add up, and their fingerprint moves with any change of a line', () => {
    const item = fc.record({ monthly: fc.integer({ min: 0, max: 1_000_000 }), gb: fc.integer({ min: 0, max: 100_000 }), blocks: fc.integer({ min: 0, max: 3 }), bp: fc.constantFrom(0, 500, 1250, 10_000) });
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 8 }), (rows) => {
        const priced = rows.flatMap((row, k) =>
          lineItems(facts({ serviceLineNumber: `L${k}`, overageGb: (row.gb / 100).toFixed(2), topUpBlocks: row.blocks }), '2026-11', () => price({ monthlyMinor: row.monthly, discountBp: row.bp }), name).priced,
        );
        const [statement] = buildStatements(priced, []);
        if (!statement) return false;
        const itemsSum = sumMinor(statement.items.map((i) => i.amountMinor));
        const changed = buildStatements(priced.map((p, k) => (k === 0 ? { ...p, item: { ...p.item, amountMinor: p.item.amountMinor + 1 } } : p)), [])[0]!;
        return itemsSum === statement.totalMinor && statement.discountMinor <= 0 && changed.hash !== statement.hash;
      }),
    );
  });
});

describe('numbers, fingerprints and CSV fields', () => {
  it('numbers statements by cycle and sequence', () => {
    expect(statementNumber('2026-11', 42)).toBe('ST-2026-11-000042');
  });

  it('fingerprints text stably', () => {
    expect(fingerprint('a')).toBe(fingerprint('a'));
    expect(fingerprint('a')).not.toBe(fingerprint('b'));
    expect(fingerprint('')).toMatch(/^[0-9a-f]{14}$/);
  });

  it('quotes what needs quoting and defuses formulas, but not negative amounts', () => {
    expect(csvField('Acme, Inc.')).toBe('"Acme, Inc."');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('-12.50')).toBe('-12.50');
    expect(csvField(null)).toBe('');
  });
});
