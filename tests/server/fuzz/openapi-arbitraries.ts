// fast-check arbitraries from the JSON schemas of an OpenAPI 3.0 document (the server's own, as
// @fastify/swagger publishes it from the zod route schemas):
//
//   validValue(schema)    values the schema accepts; string leaves can also draw from pools of
//                         real values (ids, emails…) so valid requests reach the services
//   invalidValue(schema)  values it refuses, each broken in one way: wrong type, null, missing
//                         required key, extra or prototype key, too short/long, huge, out of
//                         range, not an integer, bad pattern or format, not in the enum, an
//                         invalid item or property
//   conforms(schema, v)   the subset of JSON Schema these documents use, so both arbitraries are
//                         filtered by it (openapi-arbitraries.test.ts holds all three to ajv)
//
// Plus the request-level pieces the fuzz harness sends: nasty strings and keys, junk JSON, and
// percent-encoders that never throw on lone surrogates.
import fc from 'fast-check';

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'null';

export interface JsonSchema {
  type?: JsonType | JsonType[];
  nullable?: boolean;
  enum?: readonly unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  default?: unknown;
}

/** Real values for leaves, by path: `customerUuid`, `serviceLineNumbers[]`, `expirationDays`, a param name. */
export type Pools = (path: string) => readonly unknown[] | undefined;

// ---- The validator -------------------------------------------------------------------------

/**
 * Whether the string's code-point length is within [min, max]. A string of n UTF-16 units has
 * between n/2 and n code points, so only a length near a bound is counted: the invalid samples of
 * a large body (a CSV of up to a million characters) are that long.
 */
function lengthWithin(s: string, min: number, max: number): boolean {
  if (s.length < min || Math.ceil(s.length / 2) > max) return false;
  if (Math.ceil(s.length / 2) >= min && s.length <= max) return true;
  const length = codePointLength(s);
  return length >= min && length <= max;
}

/** Length as JSON Schema (and ajv) counts it: code points, a surrogate pair being one. */
export const codePointLength = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
};

const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const DATE = /^(\d\d\d\d)-(\d\d)-(\d\d)$/;
// ajv-formats' "full" formats (its default), so ajv and these arbitraries agree.
const TIME = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|[+-](\d\d)(?::?(\d\d))?)$/i;
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap ? 29 : DAYS[month]!);
}

/** Without leap seconds, which the generators never produce. */
function isTime(s: string): boolean {
  const m = TIME.exec(s);
  return m !== null && Number(m[1]) <= 23 && Number(m[2]) <= 59 && Number(m[3]) < 60 && Number(m[5] ?? 0) <= 23 && Number(m[6] ?? 0) <= 59;
}

/** Formats ajv-formats knows and these documents use; other formats are not checked. */
const FORMATS: Record<string, (s: string) => boolean> = {
  uuid: (s) => UUID.test(s),
  date: isDate,
  'date-time': (s) => {
    const halves = s.split(/t|\s/i);
    return halves.length === 2 && isDate(halves[0]!) && isTime(halves[1]!);
  },
  email: (s) => EMAIL.test(s),
};

const regexCache = new Map<string, RegExp>();
/** ajv compiles `pattern` with the u flag. */
export function patternOf(pattern: string): RegExp {
  let re = regexCache.get(pattern);
  if (!re) regexCache.set(pattern, (re = new RegExp(pattern, 'u')));
  return re;
}

const typesOf = (schema: JsonSchema): JsonType[] | null => {
  if (schema.type === undefined) return null;
  const types = Array.isArray(schema.type) ? [...schema.type] : [schema.type];
  if (schema.nullable) types.push('null');
  return types;
};

function jsonTypeOf(value: unknown): JsonType | 'other' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isFinite(value) ? (Number.isInteger(value) ? 'integer' : 'number') : 'other';
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'object') return typeof value as JsonType;
  return 'other';
}

const deepEqual = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether `value` satisfies `schema` (the keywords listed in JsonSchema; others are ignored). */
export function conforms(schema: JsonSchema | boolean, value: unknown): boolean {
  if (schema === true) return true;
  if (schema === false) return false;
  const actual = jsonTypeOf(value);
  if (actual === 'other') return false;
  if (value === null && schema.nullable) return true;
  const types = typesOf(schema);
  if (types && !types.some((t) => t === actual || (t === 'number' && actual === 'integer'))) return false;
  if (schema.enum && !schema.enum.some((e) => deepEqual(e, value))) return false;
  if ('const' in schema && !deepEqual(schema.const, value)) return false;
  if (schema.allOf && !schema.allOf.every((s) => conforms(s, value))) return false;
  if (schema.anyOf && !schema.anyOf.some((s) => conforms(s, value))) return false;
  if (schema.oneOf && schema.oneOf.filter((s) => conforms(s, value)).length !== 1) return false;
  if (schema.not && conforms(schema.not, value)) return false;

  if (typeof value === 'string') {
    if (!lengthWithin(value, schema.minLength ?? 0, schema.maxLength ?? Infinity)) return false;
    if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) return false;
    const format = schema.format ? FORMATS[schema.format] : undefined;
    if (format && !format(value)) return false;
  }
  if (typeof value === 'number') {
    const { minimum, maximum, exclusiveMinimum: exMin, exclusiveMaximum: exMax } = schema;
    if (minimum !== undefined && (exMin === true ? value <= minimum : value < minimum)) return false;
    if (maximum !== undefined && (exMax === true ? value >= maximum : value > maximum)) return false;
    if (typeof exMin === 'number' && value <= exMin) return false;
    if (typeof exMax === 'number' && value >= exMax) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    if (schema.items && !value.every((item) => conforms(schema.items!, item))) return false;
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!Object.prototype.hasOwnProperty.call(record, key)) return false;
    const properties = schema.properties ?? {};
    for (const key of Object.keys(record)) {
      const own = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
      if (own) {
        if (!conforms(own, record[key])) return false;
      } else if (schema.additionalProperties !== undefined && !conforms(schema.additionalProperties, record[key])) {
        return false;
      }
    }
  }
  return true;
}

// ---- Nasty inputs --------------------------------------------------------------------------

/**
 * Strings that have broken servers: NUL, lone surrogates, bidi overrides, combining marks, case
 * mappings that change length, SQL/LIKE/regex/path/template metacharacters, numbers and keywords
 * as text, whitespace only, and lengths just past the usual caps.
 */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '   \t\n',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '\u202eevil',
  '\ufeffbom',
  'e\u0301',
  'Ω≈ç√∫',
  '😀👍🏽‍',
  'ＡＢＣ１２３',
  'İıßﬀ',
  '%',
  '%%25',
  '%00',
  '_',
  '\\',
  "'",
  '"',
  "' OR '1'='1' --",
  "'); DROP TABLE users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '${7*7}{{7*7}}',
  '(a+)+$',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'true',
  '-1',
  '0',
  '1e309',
  '9'.repeat(40),
  '\r\nX-Injected: 1',
  'a'.repeat(65),
  'a'.repeat(257),
  'a'.repeat(4097),
];

/** Object keys that have broken servers: prototype keys, empty, NUL, dotted, operator-like. */
export const NASTY_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '', ' ', '\u0000', 'a.b', '$where', 'extra'];

/** Past the 1 MB body limit once serialised. */
export const HUGE_LENGTH = 1_100_000;

/** A copy of `record` with `key` as an own enumerable property (so `__proto__` is data, not the prototype). */
export function withOwnKey(record: object, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...record };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

const nastyString = () => fc.constantFrom(...NASTY_STRINGS);

/**
 * Any code point but a lone surrogate: fast-check's own 'binary' unit, which takes seconds to set
 * up per process, without that cost.
 */
const codePoint = fc.oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff })).map((n) => String.fromCodePoint(n));

/** A string in one of several alphabets: printable ASCII, control characters, any code point, whole graphemes. */
const anyString = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.oneof(
    fc.string({ ...constraints, unit: 'grapheme-ascii' }),
    fc.string({ ...constraints, unit: 'binary-ascii' }),
    fc.string({ ...constraints, unit: codePoint }),
    fc.string({ ...constraints, unit: 'grapheme' }),
  );

/** Any JSON value, nasty strings and keys included. */
export const junkJson = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 4 },
    { arbitrary: nastyString(), weight: 2 },
    { arbitrary: fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, [], {}, [null], { a: null }), weight: 2 },
    { arbitrary: fc.tuple(fc.constantFrom(...NASTY_KEYS), fc.jsonValue({ maxDepth: 1 })).map(([k, v]) => withOwnKey({}, k, v)), weight: 1 },
  );

// ---- Valid values --------------------------------------------------------------------------

const cap = (n: number | undefined, fallback: number) => (n === undefined ? fallback : Math.min(n, fallback));

function integerBounds(schema: JsonSchema): { min: number; max: number } {
  let min = schema.minimum ?? -1_000_000_000;
  let max = schema.maximum ?? 1_000_000_000;
  if (schema.exclusiveMinimum === true) min += 1;
  if (schema.exclusiveMaximum === true) max -= 1;
  if (typeof schema.exclusiveMinimum === 'number') min = Math.max(min, schema.exclusiveMinimum + 1);
  if (typeof schema.exclusiveMaximum === 'number') max = Math.min(max, schema.exclusiveMaximum - 1);
  return { min: Math.ceil(min), max: Math.floor(max) };
}

function validString(schema: JsonSchema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date') {
    return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  }
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date('2099-12-31T00:00:00Z') }).map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern !== undefined) return fc.stringMatching(patternOf(schema.pattern), schema.maxLength !== undefined ? { maxLength: schema.maxLength } : {});
  const options: fc.WeightedArbitrary<string>[] = [
    { arbitrary: anyString({ minLength: min, maxLength: Math.max(min, cap(schema.maxLength, 40)) }), weight: 6 },
    { arbitrary: nastyString(), weight: 2 },
  ];
  // Exactly at the cap: the boundary is where off-by-one bugs live.
  if (schema.maxLength !== undefined && schema.maxLength > 0) {
    options.push({ arbitrary: fc.constantFrom('x', 'é', '😀').map((c) => c.repeat(schema.maxLength!)), weight: 1 });
  }
  return fc.oneof(...options);
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const { min, max } = integerBounds(schema);
  const boundaries = fc.constantFrom(...new Set([min, max, Math.max(min, Math.min(max, 0)), Math.max(min, Math.min(max, 1))]));
  const inRange = fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
  if (integer) return fc.oneof(inRange, boundaries);
  const lo = schema.minimum ?? -1e9;
  const hi = schema.maximum ?? 1e9;
  return fc.oneof(inRange, boundaries, fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true }));
}

function validObject(schema: JsonSchema, pools: Pools | undefined, path: string): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (keys.length === 0) return fc.constant({});
  const shape = Object.fromEntries(keys.map((key) => [key, validValue(properties[key]!, { pools, path: path ? `${path}.${key}` : key })]));
  const required = (schema.required ?? []).filter((k) => keys.includes(k));
  // Every key present more often than not: services often need fields the schema leaves optional.
  return fc.oneof(
    { arbitrary: fc.record(shape), weight: 2 },
    { arbitrary: fc.record(shape, { requiredKeys: required }), weight: 1 },
  ) as fc.Arbitrary<Record<string, unknown>>;
}

function validByType(schema: JsonSchema, type: JsonType, pools: Pools | undefined, path: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return validString(schema);
    case 'integer':
      return validNumber(schema, true);
    case 'number':
      return validNumber(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const item = schema.items ? validValue(schema.items, { pools, path: `${path}[]` }) : junkJson();
      return fc.array(item, { minLength, maxLength: Math.max(minLength, cap(schema.maxItems, 6)) });
    }
    case 'object':
      return validObject(schema, pools, path);
  }
}

/** Values `schema` accepts; with `pools`, leaves draw real values too (pool values are not filtered). */
export function validValue(schema: JsonSchema, options: { pools?: Pools; path?: string } = {}): fc.Arbitrary<unknown> {
  const { pools, path = '' } = options;
  let arbitrary: fc.Arbitrary<unknown>;
  if (schema.enum) arbitrary = fc.constantFrom(...schema.enum);
  else if ('const' in schema) arbitrary = fc.constant(schema.const);
  else if (schema.anyOf || schema.oneOf) arbitrary = fc.oneof(...(schema.anyOf ?? schema.oneOf)!.map((s) => validValue(s, { pools, path })));
  else {
    const types = typesOf(schema)?.filter((t) => t !== 'null') ?? [];
    arbitrary = types.length === 0 ? junkJson() : fc.oneof(...types.map((t) => validByType(schema, t, pools, path)));
  }
  arbitrary = arbitrary.filter((v) => conforms(schema, v));
  if (schema.nullable || typesOf(schema)?.includes('null')) arbitrary = fc.oneof({ arbitrary, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 });
  const pool = pools?.(path);
  if (pool && pool.length > 0) return fc.oneof({ arbitrary: fc.constantFrom(...pool), weight: 3 }, { arbitrary, weight: 1 });
  return arbitrary;
}

// ---- Invalid values ------------------------------------------------------------------------

/** One sample of each JSON type, for "wrong type" (the filter drops the ones the schema allows). */
const TYPE_SAMPLES: readonly unknown[] = [null, true, false, 0, -1, 1.5, 1e21, '', 'x', '0', 'true', 'null', [], [1, 'a'], {}, { a: 1 }];

function invalidString(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const min = schema.minLength ?? 0;
  if (min > 0) out.push(anyString({ maxLength: min - 1 }));
  if (schema.maxLength !== undefined) {
    const over = schema.maxLength + 1;
    out.push(
      fc.tuple(fc.constantFrom('x', 'é', '😀', 'a b', '\u0000'), fc.nat(20)).map(([unit, extra]) => unit.repeat(over + extra)),
      fc.constant('y'.repeat(Math.max(over, 100_000))),
    );
  }
  if (schema.pattern !== undefined || schema.format !== undefined) {
    const base = schema.format === 'uuid' ? fc.uuid() : schema.pattern !== undefined ? fc.stringMatching(patternOf(schema.pattern)) : fc.string();
    out.push(
      fc.oneof(anyString({ maxLength: 40 }), nastyString()),
      // Near misses: a valid value with one character too many, a space, a slash, a NUL, or cut short.
      fc.tuple(base, fc.constantFrom(' ', '!', '/', '\u0000', 'Z', '-', '%')).map(([s, c]) => `${s}${c}`),
      fc.tuple(base, fc.constantFrom(' ', '/', '\u0000', '..')).map(([s, c]) => `${c}${s}`),
      base.map((s) => s.slice(0, Math.max(0, s.length - 1))),
    );
  }
  if (schema.format === 'date') out.push(fc.constantFrom('2026-02-30', '2026-13-01', '2025-02-29', '2026-1-1', '20260101', '2026-03-01T00:00:00Z', 'yesterday', '0000-00-00'));
  if (schema.enum) {
    const strings = schema.enum.filter((e): e is string => typeof e === 'string');
    out.push(fc.oneof(anyString({ maxLength: 20 }), fc.constantFrom(...strings.flatMap((e) => [e.toUpperCase(), ` ${e}`, `${e} `, `${e}\u0000`, '']))));
  }
  return out;
}

function invalidNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const { minimum, maximum } = schema;
  if (minimum !== undefined) out.push(fc.oneof(fc.integer({ min: -1000, max: 0 }).map((d) => Math.floor(minimum) - 1 + d), fc.constantFrom(-1e15, Number.MIN_SAFE_INTEGER, -1e308)));
  if (maximum !== undefined) out.push(fc.oneof(fc.integer({ min: 0, max: 1000 }).map((d) => Math.ceil(maximum) + 1 + d), fc.constantFrom(1e15, Number.MAX_SAFE_INTEGER + 2, 1e308)));
  if (integer) {
    const { min, max } = integerBounds(schema);
    out.push(fc.constantFrom(min + 0.5, max - 0.5, 0.1, 1e-7, -0.5));
  }
  return out;
}

function invalidArray(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const item = schema.items ? validValue(schema.items) : junkJson();
  if (schema.maxItems !== undefined) out.push(item.map((v) => Array.from({ length: schema.maxItems! + 1 }, () => v)));
  if (schema.minItems !== undefined && schema.minItems > 0) out.push(fc.array(item, { maxLength: schema.minItems - 1 }));
  const badItem = schema.items ? invalidValue(schema.items) : null;
  if (badItem) out.push(fc.tuple(fc.array(item, { maxLength: 3 }), badItem).map(([items, bad]) => [...items, bad]));
  return out;
}

function invalidObject(schema: JsonSchema): fc.Arbitrary<unknown>[] {
  const out: fc.Arbitrary<unknown>[] = [];
  const valid = validObject(schema, undefined, '');
  const required = schema.required ?? [];
  if (required.length > 0) {
    out.push(
      fc.tuple(valid, fc.constantFrom(...required)).map(([record, key]) => {
        const copy = { ...record };
        delete copy[key];
        return copy;
      }),
    );
  }
  if (schema.additionalProperties === false) {
    const properties = schema.properties ?? {};
    const extraKey = fc.oneof(fc.constantFrom(...NASTY_KEYS), fc.string({ minLength: 1, maxLength: 12 })).filter((k) => !Object.prototype.hasOwnProperty.call(properties, k));
    out.push(fc.tuple(valid, extraKey, junkJson()).map(([record, key, value]) => withOwnKey(record, key, value)));
  }
  const broken = Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const bad = invalidValue(property);
    return bad ? [fc.tuple(valid, bad).map(([record, value]) => ({ ...record, [key]: value }))] : [];
  });
  if (broken.length > 0) out.push(fc.oneof(...broken));
  return out;
}

/**
 * Values `schema` refuses, each broken in one way; null when it refuses nothing (`{}`).
 * Always filtered through `conforms`, so a mutation that happens to be valid is never offered.
 */
export function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> | null {
  const candidates: fc.Arbitrary<unknown>[] = [];
  const wrongTypes = TYPE_SAMPLES.filter((v) => !conforms(schema, v));
  if (wrongTypes.length > 0) candidates.push(fc.constantFrom(...wrongTypes));
  const types = typesOf(schema) ?? [];
  if (types.includes('string') || schema.pattern !== undefined || schema.format !== undefined) candidates.push(...invalidString(schema));
  if (types.includes('integer')) candidates.push(...invalidNumber(schema, true));
  else if (types.includes('number')) candidates.push(...invalidNumber(schema, false));
  if (types.includes('array')) candidates.push(...invalidArray(schema));
  if (types.includes('object')) candidates.push(...invalidObject(schema));
  if (schema.enum && !types.includes('string')) candidates.push(junkJson());
  if (candidates.length === 0) return null;
  return fc.oneof(...candidates).filter((v) => !conforms(schema, v));
}

// ---- Encoding ------------------------------------------------------------------------------

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * encodeURIComponent that never throws: a lone surrogate goes out as U+FFFD, as any client's
 * UTF-8 encoder would send it.
 */
export const percentEncode = (value: string): string => encodeURIComponent(value.replace(LONE_SURROGATE, '\ufffd'));

/** A query value as a client would write it: strings as they are, everything else as JSON text. */
export const queryText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));
