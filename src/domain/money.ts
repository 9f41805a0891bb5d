// Money for billing: amounts are whole numbers of a currency's minor unit (cents for
// USD, yen for JPY, fils for KWD), never floating-point amounts. Shared by the server (statements,
// reconciliation) and the client (forms, display).
//
// THE rounding rule, the only one: a computed amount (a price times a quantity of GB, a monthly
// fee pro-rated over days) is worked out exactly and rounded once, to the nearest minor unit,
// halves to the even one ("banker's rounding": over thousands of lines it neither adds nor takes
// a systematic half-cent). Totals are sums of rounded lines, so a statement always adds up. A sum
// split into parts (allocate) gives the leftover units to the largest remainders, so the parts add
// up to the whole exactly.

/** Minor-unit digits of the currencies that differ from the usual two (ISO 4217). */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0, CLP: 0, DJF: 0, GNF: 0, ISK: 0, JPY: 0, KMF: 0, KRW: 0, PYG: 0, RWF: 0, UGX: 0, UYI: 0, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
  BHD: 3, IQD: 3, JOD: 3, KWD: 3, LYD: 3, OMR: 3, TND: 3,
};

export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

/** Digits after the decimal point for `currency` (2 unless ISO 4217 says otherwise). */
export function currencyExponent(currency: string): number {
  return EXPONENTS[currency.toUpperCase()] ?? 2;
}

export class MoneyError extends Error {
  override name = 'MoneyError';
}

/** A finite decimal as an exact fraction `units / 10^scale` (no floating-point on the way). */
export function decimalFraction(value: number | string): { units: bigint; scale: number } {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const match = /^([+-])?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new MoneyError(`Not a decimal number: ${String(value)}`);
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt(`${whole}${fraction}`) * (sign === '-' ? -1n : 1n);
  return { units, scale: fraction.length };
}

/** A JS number written out in plain decimals (1e-7 → "0.0000001"), exactly as it prints. */
function numberText(value: number): string {
  if (!Number.isFinite(value)) throw new MoneyError(`Not a finite number: ${value}`);
  const text = String(value);
  if (!/e/i.test(text)) return text;
  const [mantissa, exp] = text.toLowerCase().split('e') as [string, string];
  const negative = mantissa.startsWith('-');
  const [whole, fraction = ''] = mantissa.replace('-', '').split('.') as [string, string?];
  const digits = `${whole}${fraction}`;
  const point = whole.length + Number(exp);
  const plain = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? `${digits}${'0'.repeat(point - digits.length)}` : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${negative ? '-' : ''}${plain}`;
}

/** numerator / denominator rounded to the nearest integer, halves to the even one. */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new MoneyError('Division by zero');
  if (denominator < 0n) return divideHalfEven(-numerator, -denominator);
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  let quotient = n / denominator;
  const twice = (n % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

const toSafe = (value: bigint): number => {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) throw new MoneyError('Amount out of range');
  return Number(value);
};

/** "12.34" USD → 1234. More decimals than the currency has, or anything but a number, is refused. */
export function parseMoney(text: string, currency: string): number {
  const exponent = currencyExponent(currency);
  const { units, scale } = decimalFraction(text);
  if (scale > exponent) throw new MoneyError(`${currency} amounts have at most ${exponent} decimals`);
  return toSafe(units * 10n ** BigInt(exponent - scale));
}

/** 1234 USD → "12.34"; -5 JPY → "-5". */
export function formatMinor(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new MoneyError(`Not a whole number of minor units: ${minor}`);
  const exponent = currencyExponent(currency);
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return negative ? `-${text}` : text;
}

/** "USD 12.34". */
export const formatMoney = (minor: number, currency: string) => `${currency} ${formatMinor(minor, currency)}`;

/** A price in minor units times a quantity (e.g. 7.25 GB of overage), rounded once by the rule. */
export function multiply(priceMinor: number, quantity: number | string): number {
  if (!Number.isSafeInteger(priceMinor)) throw new MoneyError(`Not a whole number of minor units: ${priceMinor}`);
  const { units, scale } = decimalFraction(quantity);
  return toSafe(divideHalfEven(BigInt(priceMinor) * units, 10n ** BigInt(scale)));
}

/** An amount for `part` of `whole` (days of a cycle a line was on a plan), rounded once by the rule. */
export function prorate(amountMinor: number, part: number, whole: number): number {
  if (!Number.isSafeInteger(amountMinor)) throw new MoneyError(`Not a whole number of minor units: ${amountMinor}`);
  if (!Number.isInteger(part) || !Number.isInteger(whole) || whole <= 0 || part < 0 || part > whole) {
    throw new MoneyError(`Cannot pro-rate over ${part} of ${whole}`);
  }
  return toSafe(divideHalfEven(BigInt(amountMinor) * BigInt(part), BigInt(whole)));
}

/**
 * `totalMinor` split in proportion to `weights` (whole, non-negative, not all zero), in whole
 * minor units that add up to the total exactly: each part rounded down, then the leftover units
 * one each to the largest remainders (the earlier part first on a tie).
 */
export function allocate(totalMinor: number, weights: readonly number[]): number[] {
  if (!Number.isSafeInteger(totalMinor)) throw new MoneyError(`Not a whole number of minor units: ${totalMinor}`);
  if (weights.length === 0 || weights.some((w) => !Number.isInteger(w) || w < 0)) throw new MoneyError('Weights must be whole numbers of zero or more');
  const sum = weights.reduce((a, b) => a + BigInt(b), 0n);
  if (sum === 0n) throw new MoneyError('Weights must not all be zero');
  const negative = totalMinor < 0;
  const total = BigInt(Math.abs(totalMinor));
  const parts = weights.map((w) => (total * BigInt(w)) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (total * BigInt(w)) % sum }));
  let left = total - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    parts[i] = parts[i]! + 1n;
    left -= 1n;
  }
  return parts.map((p) => toSafe(negative ? -p : p));
}

/** The sum of amounts in minor units (exact; refused past the safe range). */
export function sumMinor(amounts: readonly number[]): number {
  return toSafe(amounts.reduce((a, b) => a + BigInt(b), 0n));
}
