// Seeded, stateless randomness for the generated fleet. Every value is a pure function of
// (seed, tag, index...), so any terminal, line or day can be produced on its own, in any order,
// without holding the fleet in memory. Ids are built from invertible permutations of the index,
// so an id from a request maps straight back to its index without a lookup table.

/** FNV-1a over the UTF-16 code units, finished with murmur3's avalanche. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines 32-bit values into one well-mixed 32-bit hash (order matters). */
export function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = fmix32((h ^ fmix32(value >>> 0)) + 0x7f4a7c15);
  }
  return h;
}

/** A 32-bit hash as a float in [0, 1). */
export const toUnit = (hash: number) => (hash >>> 0) / 4_294_967_296;

export { prng } from '../random';

/** A seeded mulberry32 stream with the helpers the generator needs (a class: one allocation a draw). */
export class Draw {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  int(min: number, maxInclusive: number): number {
    return min + Math.floor(this.next() * (maxInclusive - min + 1));
  }

  range(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

export const draw = (seed: number) => new Draw(seed);

/** Fisher–Yates in place with the given source. */
export function shuffleInPlace<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = items[i] as T;
    items[i] = items[j] as T;
    items[j] = a;
  }
  return items;
}

// ---- Invertible permutations ----------------------------------------------------------------

/** (a·x) mod m without leaving exact doubles, for m ≤ 10^8. */
function mulMod(a: number, x: number, m: number): number {
  const aHigh = Math.floor(a / 10_000);
  const aLow = a % 10_000;
  return (((((aHigh * x) % m) * 10_000) % m) + ((aLow * x) % m)) % m;
}

function modInverse(a: number, m: number): number {
  let [oldR, r] = [BigInt(a), BigInt(m)];
  let [oldS, s] = [1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  if (oldR !== 1n) throw new Error(`${a} has no inverse modulo ${m}`);
  return Number(((oldS % BigInt(m)) + BigInt(m)) % BigInt(m));
}

/**
 * A keyed bijection of [0, 10^digits): x → (a·x + b) mod 10^digits, with `a` coprime to 10.
 * Turns indexes 0, 1, 2… into serial-number-looking digits that still decode to the index.
 */
export interface DecimalPermutation {
  readonly modulus: number;
  forward(x: number): number;
  inverse(y: number): number;
}

export function decimalPermutation(digits: number, key: number): DecimalPermutation {
  if (digits < 1 || digits > 8) throw new RangeError('digits must be 1..8');
  const modulus = 10 ** digits;
  const d = draw(key);
  // Odd and not a multiple of 5 → coprime to 10^k; large so neighbours land far apart.
  let a = d.int(Math.floor(modulus / 3), modulus - 1);
  while (a % 2 === 0 || a % 5 === 0) a = (a + 1) % modulus || 1;
  const b = d.int(0, modulus - 1);
  const aInverse = modInverse(a, modulus);
  return {
    modulus,
    forward: (x) => (mulMod(a, x, modulus) + b) % modulus,
    inverse: (y) => mulMod(aInverse, (y - b + modulus) % modulus, modulus),
  };
}

/** Inverse of an odd number modulo 2^32 (Newton's iteration). */
function oddInverse32(a: number): number {
  let inverse = a;
  for (let i = 0; i < 5; i++) inverse = Math.imul(inverse, 2 - Math.imul(a, inverse));
  return inverse >>> 0;
}

/** A keyed bijection of 32-bit integers (xor, multiply, xorshift), for hex-looking ids. */
export interface HexPermutation {
  forward(x: number): number;
  inverse(y: number): number;
}

export function hexPermutation(key: number): HexPermutation {
  const d = draw(key);
  const k1 = Math.floor(d.next() * 2 ** 32) >>> 0;
  const m1 = (Math.floor(d.next() * 2 ** 32) | 1) >>> 0;
  const m2 = (Math.floor(d.next() * 2 ** 32) | 1) >>> 0;
  const i1 = oddInverse32(m1);
  const i2 = oddInverse32(m2);
  return {
    forward(x) {
      let h = (x ^ k1) >>> 0;
      h = Math.imul(h, m1) >>> 0;
      h = (h ^ (h >>> 16)) >>> 0;
      h = Math.imul(h, m2) >>> 0;
      return (h ^ (h >>> 16)) >>> 0;
    },
    inverse(y) {
      // x ^= x >>> 16 is its own inverse on 32 bits.
      let h = (y ^ (y >>> 16)) >>> 0;
      h = Math.imul(h, i2) >>> 0;
      h = (h ^ (h >>> 16)) >>> 0;
      h = Math.imul(h, i1) >>> 0;
      return (h ^ k1) >>> 0;
    },
  };
}

export const hex = (value: number, width: number) => (value >>> 0).toString(16).padStart(8, '0').slice(8 - width);
export const digits = (value: number, width: number) => String(value).padStart(width, '0');
