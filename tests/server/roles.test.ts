// Roles: the built-in ones as the code defines them, custom roles composed from permissions, and
// the rules on granting: nobody grants or takes away what they do not hold (403), built-in roles
// stay as they are, a role someone holds is not deleted (409), nobody takes from themselves the
// right to manage roles (403), and a user's permissions are the union of their roles'.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLE_KEYS, ROLE_MESSAGES, builtInRole, type BuiltInRoleKey, type RoleWire } from '../../src/domain/permissions';
import { createTestContext, type TestContext } from './helpers';

let ctx: TestContext;
let ownerToken: string;

beforeAll(async () => {
  ctx = await createTestContext();
  const owner = await ctx.createAdmin();
  ownerToken = (await ctx.login('admin', owner.email, owner.password)).token!;
}, 60_000);
afterAll(async () => {
  await ctx?.close();
});

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  ctx.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

async function staff(roles: BuiltInRoleKey[]) {
  const user = await ctx.createAdmin({ roles });
  return { id: user.id, token: (await ctx.login('admin', user.email, user.password)).token! };
}

const roleId = async (key: BuiltInRoleKey) => (await ctx.app.repos.roles.findByKey(key))!.id;
let counter = 0;
const uniqueName = (stem: string) => `${stem} ${++counter}`;

describe('the roles list', () => {
  it('lists the eleven built-in roles first, in order, with the code’s permissions and how many hold each', async () => {
    await staff(['billing']);
    const res = await call(ownerToken, 'GET', '/roles');
    expect(res.statusCode).toBe(200);
    const roles = res.json().data.roles as RoleWire[];
    expect(roles.slice(0, 11).map((r) => r.key)).toEqual([...BUILT_IN_ROLE_KEYS]);
    const billing = roles.find((r) => r.key === 'billing')!;
    expect(billing).toMatchObject({ builtIn: true, name: 'Billing', permissions: builtInRole('billing').permissions });
    expect(billing.userCount).toBeGreaterThanOrEqual(1);
  });
});

describe('custom roles', () => {
  it('composes a role from permissions, adds what they imply, and gives its holder exactly that', async () => {
    const res = await call(ownerToken, 'POST', '/roles', { name: uniqueName('Sales'), description: 'Onboards customers', permissions: ['customers:manage', 'terminals:read'] });
    expect(res.statusCode).toBe(201);
    const role = res.json().data.role as RoleWire;
    expect(role).toMatchObject({ builtIn: false, key: null, permissions: ['customers:read', 'customers:manage', 'terminals:read'], userCount: 0 });

    const user = await ctx.createAdmin({ roles: [] as BuiltInRoleKey[] });
    await ctx.app.repos.roles.setUserRoles(user.id, [role.id]);
    const token = (await ctx.login('admin', user.email, user.password)).token!;
    expect((await call(token, 'POST', '/customers', {})).statusCode).toBe(400); // admitted: the form speaks
    expect((await call(token, 'GET', '/billing/statements')).statusCode).toBe(403);
    const audit = await ctx.app.repos.audit.listByAction('role.created');
    expect(audit.find((a) => a.targetId === role.id)?.after).toMatchObject({ permissions: role.permissions });
  });

  it('answers 400 naming each problem: no name, no permission, an unknown permission', async () => {
    const res = await call(ownerToken, 'POST', '/roles', { name: ' ', permissions: ['customers:fly'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'name', message: ROLE_MESSAGES.nameRequired },
      { path: 'permissions', message: `${ROLE_MESSAGES.unknownPermission}: customers:fly` },
    ]);
    expect((await call(ownerToken, 'POST', '/roles', { name: 'Empty', permissions: [] })).json().errors).toEqual([{ path: 'permissions', message: ROLE_MESSAGES.permissionsRequired }]);
  });

  it('refuses a second role of the same name, whatever its case, and any change to a built-in role', async () => {
    const name = uniqueName('Night shift');
    expect((await call(ownerToken, 'POST', '/roles', { name, permissions: ['alerts:read'] })).statusCode).toBe(201);
    const twin = await call(ownerToken, 'POST', '/roles', { name: name.toUpperCase(), permissions: ['alerts:read'] });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().message).toBe(ROLE_MESSAGES.nameTaken);
    const builtIn = await call(ownerToken, 'PUT', `/roles/${await roleId('billing')}`, { name: 'Billing', permissions: ['billing:read'] });
    expect(builtIn.statusCode).toBe(403);
    expect(builtIn.json().message).toBe(ROLE_MESSAGES.builtInReadOnly);
    expect((await call(ownerToken, 'DELETE', `/roles/${await roleId('support')}`)).statusCode).toBe(403);
  });

  it('deletes a role nobody holds, and refuses one that someone holds', async () => {
    const role = (await call(ownerToken, 'POST', '/roles', { name: uniqueName('Temp'), permissions: ['bulk:read'] })).json().data.role as RoleWire;
    const holder = await ctx.createAdmin({ roles: ['support_read_only'] });
    await ctx.app.repos.roles.setUserRoles(holder.id, [role.id]);
    const refused = await call(ownerToken, 'DELETE', `/roles/${role.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(ROLE_MESSAGES.inUse(1));
    await ctx.app.repos.roles.setUserRoles(holder.id, [await roleId('support_read_only')]);
    expect((await call(ownerToken, 'DELETE', `/roles/${role.id}`)).statusCode).toBe(200);
    expect((await call(ownerToken, 'DELETE', `/roles/${role.id}`)).statusCode).toBe(404);
  });
});

describe('privilege escalation', () => {
  it('refuses a user manager a role wider than themselves, and giving anyone a role they do not hold', async () => {
    const manager = await staff(['user_management']);
    const wide = await call(manager.token, 'POST', '/roles', { name: uniqueName('Wide'), permissions: ['billing:manage'] });
    expect(wide.statusCode).toBe(403);
    expect(wide.json().message).toBe(ROLE_MESSAGES.escalation);
    expect((await call(manager.token, 'POST', '/roles', { name: uniqueName('Auditors'), permissions: ['audit:read', 'users:read'] })).statusCode).toBe(201);

    const target = await staff(['support_read_only']);
    const give = await call(manager.token, 'PUT', `/users/${target.id}`, { role_ids: [await roleId('billing')] });
    expect(give.statusCode).toBe(403);
    expect(give.json().message).toBe(ROLE_MESSAGES.escalation);
    const create = await call(manager.token, 'POST', '/users', { name: 'New Owner', email: `owner${counter}@roles.test`, role_ids: [await roleId('owner')], password: 'long-enough-1' });
    expect(create.statusCode).toBe(403);
    // Within their own permissions: allowed.
    const ok = await call(manager.token, 'POST', '/users', { name: 'Reader', email: `reader${counter}@roles.test`, role_ids: [await roleId('user_management_read_only')], password: 'long-enough-1' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.user.roles.map((r: { key: string }) => r.key)).toEqual(['user_management_read_only']);
  });

  it('refuses taking away a role the taker does not hold: a user manager cannot demote an Owner', async () => {
    const manager = await staff(['user_management']);
    const owner = await staff(['owner']);
    const res = await call(manager.token, 'PUT', `/users/${owner.id}`, { role_ids: [await roleId('user_management')] });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(ROLE_MESSAGES.escalation);
  });

  it('refuses taking from oneself the right to manage roles, by one’s roles or by one’s custom role', async () => {
    const self = await staff(['user_management']);
    const drop = await call(self.token, 'PUT', `/users/${self.id}`, { role_ids: [await roleId('user_management_read_only')] });
    expect(drop.statusCode).toBe(403);
    expect(drop.json().message).toBe(ROLE_MESSAGES.selfLockout);

    const custom = (await call(ownerToken, 'POST', '/roles', { name: uniqueName('Keepers'), permissions: ['users:manage'] })).json().data.role as RoleWire;
    const keeper = await ctx.createAdmin({ roles: [] as BuiltInRoleKey[] });
    await ctx.app.repos.roles.setUserRoles(keeper.id, [custom.id]);
    const token = (await ctx.login('admin', keeper.email, keeper.password)).token!;
    const narrowed = await call(token, 'PUT', `/roles/${custom.id}`, { name: custom.name, permissions: ['users:read'] });
    expect(narrowed.statusCode).toBe(403);
    expect(narrowed.json().message).toBe(ROLE_MESSAGES.selfLockout);
  });
});

describe('several roles', () => {
  it('gives the union of the roles held, and the session says so', async () => {
    const user = await staff(['billing_read_only', 'technical']);
    const me = (await call(user.token, 'GET', '/auth/me')).json().data.user as { roles: { key: string }[]; permissions: string[] };
    expect(me.roles.map((r) => r.key)).toEqual(['billing_read_only', 'technical']);
    expect(me.permissions).toEqual(expect.arrayContaining(['billing:read', 'terminals:manage', 'lifecycle:manage']));
    expect(me.permissions).not.toContain('billing:manage');
    expect((await call(user.token, 'GET', '/billing/statements')).statusCode).toBe(200);
    expect((await call(user.token, 'POST', '/billing/statements/refresh', {})).statusCode).toBe(403);
  });
});
