// Money in minor units: the one rounding rule (nearest, halves to even, once), exact
// parsing and formatting per currency, pro-rating, and allocations that always add up — checked
// on examples and as properties over generated amounts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, currencyExponent, divideHalfEven, formatMinor, formatMoney, multiply, MoneyError, parseMoney, prorate, sumMinor } from '../../src/domain/money';

const amount = fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 });

describe('the rounding rule', () => {
  it('rounds to the nearest unit, halves to the even one, the same way for negatives', () => {
    expect([5n, 15n, 25n, 35n, -5n, -15n].map((n) => divideHalfEven(n, 10n))).toEqual([0n, 2n, 2n, 4n, -0n, -2n]);
    expect(divideHalfEven(14n, 10n)).toBe(1n);
    expect(divideHalfEven(16n, 10n)).toBe(2n);
    expect(divideHalfEven(7n, -2n)).toBe(-4n);
  });

  it('is never more than half a unit from the exact quotient', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 6n }), (n, d) => {
        const q = divideHalfEven(n, d);
        const error = q * d - n;
        return 2n * (error < 0n ? -error : error) <= d;
      }),
    );
  });
});

describe('parsing and formatting', () => {
  it('reads amounts exactly in each currency and refuses what it cannot hold', () => {
    expect(parseMoney('12.34', 'USD')).toBe(1234);
    expect(parseMoney('12.3', 'USD')).toBe(1230);
    expect(parseMoney('1500', 'JPY')).toBe(1500);
    expect(parseMoney('1.234', 'KWD')).toBe(1234);
    // 0.1 + 0.2 in floating point is not 0.3; in minor units it is.
    expect(parseMoney('0.1', 'USD') + parseMoney('0.2', 'USD')).toBe(parseMoney('0.3', 'USD'));
    expect(() => parseMoney('12.345', 'USD')).toThrow(MoneyError);
    expect(() => parseMoney('1.5', 'JPY')).toThrow(/at most 0 decimals/);
    expect(() => parseMoney('12,34', 'USD')).toThrow(MoneyError);
    expect(() => parseMoney('1e3', 'USD')).toThrow(MoneyError);
  });

  it('writes them back with the currency’s digits', () => {
    expect(formatMinor(1234, 'USD')).toBe('12.34');
    expect(formatMinor(5, 'USD')).toBe('0.05');
    expect(formatMinor(-5, 'USD')).toBe('-0.05');
    expect(formatMinor(1500, 'JPY')).toBe('1500');
    expect(formatMoney(1234, 'KWD')).toBe('KWD 1.234');
    expect(currencyExponent('usd')).toBe(2);
  });

  it('reads back what it wrote, in every currency exponent', () => {
    fc.assert(fc.property(amount, fc.constantFrom('USD', 'JPY', 'KWD', 'EUR'), (minor, currency) => parseMoney(formatMinor(minor, currency), currency) === minor));
  });
});

describe('computed amounts', () => {
  it('prices GB of overage and rounds once', () => {
    // 7.25 GB at 5.00 a GB = 36.25; 0.333 GB at 5.00 = 1.665 → 1.66 (half to even).
    expect(multiply(500, 7.25)).toBe(3625);
    expect(multiply(500, '0.333')).toBe(166);
    expect(multiply(500, 0.335)).toBe(168);
    expect(multiply(500, 1e-7)).toBe(0);
    expect(multiply(199, 3)).toBe(597);
  });

  it('pro-rates a monthly fee over days, whole at the whole period and nothing at none', () => {
    // 10 of 30 days of 165.00 = 55.00; 1 of 31 days of 100.00 = 3.2258… → 3.23; a leap February.
    expect(prorate(16500, 10, 30)).toBe(5500);
    expect(prorate(10000, 1, 31)).toBe(323);
    expect(prorate(10000, 29, 29)).toBe(10000);
    expect(prorate(10000, 14, 29)).toBe(4828);
    expect(() => prorate(10000, 31, 30)).toThrow(MoneyError);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 366 }), (fee, days) => prorate(fee, days, days) === fee && prorate(fee, 0, days) === 0),
    );
  });

  it('pro-rates monotonically: more days never cost less', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 1, max: 366 }), fc.nat(), (fee, whole, k) => {
        const a = k % (whole + 1);
        const b = Math.min(whole, a + 1);
        return prorate(fee, a, whole) <= prorate(fee, b, whole);
      }),
    );
  });
});

describe('allocation', () => {
  it('splits a total into parts that add up to it exactly, the leftover to the largest remainders', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocate(1000, [10, 20, 1])).toEqual([323, 645, 32]);
    expect(() => allocate(100, [0, 0])).toThrow(MoneyError);
  });

  it('always adds up, never gives a part more than a unit off its exact share', () => {
    fc.assert(
      fc.property(amount, fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 40 }).filter((w) => w.some((x) => x > 0)), (total, weights) => {
        const parts = allocate(total, weights);
        const sum = weights.reduce((a, b) => a + b, 0);
        // Exactly, in big integers: |part × Σw − total × w| < Σw, i.e. less than one unit off.
        const within = (p: number, w: number) => {
          const off = BigInt(p) * BigInt(sum) - BigInt(total) * BigInt(w);
          return (off < 0n ? -off : off) < BigInt(sum);
        };
        return sumMinor(parts) === total && parts.every((p, i) => within(p, weights[i]!));
      }),
    );
  });
});
