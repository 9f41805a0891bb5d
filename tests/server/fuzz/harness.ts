// The fuzz harness behind tests/server/fuzz-*.test.ts: one world per test file (a fresh app on
// its own database, the provider simulator over real HTTP, seeded customers, portal users,
// terminals, service lines, usage, sync runs, password-setup links and an MFA account), and
// `fuzzRoute`, which sends FUZZ_RUNS generated requests to one route of the OpenAPI document and
// holds every answer to three properties:
//
//   1. the status is below 500;
//   2. a status of 400 or more carries the error envelope { success: false, message, requestId }
//      with a non-empty message (and the x-request-id header's id);
//   3. a 4xx changed no table (checksum.ts), except the parts ALLOWED_ON_REFUSAL names for it.
//
// A case is valid or breaks one or more of path params, query and body (openapi-arbitraries.ts);
// valid leaves draw from pools of real values read from the database before each route (ids,
// service lines, emails, setup tokens, MFA codes…), so valid cases reach the services rather than
// stopping at 404. Requests carry the token the route's access level needs, from an account made
// for that route (see `newActor`). FUZZ_VERBOSE=1 prints a line of figures per route;
// FUZZ_TRACE=<part of a route> prints every case of the routes it matches.
import { allows, isPermission, type Permission } from '../../../src/domain/permissions';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/auth/passwords';
import { totpCode } from '../../../server/auth/totp';
import type { AccessLevel } from '../../../server/auth/principal';
import type { RunningSimulator } from '../../../server/simulator';
import { insertProduct, insertServiceLines, insertTerminals, seedTerminalWorld, terminalRow } from '../../fixtures/terminals';
import { AUTHORIZATION_MATRIX } from '../authorization-matrix';
import { createTestContext, type TestContext } from '../helpers';
import { fastClient, startFleet } from '../terminal-sync-fixtures';
import { changedParts, createChecksum, type Checksum, type FailedAttemptAction, type Snapshot } from './checksum';
import { HUGE_LENGTH, invalidValue, junkJson, NASTY_KEYS, NASTY_STRINGS, percentEncode, queryText, validValue, type JsonSchema, type Pools } from './openapi-arbitraries';

/**
 * Cases per route: 20 by default, more for a long run (`FUZZ_RUNS=5000 npm run test:long`). About
 * a third of the cases break the body (a case breaks one or more parts 60 % of the time), so a
 * route that answers 500 to a malformed body goes unseen by 20 cases with a chance of 0.65²⁰, about
 * one in 5,500; the long run is for the rarer shapes.
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) || 20;
/** Replays a reported failure: the seed (and path) fast-check printed. */
const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const FUZZ_PATH = process.env.FUZZ_PATH || undefined;

/** Per route: generous, since sign-in routes pay an Argon2 verification on most cases. */
export const routeTimeout = 30_000 + FUZZ_RUNS * 150;

// ---- Which file fuzzes which route ---------------------------------------------------------

export type FuzzFile = 'accounts' | 'customers' | 'terminals';

/** Splits the routes over three files (two cores run two at a time) by what they are about. */
export function fuzzFileOf(route: string): FuzzFile {
  const path = route.slice(route.indexOf(' ') + 1).replace(/^\/api\/v1/, '');
  if (/^\/(auth|users|roles|api-keys|invitations|password-setup|health)(\/|$)/.test(path) || /^\/customers\/(auth|profile|change-password|mfa)(\/|$)/.test(path)) return 'accounts';
  if (/^\/my\/team(\/|$)/.test(path)) return 'customers';
  if (/^\/(customers|email-outbox|dashboard|subscriptions|starlink-simulator|provider-accounts|billing)(\/|$)/.test(path)) return 'customers';
  if (/^\/(terminals|fleet|usage|service-lines|activations|automatic-actions|scheduled-changes)(\/|$)/.test(path) || /^\/my\/(overview|terminals)(\/|$)/.test(path)) return 'terminals';
  if (/^\/(requests|my\/requests)(\/|$)/.test(path)) return 'customers';
  if (/^\/(alerts|alert-rules|webhooks|my\/alerts)(\/|$)/.test(path)) return 'customers';
  if (/^\/my\/(statements|account)(\/|$)/.test(path)) return 'customers';
  if (/^\/search(\/|$)/.test(path)) return 'customers';
  if (/^\/audit(\/|$)/.test(path)) return 'customers';
  if (/^\/bulk(\/|$)/.test(path)) return 'customers';
  throw new Error(`${route} belongs to no fuzz file: add its prefix to fuzzFileOf`);
}

/** The routes of the authorization matrix (the list of every /api/v1 route) one file fuzzes. */
export const routesOfFile = (file: FuzzFile): string[] => Object.keys(AUTHORIZATION_MATRIX).filter((route) => fuzzFileOf(route) === file).sort();

// ---- Writes a refusal may make -------------------------------------------------------------

const failedAttempt = (action: FailedAttemptAction) => `audit_log:${action}`;

/**
 * The only writes a refused request may make, by route: a wrong password or code counts toward
 * the account's lockout (users/customers `.lockout`: failed_login_attempts, locked_until) and is
 * kept in the audit log as a failed attempt. Each is what a security log must record; anything
 * else a 4xx writes fails the fuzz.
 */
export const ALLOWED_ON_REFUSAL: Readonly<Record<string, readonly string[]>> = {
  'POST /api/v1/auth/login': ['users.lockout', failedAttempt('auth.login_failed')],
  'POST /api/v1/auth/login/mfa': ['users.lockout', failedAttempt('auth.login_failed')],
  'POST /api/v1/customers/auth/login': ['customers.lockout', failedAttempt('customer.login_failed')],
  'PUT /api/v1/users/change-password': ['users.lockout', failedAttempt('user.password_change_failed')],
  'PUT /api/v1/customers/change-password': ['customers.lockout', failedAttempt('customer.password_change_failed')],
  'POST /api/v1/auth/mfa/verify': [failedAttempt('auth.mfa_enable_failed')],
  'POST /api/v1/auth/mfa/disable': [failedAttempt('auth.mfa_disable_failed')],
  'POST /api/v1/customers/auth/login/mfa': ['customers.lockout', failedAttempt('customer.login_failed')],
  'POST /api/v1/customers/mfa/verify': [failedAttempt('customer.mfa_enable_failed')],
  'POST /api/v1/customers/mfa/disable': [failedAttempt('customer.mfa_disable_failed')],
};

// ---- The OpenAPI document ------------------------------------------------------------------

interface ParameterObject {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
}

export interface RouteOperation {
  /** As the authorization matrix writes it: `GET /api/v1/users/:uuid`. */
  route: string;
  method: string;
  /** The document's template: `/api/v1/users/{uuid}`. */
  template: string;
  pathParams: { name: string; schema: JsonSchema }[];
  query: { name: string; schema: JsonSchema; required: boolean }[];
  /** The JSON body schema, or null when the route declares none. */
  body: JsonSchema | null;
}

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(document: OpenApiDocument): Map<string, RouteOperation> {
  const operations = new Map<string, RouteOperation>();
  for (const [template, item] of Object.entries(document.paths)) {
    if (!template.startsWith('/api/v1/')) continue;
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.includes(method)) continue;
      const parameters = operation.parameters ?? [];
      const route = `${method.toUpperCase()} ${template.replace(/\{([^}]+)\}/g, ':$1')}`;
      operations.set(route, {
        route,
        method: method.toUpperCase(),
        template,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      });
    }
  }
  return operations;
}

// ---- Cases ---------------------------------------------------------------------------------

/** Stands for the acting account's own id; replaced when the request is built. */
const SELF = '<<self>>';

type ParamCase = { raw: false; value: unknown } | { raw: true; text: string };
interface QueryEntry {
  key: string;
  /** null: the bare key (`?key`); an array: the key repeated. */
  value: string | string[] | null;
  /** Sent as it is, not percent-encoded (bad escapes and all). */
  raw: boolean;
}
type BodyCase = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'text'; text: string; contentType: string };

export interface FuzzCase {
  params: Record<string, ParamCase>;
  query: QueryEntry[];
  body: BodyCase;
  /** Which parts were broken on purpose (empty: a valid case). */
  broken: string[];
}

const JSON_TYPE = 'application/json';
const HUGE_BODY = `{"x":"${'a'.repeat(HUGE_LENGTH)}"}`;
const DEEP_BODY = `${'['.repeat(5000)}${']'.repeat(5000)}`;

/** Bodies no JSON schema describes: broken JSON, other media types, empty, huge, poisoned prototypes. */
const junkBody = (valid: fc.Arbitrary<unknown>): fc.Arbitrary<BodyCase> =>
  fc.oneof(
    fc.constantFrom('{', '{"a":', '[1,]', 'nul', '{"a":1}x', "{'a':1}", '\u0000', '"\\ud800"', '1e999999', '{"a":"\\u0000"}', DEEP_BODY).map((text): BodyCase => ({ kind: 'text', text, contentType: JSON_TYPE })),
    fc.constantFrom('{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}', '{"a":1,"a":2}').map((text): BodyCase => ({ kind: 'text', text, contentType: JSON_TYPE })),
    fc.constant<BodyCase>({ kind: 'text', text: '', contentType: JSON_TYPE }),
    fc.constant<BodyCase>({ kind: 'text', text: HUGE_BODY, contentType: JSON_TYPE }),
    fc
      .tuple(valid, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/xml', 'application/jsonx', 'a/b/c'))
      .map(([value, contentType]): BodyCase => ({ kind: 'text', text: JSON.stringify(value) ?? '', contentType })),
  );

/** Raw path segments: bad escapes, dot segments, an encoded slash, past the router's 100-character cap. */
const RAW_SEGMENTS = ['%zz', '%E0%A4%A', '%', '..', '.', '%2F', '%2e%2e', 'a%00b', '%C0%AF', 'x'.repeat(101), '%F0%9F%98%80'];

export function caseArbitrary(operation: RouteOperation, pools: Pools, { validOnly = false }: { validOnly?: boolean } = {}): fc.Arbitrary<FuzzCase> {
  const { pathParams, query, body, method } = operation;

  const paramValid = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, validValue(p.schema, { pools, path: p.name }).map((value): ParamCase => ({ raw: false, value }))])));
  const paramBad = fc.record(
    Object.fromEntries(
      pathParams.map((p) => {
        const invalid = invalidValue(p.schema);
        return [
          p.name,
          fc.oneof(
            ...(invalid ? [invalid.map((value): ParamCase => ({ raw: false, value }))] : []),
            fc.constantFrom(...NASTY_STRINGS).map((value): ParamCase => ({ raw: false, value })),
            fc.constantFrom(...RAW_SEGMENTS).map((text): ParamCase => ({ raw: true, text })),
          ),
        ];
      }),
    ),
  );

  const entry = (key: string, value: fc.Arbitrary<unknown>, raw = false) => value.map((v): QueryEntry => ({ key, value: queryText(v), raw }));
  const queryValid = fc.tuple(
    ...query.map((q) => {
      const valid = entry(q.name, validValue(q.schema, { pools, path: q.name }));
      return q.required ? valid.map((e) => [e]) : fc.oneof(fc.constant([] as QueryEntry[]), valid.map((e) => [e]));
    }),
  );
  const queryBad = fc.tuple(
    ...query.map((q) => {
      const invalid = invalidValue(q.schema);
      const options: fc.Arbitrary<QueryEntry[]>[] = [
        fc.constant([] as QueryEntry[]),
        entry(q.name, fc.constantFrom(...NASTY_STRINGS)).map((e) => [e]),
        entry(q.name, fc.constantFrom('%zz', '%', '%00', '%E0%A4%A', '+', '&', '='), true).map((e) => [e]),
        fc.constant([{ key: q.name, value: null, raw: false }]),
        // The key twice: the query parser hands the route an array.
        fc.tuple(validValue(q.schema), validValue(q.schema)).map(([a, b]) => [{ key: q.name, value: [queryText(a), queryText(b)], raw: false }]),
      ];
      if (invalid) options.push(entry(q.name, invalid).map((e) => [e]));
      return fc.oneof(...options);
    }),
  );
  const extraQuery = fc.array(
    fc.tuple(fc.oneof(fc.constantFrom(...NASTY_KEYS.filter(Boolean)), fc.string({ minLength: 1, maxLength: 8 })), fc.constantFrom(...NASTY_STRINGS)).map(([key, value]): QueryEntry => ({ key, value, raw: false })),
    { maxLength: 2 },
  );

  const hasBody = body !== null || ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
  const bodyValid: fc.Arbitrary<BodyCase> = body
    ? validValue(body, { pools }).map((value): BodyCase => ({ kind: 'json', value }))
    : hasBody
      ? fc.constantFrom<BodyCase>({ kind: 'none' }, { kind: 'json', value: {} })
      : fc.constant<BodyCase>({ kind: 'none' });
  const invalidBody = body ? invalidValue(body) : null;
  const bodyBad: fc.Arbitrary<BodyCase> = fc.oneof(
    ...(invalidBody ? [{ arbitrary: invalidBody.map((value): BodyCase => ({ kind: 'json', value })), weight: 4 }] : []),
    { arbitrary: junkJson().map((value): BodyCase => ({ kind: 'json', value })), weight: 2 },
    { arbitrary: junkBody(body ? validValue(body, { pools }) : junkJson()), weight: 2 },
    { arbitrary: fc.constant<BodyCase>({ kind: 'none' }), weight: 1 },
  );

  const parts = [...(pathParams.length > 0 ? ['params'] : []), 'query', ...(hasBody ? ['body'] : [])];
  return fc
    .record({
      // About 40 % valid cases, the rest with one or more parts broken. Drawn first, so which
      // parts break does not hang on how much randomness a route's own schemas took before it.
      broken: validOnly ? fc.constant([] as string[]) : fc.oneof({ arbitrary: fc.constant([] as string[]), weight: 2 }, { arbitrary: fc.subarray(parts, { minLength: 1 }), weight: 3 }),
      paramValid,
      paramBad,
      queryValid,
      queryBad,
      extraQuery,
      bodyValid,
      bodyBad,
    })
    .map((c) => ({
      params: c.broken.includes('params') ? c.paramBad : c.paramValid,
      query: [...(c.broken.includes('query') ? c.queryBad : c.queryValid).flat(), ...(c.broken.includes('query') ? c.extraQuery : [])],
      body: c.broken.includes('body') ? c.bodyBad : c.bodyValid,
      broken: c.broken,
    }));
}

const resolveSelf = (value: unknown, self: string): unknown => {
  if (value === SELF) return self;
  if (Array.isArray(value)) return value.map((v) => resolveSelf(v, self));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      Object.defineProperty(copy, key, { value: resolveSelf((value as Record<string, unknown>)[key], self), enumerable: true, configurable: true, writable: true });
    }
    return copy;
  }
  return value;
};

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

export function buildRequest(operation: RouteOperation, c: FuzzCase, self: string): BuiltRequest {
  const path = operation.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = c.params[name]!;
    return param.raw ? param.text : percentEncode(queryText(resolveSelf(param.value, self)));
  });
  const encode = (text: string, raw: boolean) => (raw ? text : percentEncode(text));
  const query = c.query
    .flatMap((e) => {
      const key = percentEncode(e.key);
      if (e.value === null) return [key];
      const values = Array.isArray(e.value) ? e.value : [e.value];
      return values.map((v) => `${key}=${encode(v === SELF ? self : v, e.raw)}`);
    })
    .join('&');
  const url = query ? `${path}?${query}` : path;
  if (c.body.kind === 'none') return { method: operation.method, url, headers: {} };
  if (c.body.kind === 'text') return { method: operation.method, url, headers: { 'content-type': c.body.contentType }, payload: c.body.text };
  const text = JSON.stringify(resolveSelf(c.body.value, self));
  return text === undefined ? { method: operation.method, url, headers: {} } : { method: operation.method, url, headers: { 'content-type': JSON_TYPE }, payload: text };
}

// ---- The world -----------------------------------------------------------------------------

/** Every seeded account with a password has this one; pools offer it with wrong ones. */
const KNOWN_PASSWORD = 'Fuzz-Known-Passw0rd';
/** Days around the seeded usage (cycles from 2026-01-15, the test clock on 2026-03-02). */
const USAGE_DAYS = ['2026-01-15', '2026-02-14', '2026-02-15', '2026-03-01', '2026-03-14', '2026-03-31'];
/** Addresses no account has yet: the first valid create with one succeeds, later ones conflict. */
const FRESH_EMAILS = ['fresh.one@example.com', 'fresh.two@example.com', 'fresh.three@example.org'];
/** A password the policy accepts, for new-password fields. */
const NEW_PASSWORD = 'Fuzz-New-Passw0rd-2';

interface Actor {
  kind: 'admin' | 'customer';
  id: string;
  token: string;
}

export interface FuzzWorld {
  ctx: TestContext;
  sim: RunningSimulator;
  operations: Map<string, RouteOperation>;
  checksum: Checksum;
  /** The Argon2 hash of KNOWN_PASSWORD, computed once for every account that needs it. */
  knownHash: string;
  /** The MFA account's secret, backup codes and a sign-in challenge, for the code-step pools. */
  mfa: { secret: string; backupCodes: string[]; challenge: string };
  /** Lines the simulator knows that have no terminal here. */
  providerOnlyLines: string[];
  close(): Promise<void>;
}

const rowsOf = async <T>(ctx: TestContext, query: ReturnType<typeof sql>): Promise<T[]> => ((await ctx.database.db.execute(query)) as unknown as { rows: T[] }).rows;

async function post(ctx: TestContext, url: string, token: string, payload: Record<string, unknown> = {}) {
  const res = await ctx.request({ method: 'POST', url: `/api/v1${url}`, token, payload });
  expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
  return res.json().data as Record<string, unknown>;
}

export async function createFuzzWorld(): Promise<FuzzWorld> {
  const sim = await startFleet({ terminals: 24 });
  const ctx = await createTestContext({
    // Generous: a slow answer on a loaded machine is not what the fuzz is about (a 504 would hide the case).
    provider: { kind: 'simulator', client: () => fastClient(sim, { maxRetries: 1, timeoutMs: 10_000 }) },
    // Sign-ins are rate-limited per address; the fuzz must reach validation, not the limiter.
    env: { SYNC_INTERVAL: 'off', USAGE_SYNC_INTERVAL: 'off', LOGIN_RATE_LIMIT: '100000' },
  });
  // No worker may write behind the fuzz's back (the checksum would see it): a run POST
  // /terminals/sync queues stays queued, and later ones answer 409.
  await ctx.app.syncJobs?.stop();
  const db = ctx.database.db;
  const knownHash = await hashPassword(KNOWN_PASSWORD);
  const withPassword = { password: null, passwordHash: knownHash };

  const customer = async (name: string, company: string, extra: Record<string, unknown> = {}) => (await ctx.createCustomer({ name, company, password: null, isActive: true, ...extra })).id;
  const people = {
    ana: await customer('Ana Lima', 'Andes Copper', withPassword),
    bruno: await customer('Bruno Okafor', 'Northwind Maritime'),
    elena: await customer('Elena 100%_Nakamura', 'Boreal Timber'),
    gone: await customer('Isabel Gone', 'Gone Ltd', { deletedAt: ctx.clock.now() }),
    diego: await customer('Diego Fernandes', 'Pacific Fish', { blockedEnabled: true, blockedReason: 'Payment overdue', ...withPassword }),
    gabriela: await customer('Gabriela Haddad', 'Coral Coast', { accountExpiresAt: new Date('2026-03-01T12:00:00.000Z'), ...withPassword }),
  };
  await customer('Carla Pending', 'Sahel Agritech', { isActive: false });
  await seedTerminalWorld(db, people);

  // Terminals the simulator knows too, so refresh, the console and plan changes succeed.
  const products = sim.fleet.products();
  for (const product of products) {
    await insertProduct(db, { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
  }
  const simTerminals = sim.fleet.userTerminalIds().map((_, i) => sim.fleet.terminal(i)).filter((t) => t.serviceLineNumber);
  const mirrored = simTerminals.slice(0, 6);
  await insertServiceLines(
    db,
    mirrored.map((t) => ({ serviceLineNumber: t.serviceLineNumber!, productReferenceId: sim.fleet.serviceLine(t.serviceLineNumber!)?.productReferenceId ?? null })),
  );
  await insertTerminals(
    db,
    mirrored.map((t, i) =>
      terminalRow({
        userTerminalId: t.userTerminalId,
        kitSerialNumber: t.kitSerialNumber,
        serviceLineNumber: t.serviceLineNumber,
        productReferenceId: sim.fleet.serviceLine(t.serviceLineNumber!)?.productReferenceId ?? null,
        assignedCustomerId: i === 0 ? people.ana : null,
      }),
    ),
  );

  // Portal users: another administrator (with MFA), a user-role account, blocked, deleted, suspended.
  const mfaAdmin = await ctx.createAdmin(withPassword);
  await ctx.createAdmin({ role: 'user', ...withPassword });
  await ctx.createAdmin({ role: 'user', blockedEnabled: true, blockedReason: 'Left', blockedAt: ctx.clock.now(), ...withPassword });
  await ctx.createAdmin({ role: 'user', deletedAt: ctx.clock.now(), password: null });
  await ctx.createAdmin({ role: 'user', isActive: false, password: null });

  // Through the API: MFA on for mfaAdmin, and password-setup links in the outbox.
  const mfaToken = (await ctx.login('admin', mfaAdmin.email, KNOWN_PASSWORD)).token!;
  const { secret } = (await post(ctx, '/auth/mfa/setup', mfaToken)) as { secret: string };
  const { backupCodes } = (await post(ctx, '/auth/mfa/verify', mfaToken, { code: await totpCode(secret, ctx.clock.now()) })) as { backupCodes: string[] };
  // The next time step, so the pool's current code has not been used yet.
  ctx.clock.advance(30_000);
  const login = await ctx.login('admin', mfaAdmin.email, KNOWN_PASSWORD);
  const challenge = (login.body.data as { challenge: string }).challenge;
  await post(ctx, '/customers', mfaToken, { name: 'Link Receiver', email: 'link.receiver@example.com', company: 'Links Ltd', sendPasswordLink: true });
  await post(ctx, '/customers', mfaToken, { name: 'Second Link', email: 'second.link@example.com', company: 'Links Ltd', sendPasswordLink: true });
  await post(ctx, '/users', mfaToken, { name: 'Link User', email: 'link.user@example.com', role: 'user' });

  // Customer requests on Ana's mirrored line: one of each kind pending, one declined.
  const asked = mirrored[0]!.serviceLineNumber!;
  await db.execute(sql`INSERT INTO customer_requests (customer_id, service_line_number, kind, product_id, block_count, status, decision_reason, decided_at)
    VALUES (${people.ana}, ${asked}, 'plan_change', 'SUB-METERED-1TB', NULL, 'pending', NULL, NULL),
           (${people.ana}, ${asked}, 'top_up', 'DATA-TOPUP-50GB', 1, 'pending', NULL, NULL),
           (${people.ana}, ${asked}, 'top_up', 'DATA-TOPUP-50GB', 2, 'declined', 'Fuzzing', now())`);
  const known = new Set((await rowsOf<{ n: string }>(ctx, sql`SELECT service_line_number AS n FROM service_lines`)).map((r) => r.n));
  return {
    ctx,
    sim,
    operations: operationsOf((await ctx.app.swagger()) as unknown as OpenApiDocument),
    checksum: await createChecksum(db),
    knownHash,
    mfa: { secret, backupCodes, challenge },
    providerOnlyLines: sim.fleet.serviceLineNumbers().filter((n) => !known.has(n)).slice(0, 3),
    async close() {
      await ctx.close();
      await sim.close();
    },
  };
}

/**
 * Routes whose success path needs the acting account in a certain state, and the pool entries
 * that state brings: a pending MFA secret to verify, or MFA on to turn off.
 */
/**
 * Customer requests: the acting customer gets a line the provider knows, so valid cases
 * reach the checks against the provider's line and some are sent.
 */
async function giveRequestLine({ ctx, sim }: FuzzWorld, actor: Actor): Promise<Record<string, string[]>> {
  const known = new Set(sim.fleet.serviceLineNumbers());
  const free = await rowsOf<{ id: string; line: string }>(
    ctx,
    sql`SELECT user_terminal_id AS id, service_line_number AS line FROM terminals WHERE assigned_customer_id IS NULL AND removed_at IS NULL AND service_line_number IS NOT NULL ORDER BY 1`,
  );
  const mine = free.find((t) => known.has(t.line));
  if (!mine) return {};
  await ctx.database.db.execute(sql`UPDATE terminals SET assigned_customer_id = ${actor.id}, assigned_at = now() WHERE user_terminal_id = ${mine.id}`);
  return { serviceLineNumber: [mine.line], productId: ['SUB-METERED-1TB', 'SUB-METERED-50GB', 'DATA-TOPUP-50GB'] };
}

const PREPARE_ACTOR: Readonly<Record<string, (world: FuzzWorld, actor: Actor) => Promise<Record<string, string[]>>>> = {
  'POST /api/v1/my/requests': giveRequestLine,
  'GET /api/v1/my/requests/options': giveRequestLine,
  'POST /api/v1/auth/mfa/verify': async ({ ctx }, actor) => {
    const { secret } = (await post(ctx, '/auth/mfa/setup', actor.token)) as { secret: string };
    return { code: [await totpCode(secret, ctx.clock.now())] };
  },
  'POST /api/v1/auth/mfa/disable': async ({ ctx }, actor) => {
    const { secret } = (await post(ctx, '/auth/mfa/setup', actor.token)) as { secret: string };
    const { backupCodes } = (await post(ctx, '/auth/mfa/verify', actor.token, { code: await totpCode(secret, ctx.clock.now()) })) as { backupCodes: string[] };
    // The verified step may not be used again.
    ctx.clock.advance(30_000);
    return { code: [await totpCode(secret, ctx.clock.now()), ...backupCodes], password: [KNOWN_PASSWORD, 'Wrong-Passw0rd'] };
  },
  // The customers' own MFA routes, prepared the same way.
  'POST /api/v1/customers/mfa/verify': async ({ ctx }, actor) => {
    const { secret } = (await post(ctx, '/customers/mfa/setup', actor.token)) as { secret: string };
    return { code: [await totpCode(secret, ctx.clock.now())] };
  },
  'POST /api/v1/customers/mfa/disable': async ({ ctx }, actor) => {
    const { secret } = (await post(ctx, '/customers/mfa/setup', actor.token)) as { secret: string };
    const { backupCodes } = (await post(ctx, '/customers/mfa/verify', actor.token, { code: await totpCode(secret, ctx.clock.now()) })) as { backupCodes: string[] };
    ctx.clock.advance(30_000);
    return { code: [await totpCode(secret, ctx.clock.now()), ...backupCodes], password: [KNOWN_PASSWORD, 'Wrong-Passw0rd'] };
  },
};

/** Real values for the leaves of one route, read from the database now. */
async function poolsFor(world: FuzzWorld, operation: RouteOperation, extra: Record<string, string[]> = {}): Promise<Pools> {
  const { ctx } = world;
  const users = await rowsOf<{ id: string; email: string }>(ctx, sql`SELECT id::text, email FROM users ORDER BY created_at, id LIMIT 20`);
  const customers = await rowsOf<{ id: string; email: string; name: string }>(ctx, sql`SELECT id::text, email, name FROM customers ORDER BY created_at, id LIMIT 20`);
  const terminals = await rowsOf<{ id: string }>(ctx, sql`SELECT user_terminal_id AS id FROM terminals ORDER BY 1`);
  const lines = await rowsOf<{ n: string }>(ctx, sql`SELECT service_line_number AS n FROM service_lines ORDER BY 1`);
  const runs = await rowsOf<{ id: string }>(ctx, sql`SELECT id::text FROM sync_runs ORDER BY queued_at`);
  const requests = await rowsOf<{ id: string }>(ctx, sql`SELECT id::text FROM customer_requests ORDER BY created_at, id`);
  const products = await rowsOf<{ id: string }>(ctx, sql`SELECT product_reference_id AS id FROM provider_products ORDER BY 1`);
  const mails = await rowsOf<{ body: string }>(ctx, sql`SELECT body_text AS body FROM email_outbox ORDER BY id`);
  const setupTokens = mails.flatMap((m) => [...m.body.matchAll(/[?&]token=([A-Za-z0-9_%-]+)/g)].map((match) => decodeURIComponent(match[1]!)));

  const userIds = [SELF, ...users.map((u) => u.id)];
  const customerIds = customers.map((c) => c.id);
  const emails = [...users, ...customers].map((a) => a.email);
  const lineNumbers = [...lines.map((l) => l.n), ...world.providerOnlyLines];
  const aboutUsers = operation.template.startsWith('/api/v1/users/');
  const code = await totpCode(world.mfa.secret, ctx.clock.now());
  const byName: Record<string, readonly unknown[]> = {
    uuid: aboutUsers ? userIds : [...customerIds, userIds[1]!],
    customerUuid: customerIds,
    customerId: customerIds,
    customerName: customers.map((c) => c.name),
    // /terminals/sync/job/{id} takes a run's uuid, the other {id}s a user terminal id.
    id: operation.template.includes('/sync/job/') ? runs.map((r) => r.id) : /\/requests\//.test(operation.template) ? requests.map((r) => r.id) : terminals.map((t) => t.id),
    sl: lineNumbers,
    // The customer area's terminal ids: any terminal, the acting customer's or not (another's is a 404).
    terminalId: terminals.map((t) => t.id),
    serviceLineNumber: lineNumbers,
    'serviceLineNumbers[]': lineNumbers,
    productReferenceId: products.map((p) => p.id),
    token: setupTokens,
    email: [...emails, ...emails.slice(0, 3).map((e) => ` ${e.toUpperCase()} `), ...FRESH_EMAILS],
    to: emails,
    password: [KNOWN_PASSWORD, 'Wrong-Passw0rd', NEW_PASSWORD],
    currentPassword: [KNOWN_PASSWORD, 'Wrong-Passw0rd'],
    newPassword: [NEW_PASSWORD],
    confirmPassword: [NEW_PASSWORD],
    role: ['admin', 'user'],
    // Plausible values, so bodies pass the services' own checks as well as the schema.
    name: ['Ada Lovelace', 'Grace Hopper'],
    company: ['Fuzz Co'],
    phone: ['+1 555 0100'],
    address: ['1 Main Street, Springfield'],
    reason: ['Fuzzing'],
    expirationDays: [30, 365],
    note: ['Dish misaligned after a storm'],
    // The document cannot say that these pair up and must be real days in order; real ones can.
    ...Object.fromEntries(['start_date', 'end_date', 'billing_cycle_start', 'billing_cycle_end'].map((name) => [name, USAGE_DAYS])),
    // A billing cycle is a real month ('2026-03'); the document only says "7 characters at most",
    // and the strings that allows are almost never one: 30 cases of /billing/reconciliation/fix
    // could all stop at validation.
    cycle: ['2026-03', '2026-02', '2026-01'],
    challenge: [world.mfa.challenge],
    code: [code, ...world.mfa.backupCodes],
  };
  Object.assign(byName, extra);
  return (path) => byName[path.slice(path.lastIndexOf('.') + 1)];
}

// ---- Acting accounts -----------------------------------------------------------------------

/**
 * A fresh account per route, signed in: what one route's fuzz does to it (a changed password
 * revoking its tokens, a lockout after wrong current passwords, demoting itself, turning on MFA)
 * cannot spoil the next route. Within a route, a refusal that could mean the account itself
 * stopped working (401, 403, 423) is followed by a read of the caller's own record; if that is
 * refused too, the route goes on with a new account.
 */
async function newActor(world: FuzzWorld, level: AccessLevel): Promise<Actor | null> {
  if (level === 'public') return null;
  const { ctx, knownHash } = world;
  const kind = level === 'customer' ? 'customer' : 'admin';
  const account = kind === 'customer' ? await ctx.createCustomer({ password: null, passwordHash: knownHash, isActive: true }) : await ctx.createAdmin({ password: null, passwordHash: knownHash });
  const login = await ctx.login(kind, account.email, KNOWN_PASSWORD);
  expect(login.token, `signing in the acting ${kind}: ${login.raw}`).toBeTruthy();
  ctx.clock.advance(1000);
  return { kind, id: account.id, token: login.token! };
}

async function actorStillWorks(world: FuzzWorld, actor: Actor, level: AccessLevel): Promise<boolean> {
  const url = actor.kind === 'customer' ? '/api/v1/customers/auth/me' : '/api/v1/auth/me';
  const res = await world.ctx.request({ method: 'GET', url, token: actor.token });
  if (res.statusCode !== 200) return false;
  // A fuzzed edit may have taken the actor's own roles: it still works only while it holds what the route needs.
  return actor.kind === 'customer' || !isPermission(level) || allows((res.json() as { data: { user: { permissions: Permission[] } } }).data.user.permissions, level);
}

// ---- The property --------------------------------------------------------------------------

export interface RouteStats {
  route: string;
  cases: number;
  /** Cases answered by more than validation: anything but a schema 400, 404 route-not-found, 413, 414, 415 or an access refusal. */
  reachedService: number;
  statuses: Record<number, number>;
  actorsUsed: number;
  /** Cases after which the horizon had moved, so every table was fingerprinted again. */
  fullChecksums: number;
  ms: { total: number; requests: number; checksums: number };
}

const VALIDATION_MESSAGES = [/^Validation failed/, /^Malformed JSON body$/, /^Route not found/, /^Unsupported content type/, /^Request body is too large/];
const ACCESS_MESSAGES = [/^Authentication required$/, /^Invalid or expired token$/];

const clip = (text: string | undefined, n = 400) => (text === undefined ? '(none)' : text.length > n ? `${text.slice(0, n)}… (${text.length} chars)` : text);

/** Runs FUZZ_RUNS cases against one route; throws (with fast-check's seed and the request) on the first broken property. */
export async function fuzzRoute(world: FuzzWorld, route: string, numRuns = FUZZ_RUNS): Promise<RouteStats> {
  const operation = world.operations.get(route);
  if (!operation) throw new Error(`${route} is in the authorization matrix but not in the OpenAPI document`);
  const level = AUTHORIZATION_MATRIX[route]!;
  const allowed = ALLOWED_ON_REFUSAL[route] ?? [];
  const { ctx, checksum } = world;
  await checksum.rebase();
  let actor = await newActor(world, level);
  const prepare = PREPARE_ACTOR[route];
  const pools = await poolsFor(world, operation, actor && prepare ? await prepare(world, actor) : {});
  const stats: RouteStats = { route, cases: 0, reachedService: 0, statuses: {}, actorsUsed: actor ? 1 : 0, fullChecksums: 0, ms: { total: 0, requests: 0, checksums: 0 } };
  const started = performance.now();
  // The snapshot after the last case: nothing else writes in between, so it is the next "before".
  let last: Snapshot | null = null;
  const timed = async (take: () => Promise<Snapshot>) => {
    const t = performance.now();
    const taken = await take();
    stats.ms.checksums += performance.now() - t;
    return taken;
  };

  const check = async (c: FuzzCase) => {
    const request = buildRequest(operation, c, actor?.id ?? '');
    const before = last ?? (await timed(() => checksum.take()));
    last = null;
    const t = performance.now();
    const res = await ctx.request({ ...request, method: request.method as 'GET', token: actor?.token ?? null });
    stats.ms.requests += performance.now() - t;
    // A read may leave marked rows to a background refresh: its writes belong to this request, not
    // to the next one, which may be refused.
    await ctx.app.services.lineRows.settled();
    const after = await timed(() => checksum.refresh(before));
    last = after;
    if (after !== before) stats.fullChecksums++;
    stats.cases++;
    stats.statuses[res.statusCode] = (stats.statuses[res.statusCode] ?? 0) + 1;
    // Session tokens are JWTs stamped to the second: under the frozen test clock a second sign-in
    // of the same account would be issued the very same token, which the context's leak check
    // (helpers.ts IssuedTokens) takes for someone else's. The next one is issued a second later.
    if (/"token"\s*:\s*"/.test(res.body)) ctx.clock.advance(1000);

    const problems: string[] = [];
    let message = '';
    if (res.statusCode >= 500) problems.push(`answered ${res.statusCode}`);
    if (res.statusCode >= 400) {
      let envelope: unknown = null;
      try {
        envelope = res.json();
      } catch {
        problems.push('the error body is not JSON');
      }
      const e = (envelope ?? {}) as { success?: unknown; message?: unknown; requestId?: unknown };
      message = typeof e.message === 'string' ? e.message : '';
      if (e.success !== false) problems.push('the error body lacks success: false');
      if (typeof e.message !== 'string' || e.message.trim() === '') problems.push('the error body has no message');
      if (typeof e.requestId !== 'string' || e.requestId === '') problems.push('the error body has no requestId');
      else if (res.headers['x-request-id'] !== undefined && res.headers['x-request-id'] !== e.requestId) problems.push('the requestId is not the x-request-id header');
    }
    if (res.statusCode >= 400 && res.statusCode < 500) {
      const changed = changedParts(before, after, allowed);
      if (changed.length > 0) problems.push(`a refused request changed ${changed.join(', ')}`);
    }
    const refusedEarly =
      (res.statusCode === 400 || res.statusCode === 404 || res.statusCode >= 413) && VALIDATION_MESSAGES.some((m) => m.test(message))
        ? true
        : (res.statusCode === 401 || res.statusCode === 403) && ACCESS_MESSAGES.some((m) => m.test(message));
    if (!refusedEarly) stats.reachedService++;
    if (process.env.FUZZ_TRACE && route.includes(process.env.FUZZ_TRACE)) {
      console.log(`${res.statusCode} ${message} | ${c.broken.join(',') || 'valid'} | ${clip(request.url, 120)} | ${clip(request.payload, 160)}`);
    }

    if (problems.length > 0) {
      throw new Error(
        [
          `${route}: ${problems.join('; ')}`,
          `  request: ${request.method} ${clip(request.url, 300)}`,
          `  content-type: ${request.headers['content-type'] ?? '(none)'}  body: ${clip(request.payload)}`,
          `  broken on purpose: ${c.broken.join(', ') || 'nothing (a valid case)'}`,
          `  answer: ${res.statusCode} ${clip(res.body)}`,
        ].join('\n'),
      );
    }

    if (actor && (res.statusCode === 401 || res.statusCode === 403 || res.statusCode === 423)) {
      // A lock refuses only password changes, and /me still answers: a lock always means a new account.
      if (res.statusCode === 423 || !(await actorStillWorks(world, actor, level))) {
        actor = await newActor(world, level);
        stats.actorsUsed++;
        last = null;
      }
    }
  };

  const replay = { ...(FUZZ_SEED !== undefined ? { seed: FUZZ_SEED } : {}), ...(FUZZ_PATH ? { path: FUZZ_PATH } : {}) };
  await fc.assert(fc.asyncProperty(caseArbitrary(operation, pools), check), { numRuns, ...replay });
  // About 40 % of the cases are meant to be valid, but on a route whose checks go past what the
  // document says, a short run's few may all stop at validation by chance. Before the caller's
  // check that some case got past validation, valid cases alone get their chance (the same checks).
  if (stats.reachedService === 0) await fc.assert(fc.asyncProperty(caseArbitrary(operation, pools, { validOnly: true }), check), { numRuns, ...replay });
  stats.ms.total = performance.now() - started;
  return stats;
}

/** One line per route for FUZZ_VERBOSE runs: cases, statuses, how many reached the service, time. */
export function describeStats(stats: RouteStats): string {
  const statuses = Object.entries(stats.statuses)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
  const { total, requests, checksums } = stats.ms;
  return `${stats.route}: ${stats.cases} cases, ${stats.reachedService} past validation, accounts ${stats.actorsUsed}, full checksums ${stats.fullChecksums}, [${statuses}], ${Math.round(total)} ms (requests ${Math.round(requests)}, checksums ${Math.round(checksums)})`;
}

/**
 * Declares one fuzz file's tests: its own world (database, accounts, data), then every route of
 * the file, each a test. The routes are spread over a few files only so Vitest runs them in parallel.
 */
export function fuzzFile(file: FuzzFile, title: string): void {
  let world: FuzzWorld;
  beforeAll(async () => {
    world = await createFuzzWorld();
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  describe(`fuzzing ${title}`, () => {
    it.each(routesOfFile(file))(
      '%s never answers 5xx, refuses in the error envelope and writes nothing when it refuses',
      async (route) => {
        const stats = await fuzzRoute(world, route);
        if (process.env.FUZZ_VERBOSE) console.log(describeStats(stats));
        expect(stats.cases).toBeGreaterThanOrEqual(FUZZ_RUNS);
        // Generated requests that all stop at validation would prove little about the services.
        if (FUZZ_RUNS >= 20) expect(stats.reachedService, describeStats(stats)).toBeGreaterThan(0);
      },
      routeTimeout,
    );
  });
}

