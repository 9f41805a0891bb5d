// The fuzz generator held to ajv: for every schema in the server's OpenAPI document (params,
// queries, bodies) and for hand-written ones covering each keyword the generator knows, every
// "valid" sample passes ajv against its schema and every "invalid" one fails it, and `conforms`
// agrees with ajv on both and on junk. Also: the fuzz files together cover every route of the
// authorization matrix, and the document has no /api/v1 route the matrix lacks.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTHORIZATION_MATRIX } from '../authorization-matrix';
import { createTestContext, type TestContext } from '../helpers';
import { buildRequest, caseArbitrary, FUZZ_RUNS, fuzzFileOf, operationsOf, routesOfFile, type OpenApiDocument, type RouteOperation } from './harness';
import { codePointLength, conforms, invalidValue, junkJson, percentEncode, validValue, withOwnKey, type JsonSchema } from './openapi-arbitraries';

/** Per schema and kind: enough to hit every mutation of a schema a few times, cheap enough for CI. */
const SAMPLES = 40;

let ctx: TestContext;
let operations: Map<string, RouteOperation>;
beforeAll(async () => {
  ctx = await createTestContext();
  operations = operationsOf((await ctx.app.swagger()) as unknown as OpenApiDocument);
});
afterAll(async () => {
  await ctx?.close();
});

const ajv = new Ajv({ strict: false, allowUnionTypes: true });
addFormats(ajv);

/** Every schema an operation declares, named for the failure message. */
function schemasOf(operation: RouteOperation): [string, JsonSchema][] {
  return [
    ...operation.pathParams.map((p): [string, JsonSchema] => [`${operation.route} path ${p.name}`, p.schema]),
    ...operation.query.map((q): [string, JsonSchema] => [`${operation.route} query ${q.name}`, q.schema]),
    ...(operation.body ? [[`${operation.route} body`, operation.body] as [string, JsonSchema]] : []),
  ];
}

const HAND_WRITTEN: [string, JsonSchema][] = [
  ['bounded string', { type: 'string', minLength: 2, maxLength: 5 }],
  ['pattern', { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' }],
  ['uuid', { type: 'string', format: 'uuid' }],
  ['date', { type: 'string', format: 'date' }],
  ['date-time', { type: 'string', format: 'date-time' }],
  ['email', { type: 'string', format: 'email' }],
  ['enum', { type: 'string', enum: ['a', 'b', 'c'] }],
  ['nullable string', { type: 'string', nullable: true, maxLength: 3 }],
  ['integer range', { type: 'integer', minimum: -5, maximum: 5 }],
  ['number range', { type: 'number', minimum: 0.5, maximum: 2.5 }],
  ['boolean', { type: 'boolean' }],
  ['array', { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1, maxItems: 3 }],
  [
    'strict object',
    {
      type: 'object',
      properties: { id: { type: 'string', format: 'uuid' }, n: { type: 'integer', maximum: 9 }, tags: { type: 'array', items: { type: 'string', maxLength: 4 } } },
      required: ['id'],
      additionalProperties: false,
    },
  ],
  ['open object', { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }],
  ['nested', { type: 'object', properties: { inner: { type: 'object', properties: { x: { type: 'boolean' } }, required: ['x'], additionalProperties: false } }, required: ['inner'] }],
  ['anyOf', { anyOf: [{ type: 'string', maxLength: 2 }, { type: 'integer', minimum: 10 }] }],
];

function expectAgreement(name: string, schema: JsonSchema, values: unknown[], expected: boolean) {
  const validate = ajv.compile(schema);
  for (const value of values) {
    const shown = JSON.stringify(value)?.slice(0, 200);
    expect(validate(value), `${name}: ajv on ${expected ? 'valid' : 'invalid'} sample ${shown} (${ajv.errorsText(validate.errors)})`).toBe(expected);
    expect(conforms(schema, value), `${name}: conforms on ${shown}`).toBe(expected);
  }
}

describe('the fuzz generator', () => {
  it('finds schemas for params, queries and bodies in the document', () => {
    const all = [...operations.values()].flatMap(schemasOf);
    expect(all.filter(([name]) => name.includes(' path ')).length).toBeGreaterThan(20);
    expect(all.filter(([name]) => name.includes(' query ')).length).toBeGreaterThan(20);
    expect(all.filter(([name]) => name.endsWith(' body')).length).toBeGreaterThan(20);
  });

  it('draws valid samples ajv accepts and invalid ones it refuses, for every schema of the document', () => {
    const all = [...operations.values()].flatMap(schemasOf);
    for (const [name, schema] of all) {
      expectAgreement(name, schema, fc.sample(validValue(schema), { numRuns: SAMPLES, seed: 42 }), true);
      const invalid = invalidValue(schema);
      // Only a schema that allows anything has no invalid value.
      if (invalid === null) expect(Object.keys(schema).filter((k) => k !== 'default'), name).toEqual([]);
      else expectAgreement(name, schema, fc.sample(invalid, { numRuns: SAMPLES, seed: 42 }), false);
    }
  });

  it.each(HAND_WRITTEN)('draws valid and invalid samples ajv agrees with: %s', (name, schema) => {
    expectAgreement(name, schema, fc.sample(validValue(schema), { numRuns: SAMPLES * 4 }), true);
    expectAgreement(name, schema, fc.sample(invalidValue(schema)!, { numRuns: SAMPLES * 4 }), false);
  });

  it('judges junk as ajv does', () => {
    for (const [name, schema] of HAND_WRITTEN) {
      const validate = ajv.compile(schema);
      for (const value of fc.sample(junkJson(), { numRuns: SAMPLES, seed: 7 })) {
        expect(conforms(schema, value), `${name} on ${JSON.stringify(value)}`).toBe(validate(value));
      }
    }
  });

  it('breaks a strict object with a prototype key as own data, and counts length in code points', () => {
    const strict: JsonSchema = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    const poisoned = withOwnKey({ a: 'x' }, '__proto__', { admin: true });
    expect(Object.keys(poisoned)).toEqual(['a', '__proto__']);
    expect(JSON.stringify(poisoned)).toBe('{"a":"x","__proto__":{"admin":true}}');
    expect(conforms(strict, poisoned)).toBe(false);
    expect(ajv.validate(strict, poisoned)).toBe(false);
    expect(codePointLength('😀é\ud800')).toBe(3);
    expect(conforms({ type: 'string', maxLength: 1 }, '😀')).toBe(true);
  });

  it('builds requests that encode anything, lone surrogates included, and put the caller in for <<self>>', () => {
    expect(percentEncode('a b/\ud800?')).toBe('a%20b%2F%EF%BF%BD%3F');
    const operation = operations.get('PUT /api/v1/users/:uuid')!;
    const built = buildRequest(operation, { params: { uuid: { raw: false, value: '<<self>>' } }, query: [{ key: 'q', value: ['1', '2'], raw: false }], body: { kind: 'json', value: { name: '<<self>>' } }, broken: [] }, 'me');
    expect(built).toEqual({ method: 'PUT', url: '/api/v1/users/me?q=1&q=2', headers: { 'content-type': 'application/json' }, payload: '{"name":"me"}' });
  });
});

describe('the fuzz files', () => {
  it('cover every route of the authorization matrix, each in one file, and the document has no other /api/v1 route', () => {
    const matrix = Object.keys(AUTHORIZATION_MATRIX).sort();
    expect([...operations.keys()].sort()).toEqual(matrix);
    const files = ['accounts', 'customers', 'terminals'] as const;
    expect(files.flatMap((file) => routesOfFile(file)).sort()).toEqual(matrix);
    for (const route of matrix) expect(files).toContain(fuzzFileOf(route));
  });
});

describe('the default count of cases', () => {
  it('breaks the body, the query and the path of every route, and leaves some cases valid, within the default count of cases', () => {
    // A route that answers 500 to a malformed body (or query, or path) must be met by such a
    // request within the default run: checked here over two seeds for every route of the document (the chance of a miss is in harness.ts).
    const atLeast = 1;
    for (const operation of operations.values()) {
      const arbitrary = caseArbitrary(operation, () => undefined);
      for (let seed = 1; seed <= 2; seed++) {
        const cases = fc.sample(arbitrary, { numRuns: FUZZ_RUNS, seed });
        const parts = ['query', ...(operation.pathParams.length > 0 ? ['params'] : []), ...(operation.body ? ['body'] : [])];
        for (const part of parts) {
          const broken = cases.filter((c) => c.broken.includes(part)).length;
          expect(broken, `${operation.route}: ${part} broken in ${broken} of ${FUZZ_RUNS} cases (seed ${seed})`).toBeGreaterThanOrEqual(atLeast);
        }
        expect(cases.filter((c) => c.broken.length === 0).length, `${operation.route}: valid cases (seed ${seed})`).toBeGreaterThanOrEqual(atLeast);
      }
    }
  });
});
