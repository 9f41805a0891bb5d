// Every /api/v1 route against the authorization matrix: the server's own route list must match the
// table, and each protected route is tried with no token, a malformed one, an expired one, one
// signed with another key, a customer's, a non-admin portal user's, a suspended admin's and a
// deleted admin's token: 401 or 403 where the table says so, and the callers it admits get past
// the access check (whatever the handler then answers about the request itself).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/domain/auth';
import { createTokenService } from '../../server/auth/tokens';
import type { AccessLevel } from '../../server/auth/principal';
import { ADMIN_ROLE_MESSAGE, CUSTOMERS_ONLY_MESSAGE } from '../../server/plugins/auth';
import { NO_PROVIDER_MESSAGE } from '../../server/services';
import { AUTHORIZATION_MATRIX } from './authorization-matrix';
import { createTestContext, TEST_JWT_SECRET, type TestContext } from './helpers';

type Caller = 'none' | 'malformed' | 'expired' | 'wrongKey' | 'customer' | 'portalUser' | 'admin' | 'suspendedAdmin' | 'deletedAdmin';

/** What each caller gets from a route of each level: 401, 403, or past the access check. */
const EXPECTED: Record<Exclude<AccessLevel, 'public'>, Record<Caller, 401 | 403 | 'admitted'>> = {
  admin: { none: 401, malformed: 401, expired: 401, wrongKey: 401, customer: 403, portalUser: 'admitted', admin: 'admitted', suspendedAdmin: 401, deletedAdmin: 401 },
  administrator: { none: 401, malformed: 401, expired: 401, wrongKey: 401, customer: 403, portalUser: 403, admin: 'admitted', suspendedAdmin: 401, deletedAdmin: 401 },
  customer: { none: 401, malformed: 401, expired: 401, wrongKey: 401, customer: 'admitted', portalUser: 403, admin: 403, suspendedAdmin: 401, deletedAdmin: 401 },
  authenticated: { none: 401, malformed: 401, expired: 401, wrongKey: 401, customer: 'admitted', portalUser: 'admitted', admin: 'admitted', suspendedAdmin: 401, deletedAdmin: 401 },
};

/** The access check's own refusals; any other 401/403 is the handler speaking about the request. */
const ACCESS_MESSAGES = ['Authentication required', 'Invalid or expired token', ACCOUNT_MESSAGES.adminsOnly, CUSTOMERS_ONLY_MESSAGE, ADMIN_ROLE_MESSAGE];

let ctx: TestContext;
const tokens = {} as Record<Caller, string | null>;

beforeAll(async () => {
  ctx = await createTestContext();
  const sign = (secret: string, now: () => Date) => createTokenService({ secret, expiresInSeconds: 3600, now });
  const admin = await ctx.createAdmin();
  const portalUser = await ctx.createAdmin({ role: 'user' });
  const customer = await ctx.createCustomer({ isActive: true });
  const suspended = await ctx.createAdmin({ isActive: false });
  const deleted = await ctx.createAdmin({ deletedAt: ctx.clock.now() });
  const valid = sign(TEST_JWT_SECRET, ctx.clock.now);
  tokens.none = null;
  tokens.malformed = 'not.a.jwt';
  tokens.expired = await sign(TEST_JWT_SECRET, () => new Date(ctx.clock.now().getTime() - 2 * 3600_000)).sign({ sub: admin.id, typ: 'admin', role: 'admin' });
  tokens.wrongKey = await sign('another-secret-that-is-at-least-32-characters', ctx.clock.now).sign({ sub: admin.id, typ: 'admin', role: 'admin' });
  tokens.customer = (await ctx.login('customer', customer.email, customer.password)).token;
  tokens.portalUser = (await ctx.login('admin', portalUser.email, portalUser.password)).token;
  tokens.admin = (await ctx.login('admin', admin.email, admin.password)).token;
  // Neither can sign in any more; a token issued before is what they would still hold.
  tokens.suspendedAdmin = await valid.sign({ sub: suspended.id, typ: 'admin', role: 'admin' });
  tokens.deletedAdmin = await valid.sign({ sub: deleted.id, typ: 'admin', role: 'admin' });
  expect(Object.values(tokens).filter((t) => t === null)).toHaveLength(1);
});
afterAll(async () => {
  await ctx?.close();
});

/** A path for a route pattern: ids that parse but name nothing. */
const pathOf = (pattern: string) =>
  pattern.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    /uuid|id$/i.test(name) && !/sl|serviceLine/i.test(name) ? '00000000-0000-4000-8000-000000000000' : 'AST-000000-00000-00',
  );

describe('the authorization matrix', () => {
  it('names every /api/v1 route the server registers, with the access the route declares', () => {
    const actual = Object.fromEntries([...ctx.app.routeAccess.entries()].sort());
    expect(actual).toEqual(Object.fromEntries(Object.entries(AUTHORIZATION_MATRIX).sort()));
    expect(Object.keys(actual).length).toBeGreaterThan(60);
  });

  const protectedRoutes = Object.entries(AUTHORIZATION_MATRIX).filter(([, level]) => level !== 'public') as [string, Exclude<AccessLevel, 'public'>][];

  it.each(protectedRoutes)('%s (%s) refuses and admits the callers the table says', async (route, level) => {
    const [method, pattern] = route.split(' ') as [string, string];
    for (const caller of Object.keys(EXPECTED[level]) as Caller[]) {
      const token = tokens[caller];
      const res = await ctx.request({
        method: method as 'GET',
        url: pathOf(pattern),
        ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        ...(token ? { token } : {}),
      });
      const expected = EXPECTED[level][caller];
      // An admitted export answers its file (CSV), not an envelope.
      const message = String(res.headers['content-type']).startsWith('application/json') ? ((res.json() as { message?: string }).message ?? '') : '';
      if (expected === 'admitted') {
        const refusedByAccess = (res.statusCode === 401 || res.statusCode === 403) && ACCESS_MESSAGES.includes(message);
        expect(refusedByAccess, `${caller} on ${route}: ${res.statusCode} ${message}`).toBe(false);
      } else {
        expect(res.statusCode, `${caller} on ${route}: ${message}`).toBe(expected);
        expect(ACCESS_MESSAGES, `${caller} on ${route}`).toContain(message);
      }
      // This app has no provider: the provider routes answer 503 saying so, once past the check.
      if (!(res.statusCode === 503 && message === NO_PROVIDER_MESSAGE)) expect(res.statusCode, `${caller} on ${route}`).toBeLessThan(500);
    }
  });

  it('lets a customer read only their own records: every customer route is about the signed-in customer, the customer admin routes are closed to them', async () => {
    const customerRoutes = Object.entries(AUTHORIZATION_MATRIX).filter(([, level]) => level === 'customer').map(([route]) => route);
    // No customer route takes a customer id: what it reads or changes is the token's own account
    // (a terminal or request id it takes is looked up among that account's own, tests/server/my-*.test.ts).
    expect(customerRoutes.filter((route) => /:(uuid|customerUuid|customerId)\b/.test(route))).toEqual([]);
    const other = await ctx.createCustomer({ isActive: true });
    const res = await ctx.request({ method: 'GET', url: `/api/v1/customers/${other.id}`, token: tokens.customer });
    expect(res.statusCode).toBe(403);
    const me = await ctx.request({ method: 'GET', url: '/api/v1/customers/auth/me', token: tokens.customer });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.customer.uuid).not.toBe(other.id);
  });
});
