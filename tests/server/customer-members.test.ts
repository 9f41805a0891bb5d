// A customer organisation's team: the owner invites people by email as owner, manager or viewer,
// on every line or some; the invitee accepts once with their own password; the member signs in
// through the customer sign-in and acts under their own name, on their lines only, as their role
// allows. The admin side sees and manages the same team.
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMBER_MESSAGES } from '../../src/domain/members';
import type { MfaSetupWire } from '../../src/domain/mfa';
import { totpCode } from '../../server/auth/totp';
import { auditLog, customerMembers, customers, emailOutbox } from '../../server/db/schema';
import { insertServiceLines, insertTelemetry, insertTerminals, insertUsageCycles, terminalRow } from '../fixtures/terminals';
import { createTestContext, until, type TestContext } from './helpers';

const NOW = '2026-03-18T10:30:00.000Z';
const PASSWORD = 'Member-Passw0rd!';

let ctx: TestContext;
let owner: { id: string; email: string; password: string; token: string };
let adminToken = '';
const LINES = ['AST-TEAM-01', 'AST-TEAM-02', 'AST-TEAM-03'] as [string, string, string];
const TERMINALS = ['UT-TEAM-0001', 'UT-TEAM-0002', 'UT-TEAM-0003'];
const OTHER = { line: 'AST-TEAM-OTHER', terminal: 'UT-TEAM-OTHER' };

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, token: string | null, payload?: object) =>
  ctx.request({ method, url: `/api/v1${url}`, token, ...(payload ? { payload } : {}) });

let counter = 0;
const newEmail = (who: string) => `${who}.${++counter}@team.test`;

/** The token of the last invitation mailed to `email`, read from the outbox as the invitee reads their email. */
async function invitationTokenFor(email: string): Promise<string> {
  const [mail] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.recipient, email)).orderBy(desc(emailOutbox.id)).limit(1);
  const token = /\/invitation\/([A-Za-z0-9_-]{43})/.exec(mail?.bodyText ?? '')?.[1];
  if (!token) throw new Error(`no invitation mailed to ${email}`);
  return token;
}

/** Invites, accepts and signs in: the new member's id, email and session token. */
async function join(payload: { role: 'owner' | 'manager' | 'viewer'; serviceLines: string[] | null; name?: string }, by = owner.token) {
  const email = newEmail(payload.role);
  const invited = await api('POST', '/my/team/invitations', by, { email, name: payload.name ?? `Member ${counter}`, role: payload.role, serviceLines: payload.serviceLines });
  expect(invited.statusCode, invited.body).toBe(201);
  const token = await invitationTokenFor(email);
  const accepted = await api('POST', `/invitations/${token}/accept`, null, { password: PASSWORD });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const login = await ctx.login('customer', email, PASSWORD);
  expect(login.statusCode, login.raw).toBe(200);
  const [row] = await ctx.database.db.select().from(customerMembers).where(eq(customerMembers.email, email));
  return { id: row!.id, email, token: login.token! };
}

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW });
  const db = ctx.database.db;
  const olive = await ctx.createCustomer({ name: 'Olive Owner', company: 'Olive Farms', isActive: true });
  owner = { ...olive, token: (await ctx.login('customer', olive.email, olive.password)).token! };
  const other = await ctx.createCustomer({ name: 'Other Org', isActive: true });
  const admin = await ctx.createAdmin();
  adminToken = (await ctx.login('admin', admin.email, admin.password)).token!;
  await insertServiceLines(db, [...LINES.map((serviceLineNumber, i) => ({ serviceLineNumber, nickname: `Site ${i + 1}` })), { serviceLineNumber: OTHER.line, nickname: 'Elsewhere' }]);
  await insertTerminals(db, [
    ...TERMINALS.map((userTerminalId, i) => terminalRow({ userTerminalId, kitSerialNumber: `KIT-TEAM-${i}`, serviceLineNumber: LINES[i]!, assignedCustomerId: olive.id })),
    terminalRow({ userTerminalId: OTHER.terminal, kitSerialNumber: 'KIT-TEAM-OTHER', serviceLineNumber: OTHER.line, assignedCustomerId: other.id }),
  ]);
  await insertTelemetry(db, TERMINALS.map((userTerminalId) => ({ userTerminalId, reportedAt: new Date(Date.parse(NOW) - 10_000), signalQuality: 0.9, uptimeSeconds: 100 })));
  await insertUsageCycles(db, LINES.map((serviceLineNumber) => ({ serviceLineNumber, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 10, standardGb: 0, usageLimitGb: 100 })));
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

describe('an owner invites a site manager', () => {
  let sam: { id: string; email: string; token: string };
  let invitationToken = '';

  it('who reads the invitation, accepts it with their own password and signs in as a manager of two lines', async () => {
    const email = newEmail('sam');
    const invited = await api('POST', '/my/team/invitations', owner.token, { email, name: 'Sam Site', role: 'manager', serviceLines: [LINES[1], LINES[0]] });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json().data).toMatchObject({ email, role: 'manager', serviceLines: [LINES[0], LINES[1]], status: 'pending' });
    expect(invited.json().message).toBe(MEMBER_MESSAGES.invited(email));
    invitationToken = await invitationTokenFor(email);

    const info = await api('GET', `/invitations/${invitationToken}`, null);
    expect(info.statusCode, info.body).toBe(200);
    expect(info.json().data).toMatchObject({ email, name: 'Sam Site', company: 'Olive Farms', role: 'manager' });

    const accepted = await api('POST', `/invitations/${invitationToken}/accept`, null, { name: 'Samantha Site', password: PASSWORD, confirmPassword: PASSWORD });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const login = await ctx.login('customer', email, PASSWORD);
    expect(login.statusCode, login.raw).toBe(200);
    const [row] = await ctx.database.db.select().from(customerMembers).where(eq(customerMembers.email, email));
    sam = { id: row!.id, email, token: login.token! };

    const me = await api('GET', '/customers/auth/me', sam.token);
    expect(me.json().data.customer).toMatchObject({ uuid: sam.id, name: 'Samantha Site', email, company: 'Olive Farms', organisationRole: 'manager', serviceLines: [LINES[0], LINES[1]] });
  });

  it('sees only their two lines everywhere in the customer area', async () => {
    const list = await api('GET', '/my/terminals', sam.token);
    expect(list.json().data.map((t: { terminalId: string }) => t.terminalId)).toEqual([TERMINALS[0], TERMINALS[1]]);
    expect((await api('GET', '/my/overview', sam.token)).json().data.terminals).toBe(2);
    expect((await api('GET', `/my/terminals/${TERMINALS[2]}`, sam.token)).statusCode).toBe(404);
    expect((await api('PUT', `/my/terminals/${TERMINALS[2]}/name`, sam.token, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await api('GET', `/my/requests/options?serviceLineNumber=${LINES[2]}`, sam.token)).statusCode).toBe(404);
    expect((await api('GET', '/my/requests', sam.token)).json().data.lines.map((l: { serviceLineNumber: string }) => l.serviceLineNumber)).not.toContain(LINES[2]);
    // The owner still sees all three.
    expect((await api('GET', '/my/terminals', owner.token)).json().data).toHaveLength(3);
  });

  it("is refused the organisation's statements and its team, with the rule's words", async () => {
    const statements = await api('GET', '/my/statements', sam.token);
    expect(statements.statusCode).toBe(403);
    expect(statements.json().message).toBe(MEMBER_MESSAGES.statementsWholeOrganisation);
    const team = await api('GET', '/my/team', sam.token);
    expect(team.statusCode).toBe(403);
    expect(team.json().message).toBe(MEMBER_MESSAGES.ownersOnly);
    expect((await api('POST', '/my/team/invitations', sam.token, { email: newEmail('x'), name: 'X', role: 'viewer', serviceLines: null })).statusCode).toBe(403);
  });

  it('cannot use the invitation again: accepted, it answers 410 and says so', async () => {
    const again = await api('POST', `/invitations/${invitationToken}/accept`, null, { password: PASSWORD });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(MEMBER_MESSAGES.invitationUsed);
    expect((await api('GET', `/invitations/${invitationToken}`, null)).statusCode).toBe(410);
  });

  it("joins under their own name in the audit log, and the owner's team lists them after the organisation's own login", async () => {
    const [joined] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'member.joined')).orderBy(auditLog.id).limit(1);
    expect(joined).toMatchObject({ actorType: 'member', actorId: sam.id, targetType: 'customer', targetId: owner.id });
    const log = await api('GET', `/audit?actor=${encodeURIComponent(sam.email)}`, adminToken);
    expect(log.statusCode, log.body).toBe(200);
    const entries = log.json().data.entries as { action: string; actor: { kind: string; name: string | null; email: string | null } }[];
    expect(entries.find((e) => e.action === 'member.joined')?.actor).toMatchObject({ kind: 'member', name: 'Samantha Site', email: sam.email });

    const team = (await api('GET', '/my/team', owner.token)).json().data;
    expect(team.members[0]).toMatchObject({ id: owner.id, original: true, role: 'owner', serviceLines: null });
    expect(team.members.map((m: { id: string }) => m.id)).toContain(sam.id);
    expect(team.lines.map((l: { serviceLineNumber: string }) => l.serviceLineNumber)).toEqual(LINES);
    const admins = await api('GET', `/customers/${owner.id}/members`, adminToken);
    expect(admins.json().data.members).toEqual(team.members);
  });

  it('the owner widens them to every line, then removes them: their session stops at once', async () => {
    const widened = await api('PATCH', `/my/team/members/${sam.id}`, owner.token, { serviceLines: null });
    expect(widened.statusCode, widened.body).toBe(200);
    expect((await api('GET', '/my/terminals', sam.token)).json().data).toHaveLength(3);
    const removed = await api('DELETE', `/my/team/members/${sam.id}`, owner.token);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await api('GET', '/my/terminals', sam.token)).statusCode).toBe(401);
    expect((await ctx.login('customer', sam.email, PASSWORD)).statusCode).toBe(401);
    const actions = (await ctx.database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetId, owner.id))).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['member.invited', 'member.joined', 'member.updated', 'member.removed']));
  });
});

describe('invitations', () => {
  it('an expired and a revoked invitation answer 410 with their own message; an unknown one 404', async () => {
    const late = newEmail('late');
    expect((await api('POST', '/my/team/invitations', owner.token, { email: late, name: 'Late', role: 'viewer', serviceLines: null })).statusCode).toBe(201);
    const lateToken = await invitationTokenFor(late);
    const revokedEmail = newEmail('revoked');
    const invited = await api('POST', '/my/team/invitations', owner.token, { email: revokedEmail, name: 'Revoked', role: 'viewer', serviceLines: null });
    const revokedToken = await invitationTokenFor(revokedEmail);
    const revoke = await api('DELETE', `/my/team/invitations/${invited.json().data.id}`, owner.token);
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json().data.status).toBe('revoked');
    expect((await api('DELETE', `/my/team/invitations/${invited.json().data.id}`, owner.token)).statusCode).toBe(409);

    const revoked = await api('POST', `/invitations/${revokedToken}/accept`, null, { password: PASSWORD });
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json().message).toBe(MEMBER_MESSAGES.invitationRevoked);

    ctx.clock.advance(8 * 86_400_000);
    try {
      const expired = await api('GET', `/invitations/${lateToken}`, null);
      expect(expired.statusCode).toBe(410);
      expect(expired.json().message).toBe(MEMBER_MESSAGES.invitationExpired);
      expect((await api('POST', `/invitations/${lateToken}/accept`, null, { password: PASSWORD })).statusCode).toBe(410);
    } finally {
      ctx.clock.set(NOW);
    }
    const unknown = await api('GET', `/invitations/${'A'.repeat(43)}`, null);
    expect(unknown.statusCode).toBe(404);
    expect((await api('GET', '/invitations/short', null)).statusCode).toBe(404);
  });

  it('two acceptances at once make one member: the other gets 410', async () => {
    const email = newEmail('twice');
    await api('POST', '/my/team/invitations', owner.token, { email, name: 'Twice', role: 'viewer', serviceLines: null });
    const token = await invitationTokenFor(email);
    const answers = await Promise.all([1, 2].map(() => api('POST', `/invitations/${token}/accept`, null, { password: PASSWORD })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 410]);
    expect(await ctx.database.db.$count(customerMembers, eq(customerMembers.email, email))).toBe(1);
  });

  it("refuses an email that already signs in, a line of another organisation, an empty line list and a weak password, with 4xx and the rule's words", async () => {
    const taken = await api('POST', '/my/team/invitations', owner.token, { email: owner.email.toUpperCase(), name: 'Dup', role: 'viewer', serviceLines: null });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(MEMBER_MESSAGES.emailTaken);
    const foreign = await api('POST', '/my/team/invitations', owner.token, { email: newEmail('f'), name: 'F', role: 'viewer', serviceLines: [OTHER.line] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toBe(MEMBER_MESSAGES.lineNotOurs(OTHER.line));
    const empty = await api('POST', '/my/team/invitations', owner.token, { email: newEmail('e'), name: 'E', role: 'viewer', serviceLines: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(MEMBER_MESSAGES.linesEmpty);
    expect((await api('POST', '/my/team/invitations', owner.token, { email: 'not-an-email', name: 'E', role: 'boss', serviceLines: null })).statusCode).toBe(400);

    const email = newEmail('weak');
    await api('POST', '/my/team/invitations', owner.token, { email, name: 'Weak', role: 'viewer', serviceLines: null });
    const weak = await api('POST', `/invitations/${await invitationTokenFor(email)}/accept`, null, { password: 'short' });
    expect(weak.statusCode).toBe(400);
    // Someone else took the email meanwhile: the acceptance is refused and the invitation stays usable.
    await ctx.createCustomer({ email });
    const clash = await api('POST', `/invitations/${await invitationTokenFor(email)}/accept`, null, { password: PASSWORD });
    expect(clash.statusCode).toBe(409);
  });

  it("an administrator invites into a customer's team and manages it from the customer's page", async () => {
    const email = newEmail('admin-invited');
    const invited = await api('POST', `/customers/${owner.id}/members/invitations`, adminToken, { email, name: 'Ada Admin-Invited', role: 'viewer', serviceLines: [LINES[2]] });
    expect(invited.statusCode, invited.body).toBe(201);
    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'member.invited')).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ actorType: 'user', targetId: owner.id });
    const revoked = await api('DELETE', `/customers/${owner.id}/members/invitations/${invited.json().data.id}`, adminToken);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await api('PATCH', `/customers/${owner.id}/members/${owner.id}`, adminToken, { role: 'viewer' })).statusCode).toBe(409);
    expect((await api('DELETE', `/my/team/members/${owner.id}`, owner.token)).statusCode).toBe(409);
    expect((await api('GET', `/customers/${'5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11'}/members`, adminToken)).statusCode).toBe(404);
  });
});

describe('roles in the customer area', () => {
  it("a viewer reads everything but every write is refused with 403 in the rule's words", async () => {
    const viewer = await join({ role: 'viewer', serviceLines: null });
    expect((await api('GET', '/my/terminals', viewer.token)).json().data).toHaveLength(3);
    expect((await api('GET', '/my/statements', viewer.token)).statusCode).toBe(200);
    const rename = await api('PUT', `/my/terminals/${TERMINALS[0]}/name`, viewer.token, { name: 'Nope' });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().message).toBe(MEMBER_MESSAGES.viewerReadOnly);
    expect((await api('POST', `/my/terminals/${TERMINALS[0]}/reboot`, viewer.token)).statusCode).toBe(403);
    expect((await api('POST', '/my/requests', viewer.token, { serviceLineNumber: LINES[0], kind: 'top_up', productId: 'TOPUP', count: 1 })).statusCode).toBe(403);
    // The customer sign-in finds one account per email: a new customer login may not take a member's.
    const clash = await api('POST', '/customers', adminToken, { email: viewer.email.toUpperCase(), name: 'Clash', company: 'Clash Co', expirationDays: 365 });
    expect(clash.statusCode, clash.body).toBe(409);
  });

  it('an invited owner manages the team; a manager does not', async () => {
    const second = await join({ role: 'owner', serviceLines: null });
    expect((await api('GET', '/my/team', second.token)).statusCode).toBe(200);
    const manager = await join({ role: 'manager', serviceLines: null }, second.token);
    expect((await api('GET', '/my/team', manager.token)).statusCode).toBe(403);
    const promoted = await api('PATCH', `/my/team/members/${manager.id}`, second.token, { role: 'owner' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    // The role is read from the member's row on each request: the promotion holds at once.
    expect((await api('GET', '/my/team', manager.token)).statusCode).toBe(200);
  });

  it("a member of an organisation that expires later signs in; once it has expired, the member's session stops", async () => {
    const org = await ctx.createCustomer({ name: 'Expires Later', isActive: true, accountExpiresAt: new Date('2026-04-01T00:00:00.000Z') });
    const orgToken = (await ctx.login('customer', org.email, org.password)).token!;
    const member = await join({ role: 'viewer', serviceLines: null }, orgToken);
    expect((await api('GET', '/customers/auth/me', member.token)).statusCode).toBe(200);
    await ctx.database.db.update(customers).set({ accountExpiresAt: new Date('2026-03-18T00:00:00.000Z') }).where(eq(customers.id, org.id));
    expect((await api('GET', '/customers/auth/me', member.token)).statusCode).toBe(401);
    expect((await ctx.login('customer', member.email, PASSWORD)).statusCode).toBe(403);
  });

  it("a member of a blocked organisation is refused at once, and cannot sign in", async () => {
    const org = await ctx.createCustomer({ name: 'Blocked Later', isActive: true });
    const orgToken = (await ctx.login('customer', org.email, org.password)).token!;
    const member = await join({ role: 'manager', serviceLines: null }, orgToken);
    expect((await api('GET', '/my/overview', member.token)).statusCode).toBe(200);
    await ctx.database.db.update(customers).set({ blockedEnabled: true, blockedReason: 'Unpaid' }).where(eq(customers.id, org.id));
    expect((await api('GET', '/my/overview', member.token)).statusCode).toBe(401);
    expect((await ctx.login('customer', member.email, PASSWORD)).statusCode).toBe(403);
  });
});

describe("a member's own password and MFA", () => {
  it('change their own row, never the organisation login; an older token stops holding', async () => {
    const member = await join({ role: 'manager', serviceLines: null });
    const ownerHashBefore = (await ctx.database.db.select({ h: customers.passwordHash }).from(customers).where(eq(customers.id, owner.id)))[0]!.h;
    ctx.clock.advance(2_000);
    const changed = await api('PUT', '/customers/change-password', member.token, { currentPassword: PASSWORD, newPassword: 'Another-Passw0rd!', confirmPassword: 'Another-Passw0rd!' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data.customer).toMatchObject({ uuid: member.id, organisationRole: 'manager' });
    expect((await api('GET', '/my/terminals', member.token)).statusCode).toBe(401);
    expect((await api('GET', '/my/terminals', changed.json().data.token)).statusCode).toBe(200);
    const ownerHashAfter = (await ctx.database.db.select({ h: customers.passwordHash }).from(customers).where(eq(customers.id, owner.id)))[0]!.h;
    expect(ownerHashAfter).toBe(ownerHashBefore);
    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'customer.password_changed')).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ actorType: 'member', actorId: member.id, targetType: 'member', targetId: member.id });

    const profile = await api('PUT', '/customers/profile', changed.json().data.token, { name: 'Renamed Member', company: 'Hijacked Co' });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().data.customer).toMatchObject({ name: 'Renamed Member', company: 'Olive Farms' });
  });

  it('a forgotten password is reset through the emailed link, on the member\'s own row', async () => {
    const member = await join({ role: 'viewer', serviceLines: null });
    expect((await api('POST', '/auth/forgot-password', null, { email: member.email.toUpperCase() })).statusCode).toBe(202);
    await until('the reset email is recorded', async () => (await ctx.database.db.$count(emailOutbox, eq(emailOutbox.recipient, member.email))) === 2);
    const [mail] = await ctx.database.db.select().from(emailOutbox).where(eq(emailOutbox.recipient, member.email)).orderBy(desc(emailOutbox.id)).limit(1);
    const token = decodeURIComponent(/set-password\?token=([^\s]+)/.exec(mail!.bodyText)![1]!);
    const info = await api('GET', `/password-setup/${token}`, null);
    expect(info.json().data).toMatchObject({ email: member.email, company: 'Olive Farms', purpose: 'reset' });
    ctx.clock.advance(2_000);
    const reset = await api('POST', '/password-setup', null, { token, password: 'Reset-Passw0rd!', confirmPassword: 'Reset-Passw0rd!' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await ctx.login('customer', member.email, 'Reset-Passw0rd!')).statusCode).toBe(200);
    expect((await api('GET', '/my/terminals', member.token)).statusCode).toBe(401);
    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'customer.password_reset')).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ actorType: 'member', actorId: member.id, targetType: 'member', targetId: member.id });
  });

  it('turns on for the member alone and asks the member for a code at sign-in', async () => {
    const member = await join({ role: 'viewer', serviceLines: [LINES[0]] });
    const setup = await api('POST', '/customers/mfa/setup', member.token);
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json().data as MfaSetupWire;
    const verify = await api('POST', '/customers/mfa/verify', member.token, { code: await totpCode(secret, ctx.clock.now()) });
    expect(verify.statusCode, verify.body).toBe(200);
    const flags = await ctx.database.db.execute(
      sql`SELECT (SELECT mfa_enabled FROM customers WHERE id = ${owner.id}) AS owner_on, (SELECT mfa_enabled FROM customer_members WHERE id = ${member.id}) AS member_on,
                 (SELECT count(*)::int FROM mfa_backup_codes WHERE member_id = ${member.id}) AS codes`,
    );
    expect((flags as unknown as { rows: unknown[] }).rows[0]).toEqual({ owner_on: false, member_on: true, codes: 8 });

    const login = await ctx.login('customer', member.email, PASSWORD);
    expect(login.token).toBeNull();
    const challenge = (login.body.data as { challenge: string }).challenge;
    ctx.clock.advance(30_000);
    const code = await api('POST', '/customers/auth/login/mfa', null, { challenge, code: await totpCode(secret, ctx.clock.now()) });
    expect(code.statusCode, code.body).toBe(200);
    expect(code.json().data.customer).toMatchObject({ uuid: member.id, serviceLines: [LINES[0]] });
  });
});
