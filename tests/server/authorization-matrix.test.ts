// Every /api/v1 route against the authorization matrix. The server's own route table must match
// the reviewed table (tests/server/authorization-matrix.ts); then every protected route is called
// by a portal user of each built-in role, by a customer and by nobody, and must refuse (401/403)
// or admit exactly as the route's declared access and the role's grants say. The grants below
// are the reviewed statement of what each built-in role may do, independent of the code that
// defines them: a change to a built-in role fails here until this table agrees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '../../src/domain/auth';
import { AREAS, BUILT_IN_ROLE_KEYS, BUILT_IN_ROLES, type Area, type BuiltInRoleKey, type Permission } from '../../src/domain/permissions';
import { createTokenService } from '../../server/auth/tokens';
import type { AccessLevel } from '../../server/auth/principal';
import { CUSTOMERS_ONLY_MESSAGE, permissionMessage } from '../../server/plugins/auth';
import { NO_PROVIDER_MESSAGE } from '../../server/services';
import { AUTHORIZATION_MATRIX } from './authorization-matrix';
import { createTestContext, TEST_JWT_SECRET, type TestContext } from './helpers';

type Grant = 'read' | 'manage';
const OPERATIONS: Area[] = ['customers', 'terminals', 'lifecycle', 'subscriptions', 'billing', 'alerts', 'bulk', 'provider'];
const all = (level: Grant, areas: Area[]) => Object.fromEntries(areas.map((a) => [a, level])) as Partial<Record<Area, Grant>>;

/** What each built-in role may do, area by area (absent: nothing). */
const GRANTS: Record<BuiltInRoleKey, Partial<Record<Area, Grant>>> = {
  owner: { ...all('manage', AREAS.filter((a) => a !== 'audit')), audit: 'read' },
  admin: all('manage', OPERATIONS),
  admin_read_only: all('read', OPERATIONS),
  billing: { billing: 'manage', subscriptions: 'manage', customers: 'read', terminals: 'read', lifecycle: 'read' },
  billing_read_only: { billing: 'read', subscriptions: 'read', customers: 'read', terminals: 'read', lifecycle: 'read' },
  technical: { terminals: 'manage', lifecycle: 'manage', alerts: 'manage', provider: 'manage', bulk: 'manage', customers: 'read', subscriptions: 'read' },
  technical_read_only: all('read', ['terminals', 'lifecycle', 'alerts', 'provider', 'bulk', 'customers', 'subscriptions']),
  support: { terminals: 'manage', ...all('read', ['customers', 'lifecycle', 'subscriptions', 'billing', 'alerts', 'provider', 'bulk']) },
  support_read_only: all('read', ['terminals', 'customers', 'lifecycle', 'subscriptions', 'billing', 'alerts', 'provider', 'bulk']),
  user_management: { users: 'manage', audit: 'read' },
  user_management_read_only: { users: 'read', audit: 'read' },
};

const grants = (role: BuiltInRoleKey, permission: Permission) => {
  const [area, level] = permission.split(':') as [Area, Grant];
  const held = GRANTS[role][area];
  return held === 'manage' || held === level;
};

type Nobody = 'none' | 'malformed' | 'expired' | 'wrongKey' | 'suspended' | 'deleted';
type Caller = BuiltInRoleKey | 'customer' | Nobody;

/** What a caller gets from a route of this access: 401, 403, or past the access check. */
function expected(access: Exclude<AccessLevel, 'public'>, caller: Caller): 401 | 403 | 'admitted' {
  if (['none', 'malformed', 'expired', 'wrongKey', 'suspended', 'deleted'].includes(caller)) return 401;
  if (access === 'authenticated') return 'admitted';
  if (access === 'customer') return caller === 'customer' ? 'admitted' : 403;
  if (caller === 'customer') return 403;
  if (access === 'staff') return 'admitted';
  return grants(caller as BuiltInRoleKey, access) ? 'admitted' : 403;
}

/** The access check's own refusals; any other 401/403 is the handler speaking about the request. */
const isAccessRefusal = (message: string) =>
  ['Authentication required', 'Invalid or expired token', ACCOUNT_MESSAGES.adminsOnly, CUSTOMERS_ONLY_MESSAGE].includes(message) ||
  message.startsWith(permissionMessage('users:read').split('(')[0]!);

let ctx: TestContext;
const tokens = {} as Record<Caller, string | null>;

beforeAll(async () => {
  ctx = await createTestContext();
  const sign = (secret: string, now: () => Date) => createTokenService({ secret, expiresInSeconds: 3600, now });
  const owner = await ctx.createAdmin();
  const valid = sign(TEST_JWT_SECRET, ctx.clock.now);
  for (const key of BUILT_IN_ROLE_KEYS) {
    const user = key === 'owner' ? owner : await ctx.createAdmin({ roles: [key] });
    tokens[key] = (await ctx.login('admin', user.email, user.password)).token;
  }
  const customer = await ctx.createCustomer({ isActive: true });
  tokens.customer = (await ctx.login('customer', customer.email, customer.password)).token;
  const suspended = await ctx.createAdmin({ isActive: false });
  const deleted = await ctx.createAdmin({ deletedAt: ctx.clock.now() });
  tokens.none = null;
  tokens.malformed = 'not.a.jwt';
  tokens.expired = await sign(TEST_JWT_SECRET, () => new Date(ctx.clock.now().getTime() - 2 * 3600_000)).sign({ sub: owner.id, typ: 'admin', role: 'admin' });
  tokens.wrongKey = await sign('another-secret-that-is-at-least-32-characters', ctx.clock.now).sign({ sub: owner.id, typ: 'admin', role: 'admin' });
  // Neither can sign in any more; a token issued before is what they would still hold.
  tokens.suspended = await valid.sign({ sub: suspended.id, typ: 'admin', role: 'admin' });
  tokens.deleted = await valid.sign({ sub: deleted.id, typ: 'admin', role: 'admin' });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

/** A path for a route pattern: ids that parse but name nothing. */
const pathOf = (pattern: string) =>
  pattern.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    /uuid|id$/i.test(name) && !/sl|serviceLine/i.test(name) ? '00000000-0000-4000-8000-000000000000' : 'AST-000000-00000-00',
  );

async function call(route: string, caller: Caller) {
  const [method, pattern] = route.split(' ') as [string, string];
  const token = tokens[caller];
  const res = await ctx.request({
    method: method as 'GET',
    url: pathOf(pattern),
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
    ...(token ? { token } : {}),
  });
  // An admitted export answers its file (CSV), not an envelope.
  const message = String(res.headers['content-type']).startsWith('application/json') ? ((res.json() as { message?: string }).message ?? '') : '';
  return { status: res.statusCode, message };
}

const protectedRoutes = Object.entries(AUTHORIZATION_MATRIX).filter(([, level]) => level !== 'public') as [string, Exclude<AccessLevel, 'public'>][];
const ROLE_CALLERS: Caller[] = [...BUILT_IN_ROLE_KEYS, 'customer', 'none'];

describe('the authorization matrix', () => {
  it('names every /api/v1 route the server registers, with the access the route declares', () => {
    const actual = Object.fromEntries([...ctx.app.routeAccess.entries()].sort());
    expect(actual).toEqual(Object.fromEntries(Object.entries(AUTHORIZATION_MATRIX).sort()));
    expect(Object.keys(actual).length).toBeGreaterThan(150);
  });

  it('has every built-in role grant what the reviewed table says, and nothing else', () => {
    for (const role of BUILT_IN_ROLES) {
      const granted = role.permissions.filter((p) => !grants(role.key, p));
      const missing = Object.entries(GRANTS[role.key]).flatMap(([area, level]) =>
        (level === 'manage' ? [`${area}:read`, `${area}:manage`] : [`${area}:read`]).filter((p) => !role.permissions.includes(p as Permission)),
      );
      expect({ role: role.key, granted, missing }).toEqual({ role: role.key, granted: [], missing: [] });
    }
  });

  it.each(protectedRoutes)('%s (%s) answers every built-in role, a customer and nobody as the table implies', async (route, access) => {
    for (const caller of ROLE_CALLERS) {
      const { status, message } = await call(route, caller);
      const want = expected(access, caller);
      if (want === 'admitted') {
        const refused = (status === 401 || status === 403) && isAccessRefusal(message);
        expect(refused, `${caller} on ${route}: ${status} ${message}`).toBe(false);
      } else {
        expect(status, `${caller} on ${route}: ${message}`).toBe(want);
        expect(isAccessRefusal(message), `${caller} on ${route}: ${message}`).toBe(true);
      }
      // This app has no provider: the provider routes answer 503 saying so, once past the check.
      if (!(status === 503 && message === NO_PROVIDER_MESSAGE)) expect(status, `${caller} on ${route}`).toBeLessThan(500);
    }
  });

  // The token checks run before any route's own: one route of each kind shows them, the hook
  // being the same for all.
  const sample = (['customers:read', 'staff', 'customer', 'users:manage'] as const).map((access) => protectedRoutes.find(([, a]) => a === access)!);
  it.each(sample)('%s (%s) refuses a malformed, expired, foreign-key, suspended or deleted account’s token with 401', async (route) => {
    for (const caller of ['malformed', 'expired', 'wrongKey', 'suspended', 'deleted'] as const) {
      const { status, message } = await call(route, caller);
      expect(status, `${caller} on ${route}: ${message}`).toBe(401);
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

  it('takes a permission away on the very next request when a role is taken away', async () => {
    const user = await ctx.createAdmin({ roles: ['billing'] });
    const token = (await ctx.login('admin', user.email, user.password)).token;
    expect((await ctx.request({ method: 'GET', url: '/api/v1/billing/statements', token })).statusCode).toBe(200);
    const readOnly = await ctx.app.repos.roles.findByKey('support_read_only');
    await ctx.app.repos.roles.setUserRoles(user.id, [readOnly!.id]);
    const res = await ctx.request({ method: 'POST', url: '/api/v1/billing/statements/refresh', token, payload: {} });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(permissionMessage('billing:manage'));
  });
});
