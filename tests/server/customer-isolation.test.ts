// Isolation of the customer area ("the first thing to get right"), over every route a
// customer token opens — read from the server's own route table, so a new customer route without
// a case here fails this file:
//   - a route that names a terminal, a service line or a request answers 404 for another
//     customer's (Ana's) ids, with nothing of hers in the answer and nothing written;
//   - a route that names nothing acts on the token's own account: Ana's ids smuggled into the
//     query or the body change nothing of hers and bring nothing of hers back;
//   - a blocked or expired customer's still-valid token is refused at once on every one of them;
// and the admin "View as customer" preview: it answers exactly what the customer's own routes
// answer, opening it is audited, and it is closed to customers and to unknown customers.
// Within one organisation, a member limited to some of its lines gets the same treatment for the
// organisation's other lines: 404 (or 403 where their role reaches no further), nothing of them
// in any answer, nothing written.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, customerInvitations, customerMembers, customerRequests, customers } from '../../server/db/schema';
import { insertServiceLines, insertTelemetry, insertTerminals, insertUsageCycles, terminalRow } from '../fixtures/terminals';
import { createChecksum, type Checksum } from './fuzz/checksum';
import { hashPassword } from '../../server/auth/passwords';
import { createTestContext, type TestContext } from './helpers';

const NOW = '2026-03-18T10:30:00.000Z';

let ctx: TestContext;
let checksum: Checksum;
const tokens: Record<'ana' | 'bea' | 'admin', string> = { ana: '', bea: '', admin: '' };
const ids: Record<'ana' | 'bea', string> = { ana: '', bea: '' };
let anaEmail = '';
let anaRequest = '';

const ANA = { terminal: 'UT-ISO-ANA-0001', line: 'AST-ISO-ANA-01', kit: 'KIT-ISO-ANA-0001' };
/** Ana's second line, the only one her site manager Max may see. */
const ANA_SITE = { terminal: 'UT-ISO-ANA-0002', line: 'AST-ISO-ANA-02', kit: 'KIT-ISO-ANA-0002' };
const MEMBER_PASSWORD = 'Max-Site-Passw0rd!';
let anaMember = '';
let anaInvitation = '';
let maxToken = '';
const BEA = { terminal: 'UT-ISO-BEA-0001', line: 'AST-ISO-BEA-01', kit: 'KIT-ISO-BEA-0001' };
/** What must never appear in an answer to Bea. */
const anaMarks = () => [ANA.terminal, ANA.line, ANA.kit, ids.ana, anaEmail, anaRequest, 'Ana Cabin', anaMember, anaInvitation, 'max.site@iso.test'];
/** What Max, limited to Ana's second line, must never see of her first. */
const firstLineMarks = () => [ANA.terminal, ANA.line, ANA.kit, anaRequest, 'Ana Cabin'];

beforeAll(async () => {
  ctx = await createTestContext({ now: NOW });
  const db = ctx.database.db;
  const ana = await ctx.createCustomer({ name: 'Ana Isolated', company: 'Ana Co', isActive: true });
  const bea = await ctx.createCustomer({ name: 'Bea Isolated', company: 'Bea Co', isActive: true });
  ids.ana = ana.id;
  ids.bea = bea.id;
  anaEmail = ana.email;
  tokens.ana = (await ctx.login('customer', ana.email, ana.password)).token!;
  tokens.bea = (await ctx.login('customer', bea.email, bea.password)).token!;
  const admin = await ctx.createAdmin();
  tokens.admin = (await ctx.login('admin', admin.email, admin.password)).token!;

  await insertServiceLines(db, [
    { serviceLineNumber: ANA.line, nickname: 'Ana Cabin' },
    { serviceLineNumber: ANA_SITE.line, nickname: 'Ana Site' },
    { serviceLineNumber: BEA.line, nickname: 'Bea Barn' },
  ]);
  await insertTerminals(db, [
    terminalRow({ userTerminalId: ANA.terminal, kitSerialNumber: ANA.kit, serviceLineNumber: ANA.line, assignedCustomerId: ids.ana }),
    terminalRow({ userTerminalId: ANA_SITE.terminal, kitSerialNumber: ANA_SITE.kit, serviceLineNumber: ANA_SITE.line, assignedCustomerId: ids.ana }),
    terminalRow({ userTerminalId: BEA.terminal, kitSerialNumber: BEA.kit, serviceLineNumber: BEA.line, assignedCustomerId: ids.bea }),
  ]);
  await insertTelemetry(db, [
    { userTerminalId: ANA.terminal, reportedAt: new Date(Date.parse(NOW) - 10_000), signalQuality: 0.8, uptimeSeconds: 1000 },
    { userTerminalId: BEA.terminal, reportedAt: new Date(Date.parse(NOW) - 10_000), signalQuality: 0.7, uptimeSeconds: 2000 },
  ]);
  await insertUsageCycles(db, [
    { serviceLineNumber: ANA.line, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 41, standardGb: 2, usageLimitGb: 50 },
    { serviceLineNumber: BEA.line, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 5, standardGb: 0, usageLimitGb: 1000 },
  ]);
  const [request] = await db
    .insert(customerRequests)
    .values({ customerId: ids.ana, serviceLineNumber: ANA.line, kind: 'top_up', productId: 'TOPUP-ANA', blockCount: 1 })
    .returning({ id: customerRequests.id });
  anaRequest = request!.id;
  // Ana's team: Max, a site manager on her second line, and an invitation still waiting.
  const [member] = await db
    .insert(customerMembers)
    .values({ customerId: ids.ana, role: 'manager', serviceLines: [ANA_SITE.line], email: 'max.site@iso.test', name: 'Max Site', passwordHash: await hashPassword(MEMBER_PASSWORD) })
    .returning({ id: customerMembers.id });
  anaMember = member!.id;
  const [invitation] = await db
    .insert(customerInvitations)
    .values({ customerId: ids.ana, email: 'ivy.invited@iso.test', name: 'Ivy Invited', role: 'viewer', tokenHash: 'a'.repeat(64), createdAt: new Date(NOW), expiresAt: new Date('2026-03-25T00:00:00.000Z'), invitedByType: 'customer', invitedById: ids.ana })
    .returning({ id: customerInvitations.id });
  anaInvitation = invitation!.id;
  maxToken = (await ctx.login('customer', 'max.site@iso.test', MEMBER_PASSWORD)).token!;
  checksum = await createChecksum(db);
}, 60_000);

afterAll(async () => {
  await ctx?.close();
});

interface Attempt {
  url: string;
  body?: Record<string, unknown>;
  /** 404 for a route that names one of Ana's things; else the route's own success. */
  expect: 404 | 'own';
}

/**
 * Bea's attempt at Ana's things, for every route a customer token opens. Routes that name nothing
 * get Ana's ids in the query and body, which must be ignored (or refused), never followed.
 */
const CROSS: Record<string, () => Attempt> = {
  'GET /api/v1/customers/auth/me': () => ({ url: `/api/v1/customers/auth/me?customerId=${ids.ana}&uuid=${ids.ana}`, expect: 'own' }),
  'PUT /api/v1/customers/profile': () => ({ url: '/api/v1/customers/profile', body: { name: 'Bea Renamed', uuid: ids.ana, customerId: ids.ana }, expect: 'own' }),
  'PUT /api/v1/customers/change-password': () => ({
    url: '/api/v1/customers/change-password',
    body: { currentPassword: 'not-her-password', newPassword: 'Another-Passw0rd!', uuid: ids.ana },
    expect: 'own',
  }),
  'POST /api/v1/customers/mfa/setup': () => ({ url: `/api/v1/customers/mfa/setup?customerId=${ids.ana}`, body: { customerId: ids.ana }, expect: 'own' }),
  'POST /api/v1/customers/mfa/verify': () => ({ url: '/api/v1/customers/mfa/verify', body: { code: '000000', customerId: ids.ana }, expect: 'own' }),
  'POST /api/v1/customers/mfa/disable': () => ({ url: '/api/v1/customers/mfa/disable', body: { password: 'x', customerId: ids.ana }, expect: 'own' }),
  'GET /api/v1/my/overview': () => ({ url: `/api/v1/my/overview?customerId=${ids.ana}`, expect: 'own' }),
  'GET /api/v1/my/terminals': () => ({ url: `/api/v1/my/terminals?customerId=${ids.ana}`, expect: 'own' }),
  'GET /api/v1/my/terminals/:terminalId': () => ({ url: `/api/v1/my/terminals/${ANA.terminal}`, expect: 404 }),
  'GET /api/v1/my/terminals/:terminalId/telemetry': () => ({ url: `/api/v1/my/terminals/${ANA.terminal}/telemetry?range=24h`, expect: 404 }),
  'PUT /api/v1/my/terminals/:terminalId/name': () => ({ url: `/api/v1/my/terminals/${ANA.terminal}/name`, body: { name: 'Taken over' }, expect: 404 }),
  'POST /api/v1/my/terminals/:terminalId/reboot': () => ({ url: `/api/v1/my/terminals/${ANA.terminal}/reboot`, expect: 404 }),
  'GET /api/v1/my/requests': () => ({ url: `/api/v1/my/requests?customerId=${ids.ana}`, expect: 'own' }),
  'GET /api/v1/my/requests/options': () => ({ url: `/api/v1/my/requests/options?serviceLineNumber=${ANA.line}`, expect: 404 }),
  'POST /api/v1/my/requests': () => ({ url: '/api/v1/my/requests', body: { serviceLineNumber: ANA.line, kind: 'top_up', productId: 'TOPUP-ANA', count: 1 }, expect: 404 }),
  'POST /api/v1/my/requests/:id/cancel': () => ({ url: `/api/v1/my/requests/${anaRequest}/cancel`, expect: 404 }),
  'GET /api/v1/my/alerts': () => ({ url: `/api/v1/my/alerts?customerId=${ids.ana}&customer=${ids.ana}`, expect: 'own' }),
  'GET /api/v1/my/account': () => ({ url: `/api/v1/my/account?customerId=${ids.ana}&customer=${ids.ana}`, expect: 'own' }),
  'GET /api/v1/my/statements': () => ({ url: `/api/v1/my/statements?customerId=${ids.ana}&customer=${ids.ana}`, expect: 'own' }),
  // No statement of Ana's exists in this world: her id stands for one (tests/server/statements.test.ts tries her real ones).
  'GET /api/v1/my/statements/:id': () => ({ url: `/api/v1/my/statements/${ids.ana}`, expect: 404 }),
  'GET /api/v1/my/team': () => ({ url: `/api/v1/my/team?customerId=${ids.ana}`, expect: 'own' }),
  'POST /api/v1/my/team/invitations': () => ({
    url: '/api/v1/my/team/invitations',
    body: { email: 'bea.invitee@iso.test', name: 'Bea Invitee', role: 'viewer', serviceLines: null, customerId: ids.ana },
    expect: 'own',
  }),
  'DELETE /api/v1/my/team/invitations/:id': () => ({ url: `/api/v1/my/team/invitations/${anaInvitation}`, expect: 404 }),
  'PATCH /api/v1/my/team/members/:id': () => ({ url: `/api/v1/my/team/members/${anaMember}`, body: { role: 'owner' }, expect: 404 }),
  'DELETE /api/v1/my/team/members/:id': () => ({ url: `/api/v1/my/team/members/${anaMember}`, expect: 404 }),
};

function customerRoutes(): string[] {
  return [...ctx.app.routeAccess].filter(([, access]) => access === 'customer').map(([route]) => route).sort();
}

const methodOf = (route: string) => route.split(' ')[0] as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

describe('customer routes take no customer id and never reach another customer', () => {
  it('every route a customer token opens has an isolation case here', () => {
    expect(customerRoutes()).toEqual(Object.keys(CROSS).sort());
  });

  it('no customer route has a customer id in its path', () => {
    for (const route of customerRoutes()) expect(route).not.toMatch(/:(uuid|customerUuid|customerId)\b/);
  });

  it("Bea's attempts at Ana's terminal, line and request are 404 or her own, carry nothing of Ana's, and write nothing of Ana's", async () => {
    const anaBefore = await ctx.request({ method: 'GET', url: '/api/v1/my/terminals/' + ANA.terminal, token: tokens.ana });
    expect(anaBefore.statusCode).toBe(200);
    for (const route of customerRoutes()) {
      const attempt = CROSS[route]!();
      await checksum.rebase();
      const before = await checksum.take();
      const response = await ctx.request({ method: methodOf(route), url: attempt.url, token: tokens.bea, ...(attempt.body ? { payload: attempt.body } : {}) });
      if (attempt.expect === 404) {
        expect(response.statusCode, `${route}: ${response.body}`).toBe(404);
        // Nothing at all is written for a refused attempt at someone else's thing.
        const after = await checksum.take();
        expect(Object.entries(after.parts).filter(([part, value]) => before.parts[part] !== value).map(([part]) => part), route).toEqual([]);
      } else {
        expect(response.statusCode, `${route}: ${response.body}`).toBeLessThan(500);
      }
      for (const mark of anaMarks()) expect(response.body.includes(mark), `${route} answered with Ana's ${mark}: ${response.body.slice(0, 300)}`).toBe(false);
    }
    // Ana's own things are as they were: her account, her pending request, her terminal page.
    const [ana] = await ctx.database.db.select().from(customers).where(eq(customers.id, ids.ana));
    expect(ana!.name).toBe('Ana Isolated');
    expect(ana!.mfaPendingSecret).toBeNull();
    const [request] = await ctx.database.db.select().from(customerRequests).where(eq(customerRequests.id, anaRequest));
    expect(request!.status).toBe('pending');
    const anaAfter = await ctx.request({ method: 'GET', url: '/api/v1/my/terminals/' + ANA.terminal, token: tokens.ana });
    expect(anaAfter.json().data).toEqual(anaBefore.json().data);
  });

  it("Bea's own list shows her terminal and not Ana's", async () => {
    const response = await ctx.request({ method: 'GET', url: '/api/v1/my/terminals', token: tokens.bea });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(BEA.terminal);
    expect(response.body).not.toContain(ANA.terminal);
  });

  it.each([
    ['blocked', { blockedEnabled: true, blockedReason: 'Payment overdue' }],
    ['expired', { accountExpiresAt: new Date('2026-03-18T10:00:00.000Z') }],
  ] as const)('a %s customer whose token is still within its lifetime is refused at once on every customer route', async (_, change) => {
    const carol = await ctx.createCustomer({ name: 'Carol Later', isActive: true });
    const token = (await ctx.login('customer', carol.email, carol.password)).token!;
    expect((await ctx.request({ method: 'GET', url: '/api/v1/my/overview', token })).statusCode).toBe(200);
    await ctx.database.db.update(customers).set(change).where(eq(customers.id, carol.id));
    for (const route of customerRoutes()) {
      const attempt = CROSS[route]!();
      const response = await ctx.request({ method: methodOf(route), url: attempt.url, token, ...(attempt.body ? { payload: attempt.body } : {}) });
      expect(response.statusCode, route).toBe(401);
    }
  });
});

describe("a member limited to some of the organisation's lines never reaches the others", () => {
  it("Max's attempts at Ana's first line, its terminal and its request are 404 (or 403 where his role stops), carry nothing of that line, and write nothing", async () => {
    const own = await ctx.request({ method: 'GET', url: '/api/v1/my/terminals', token: maxToken });
    expect(own.json().data.map((t: { terminalId: string }) => t.terminalId)).toEqual([ANA_SITE.terminal]);
    for (const route of customerRoutes()) {
      const attempt = CROSS[route]!();
      await checksum.rebase();
      const before = await checksum.take();
      const response = await ctx.request({ method: methodOf(route), url: attempt.url, token: maxToken, ...(attempt.body ? { payload: attempt.body } : {}) });
      if (attempt.expect === 404) {
        // Statements are organisation-wide and the team is the owners': a limited manager is refused both outright.
        expect([403, 404], `${route}: ${response.body}`).toContain(response.statusCode);
        const after = await checksum.take();
        expect(Object.entries(after.parts).filter(([part, value]) => before.parts[part] !== value).map(([part]) => part), route).toEqual([]);
      } else {
        expect(response.statusCode, `${route}: ${response.body}`).toBeLessThan(500);
      }
      for (const mark of firstLineMarks()) expect(response.body.includes(mark), `${route} answered with the other line's ${mark}: ${response.body.slice(0, 300)}`).toBe(false);
    }
    const [request] = await ctx.database.db.select().from(customerRequests).where(eq(customerRequests.id, anaRequest));
    expect(request!.status).toBe('pending');
  });

  it("a member whose organisation is blocked is refused at once on every customer route", async () => {
    const dan = await ctx.createCustomer({ name: 'Dan Later', isActive: true });
    await ctx.database.db.insert(customerMembers).values({ customerId: dan.id, role: 'owner', email: 'dan.member@iso.test', name: 'Dan Member', passwordHash: await hashPassword(MEMBER_PASSWORD) });
    const token = (await ctx.login('customer', 'dan.member@iso.test', MEMBER_PASSWORD)).token!;
    expect((await ctx.request({ method: 'GET', url: '/api/v1/my/team', token })).statusCode).toBe(200);
    await ctx.database.db.update(customers).set({ blockedEnabled: true, blockedReason: 'Payment overdue' }).where(eq(customers.id, dan.id));
    for (const route of customerRoutes()) {
      const attempt = CROSS[route]!();
      const response = await ctx.request({ method: methodOf(route), url: attempt.url, token, ...(attempt.body ? { payload: attempt.body } : {}) });
      expect(response.statusCode, route).toBe(401);
    }
  });
});

describe('View as customer (the admin preview)', () => {
  it("answers exactly what the customer's own routes answer, for overview, terminals, a terminal and requests", async () => {
    const pairs = [
      ['/api/v1/my/overview', `/api/v1/customers/${ids.ana}/preview/overview`],
      ['/api/v1/my/terminals', `/api/v1/customers/${ids.ana}/preview/terminals`],
      [`/api/v1/my/terminals/${ANA.terminal}?month=2026-02`, `/api/v1/customers/${ids.ana}/preview/terminals/${ANA.terminal}?month=2026-02`],
      ['/api/v1/my/requests', `/api/v1/customers/${ids.ana}/preview/requests`],
    ] as const;
    for (const [own, preview] of pairs) {
      const theirs = await ctx.request({ method: 'GET', url: own, token: tokens.ana });
      const admins = await ctx.request({ method: 'GET', url: preview, token: tokens.admin });
      expect(theirs.statusCode, own).toBe(200);
      expect(admins.statusCode, preview).toBe(200);
      expect(admins.json().data, preview).toEqual(theirs.json().data);
    }
  });

  it("keeps to the customer it names: Bea's terminal through Ana's preview is 404", async () => {
    const response = await ctx.request({ method: 'GET', url: `/api/v1/customers/${ids.ana}/preview/terminals/${BEA.terminal}`, token: tokens.admin });
    expect(response.statusCode).toBe(404);
  });

  it('records who opened the preview of whom', async () => {
    const response = await ctx.request({ method: 'POST', url: `/api/v1/customers/${ids.ana}/preview`, token: tokens.admin });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.customer.uuid).toBe(ids.ana);
    const entries = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'customer.previewed'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorType: 'user', targetType: 'customer', targetId: ids.ana });
  });

  it('is 404 for an unknown or deleted customer and 403 for a customer token', async () => {
    const unknown = '5b0c1c1e-2f7a-4a59-9d1e-0b8f1f0d2a11';
    expect((await ctx.request({ method: 'GET', url: `/api/v1/customers/${unknown}/preview/overview`, token: tokens.admin })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'POST', url: `/api/v1/customers/${unknown}/preview`, token: tokens.admin })).statusCode).toBe(404);
    const gone = await ctx.createCustomer({ name: 'Gone Customer', deletedAt: new Date(NOW) });
    expect((await ctx.request({ method: 'GET', url: `/api/v1/customers/${gone.id}/preview/terminals`, token: tokens.admin })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'GET', url: `/api/v1/customers/${ids.ana}/preview/overview`, token: tokens.bea })).statusCode).toBe(403);
  });

  it('has no route that writes besides the audited opening', () => {
    // The customer preview's routes, not another feature's preview (a bulk action's is a dry run).
    const previewRoutes = [...ctx.app.routeAccess.keys()].filter((route) => route.includes('/customers/:uuid/preview'));
    expect(previewRoutes.filter((route) => !route.startsWith('GET ')).sort()).toEqual(['POST /api/v1/customers/:uuid/preview']);
  });
});
