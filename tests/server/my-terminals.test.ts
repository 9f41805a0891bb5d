// The customer area's terminal routes over HTTP against the real simulator: the
// overview's figures and alerts against the stored data, the list, a terminal's page with its
// month bounds, rename at the provider audited with the customer as the actor, reboot paced per
// terminal and per customer (two at once: one through), and isolation — another customer's
// terminal, an unassigned one or an unknown id is the same 404 on every route, with nothing of
// theirs in the answer and nothing written; a blocked or expired customer's token is refused at
// once; an administrator's token is 403.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MY_AREA_MESSAGES as M, type MyOverviewWire, type MyTerminalDetailWire, type MyTerminalWire } from '../../src/domain/my-area';
import type { RunningSimulator } from '../../server/simulator';
import { idOf, insertProduct, insertServiceLines, insertTelemetry, insertTerminals, insertUsageCycles, insertUsageDays, lineOf, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let ctx: TestContext;
const tokens: Record<string, string> = {};
const ids: Record<string, string> = {};
/** Simulator terminals that are online on an active line that is not ending, by role. */
const sims: Record<string, { terminalId: string; line: string; kit: string }> = {};

const NOW = new Date(SYNC_TEST_TIME);
const fresh = (at: Date = NOW) => new Date(at.getTime() - 5_000);

beforeAll(async () => {
  sim = await startFleet({ terminals: 60 });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => fastClient(sim) } });
  const db = ctx.database.db;
  for (const product of sim.fleet.products()) {
    await insertProduct(db, { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
  }
  const online = sim.fleet
    .userTerminalIds()
    .map((_, i) => ({ t: sim.fleet.terminal(i), telemetry: sim.fleet.telemetryAt(i) }))
    .filter(({ t, telemetry }) => {
      const line = t.serviceLineNumber ? sim.fleet.serviceLine(t.serviceLineNumber) : undefined;
      return line?.active && !line.endDate && NOW.getTime() - Date.parse(telemetry.timestamp) <= 60_000 && t.serviceLineNumber !== sim.fleet.knownServiceLineNumber;
    });
  const roles = ['a1', 'a2', 'b1', 'u1', 'c1', 'd1', 'e1'];
  expect(online.length).toBeGreaterThanOrEqual(roles.length);
  roles.forEach((role, i) => {
    const { t } = online[i]!;
    sims[role] = { terminalId: t.userTerminalId, line: t.serviceLineNumber!, kit: t.kitSerialNumber };
  });

  for (const name of ['ana', 'bruno', 'carla', 'dan', 'eve', 'fay']) {
    const customer = await ctx.createCustomer({ name: `${name[0]!.toUpperCase()}${name.slice(1)} Test`, isActive: true });
    ids[name] = customer.id;
    tokens[name] = (await ctx.login('customer', customer.email, customer.password)).token!;
  }
  const admin = await ctx.createAdmin();
  tokens.admin = (await ctx.login('admin', admin.email, admin.password)).token!;

  const owners: Record<string, string | null> = { a1: ids.ana!, a2: ids.ana!, b1: ids.bruno!, u1: null, c1: ids.carla!, d1: ids.dan!, e1: ids.fay! };
  await insertServiceLines(
    db,
    Object.values(sims).map((s) => ({ serviceLineNumber: s.line, productReferenceId: sim.fleet.serviceLine(s.line)!.productReferenceId, nickname: sim.fleet.serviceLine(s.line)!.nickname })),
  );
  // Two of Ana's terminals the simulator does not know: one on an ended line, one offline with a hardware alert.
  await insertServiceLines(db, [
    { serviceLineNumber: lineOf(3), active: false, nickname: 'Old cabin' },
    { serviceLineNumber: lineOf(4), active: true, nickname: 'Barn' },
  ]);
  await insertTerminals(db, [
    ...Object.entries(sims).map(([role, s]) =>
      terminalRow({ userTerminalId: s.terminalId, kitSerialNumber: s.kit, serviceLineNumber: s.line, assignedCustomerId: owners[role] ?? null, productReferenceId: sim.fleet.serviceLine(s.line)!.productReferenceId }),
    ),
    terminalRow({ userTerminalId: idOf(3), serviceLineNumber: lineOf(3), assignedCustomerId: ids.ana!, active: false }),
    terminalRow({ userTerminalId: idOf(4), serviceLineNumber: lineOf(4), assignedCustomerId: ids.ana! }),
  ]);
  // Online is "as of the last reading": the sync read these 14 minutes ago, 5 s after they
  // reported, so they count as online now although the reading is older than a minute (syncs run
  // every 15 minutes). Terminal 4's last report was already a day old when the sync read it.
  const readAt = new Date(NOW.getTime() - 14 * 60_000);
  await insertTelemetry(db, [
    ...Object.values(sims).map((s) => ({ userTerminalId: s.terminalId, reportedAt: fresh(readAt), syncedAt: readAt, signalQuality: 0.9, uptimeSeconds: 3600 })),
    { userTerminalId: idOf(4), reportedAt: new Date('2026-03-17T08:00:00.000Z'), syncedAt: new Date(NOW.getTime() - 60_000), signalQuality: 0.2, uptimeSeconds: 10, alerts: ['alertMotorsStuck'] },
  ]);
  // This cycle: a1 at 90 % of 50 GB, a2 over its 50 GB; b1 (Bruno's) at 10.
  await insertUsageCycles(db, [
    { serviceLineNumber: sims.a1!.line, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 45, standardGb: 5, usageLimitGb: 50 },
    { serviceLineNumber: sims.a2!.line, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 60, standardGb: 0, usageLimitGb: 50 },
    { serviceLineNumber: sims.b1!.line, cycleStart: '2026-03-01', cycleEnd: '2026-03-31', priorityGb: 10, standardGb: 0, usageLimitGb: 1000 },
  ]);
  await insertUsageDays(db, [
    { serviceLineNumber: sims.a1!.line, usageDate: '2026-03-02', priorityGb: 3, standardGb: 1 },
    { serviceLineNumber: sims.a1!.line, usageDate: '2026-03-10', priorityGb: 2.5, standardGb: 0.5 },
    { serviceLineNumber: sims.a1!.line, usageDate: '2026-02-14', priorityGb: 7, standardGb: 2 },
    { serviceLineNumber: sims.a1!.line, usageDate: '2026-03-20', priorityGb: 99, standardGb: 99 },
  ]);
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

const get = (url: string, token: string) => ctx.request({ method: 'GET', url: `/api/v1${url}`, token });
const rename = (terminalId: string, token: string, payload: unknown) => ctx.request({ method: 'PUT', url: `/api/v1/my/terminals/${terminalId}/name`, token, payload: payload as Record<string, unknown> });
const reboot = (terminalId: string, token: string) => ctx.request({ method: 'POST', url: `/api/v1/my/terminals/${terminalId}/reboot`, token });

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const result = (await ctx.database.db.execute(query)) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]!.n);
}
const rebootsOf = (customer: string) => count(sql`SELECT count(*) AS n FROM terminal_reboots WHERE customer_id = ${customer}`);
/** The simulator terminals report again at the test clock's time (the offline one stays silent). */
const keepOnline = () => ctx.database.db.execute(sql`UPDATE terminal_telemetry SET reported_at = ${fresh(ctx.clock.now()).toISOString()}::timestamptz WHERE user_terminal_id <> ${idOf(4)}`);
const auditCount = () => count(sql`SELECT count(*) AS n FROM audit_log`);

describe('the overview', () => {
  it("counts the customer's terminals, those online, this cycle against the plans, the projection and the open alerts", async () => {
    const res = await get('/my/overview', tokens.ana!);
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: MyOverviewWire }).data;
    expect(data).toMatchObject({ terminals: 4, onlineNow: 2, usage: { usedGB: 105, planGB: 100, overageGB: 10, percentage: 105 }, currency: 'USD' });
    // 18 of 31 days gone: 45 → 77.5 GB (27.5 over), 60 → 103.3 GB (53.3 over); 80.8 GB at 5 a GB.
    expect(data.forecast).toEqual({ projectedUsedGB: 180.8, projectedOverageGB: 80.8, projectedCharges: 404 });
    // Before any evaluation only the live hardware alert shows; the stored ones follow a run.
    expect(data.alerts.items.map((a) => [a.kind, a.terminalId])).toEqual([['hardware', idOf(4)]]);
    await ctx.app.services.alerts.evaluate();
    const after = (await get('/my/overview', tokens.ana!)).json() as { data: MyOverviewWire };
    const items = after.data.alerts.items;
    expect(after.data.alerts.count).toBe(items.length);
    // a1 at 90 % and a2 over its plan: their usage levels, pointing at the terminal on the line;
    // terminal 4 silent for months on a line in service: offline, and its hardware alert.
    expect(items.filter((a) => a.kind === 'usage').map((a) => [a.title, a.terminalId]).sort()).toEqual(
      [
        ['90 % of plan used', sims.a1!.terminalId],
        ['Plan data used up', sims.a2!.terminalId],
      ].sort(),
    );
    expect(items.filter((a) => a.kind === 'offline' || a.kind === 'hardware').map((a) => [a.kind, a.terminalId]).sort()).toEqual(
      [
        ['hardware', idOf(4)],
        ['offline', idOf(4)],
      ].sort(),
    );
    // Critical ones first; the ended line's terminal has nothing (no service to be online for).
    expect(items.findIndex((a) => a.severity === 'warning')).toBeGreaterThan(items.findLastIndex((a) => a.severity === 'critical'));
    expect(items.some((a) => a.terminalId === idOf(3))).toBe(false);
    // Another customer's alerts never show here.
    expect(items.every((a) => a.serviceLineNumber === null || [sims.a1!.line, sims.a2!.line, lineOf(4)].includes(a.serviceLineNumber))).toBe(true);
    expect(items.find((a) => a.kind === 'hardware')!.message).toContain('motors stuck');
  });

  it('answers zeros and no alerts for a customer with no terminals', async () => {
    const res = await get('/my/overview', tokens.eve!);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: MyOverviewWire }).data).toMatchObject({ terminals: 0, onlineNow: 0, usage: { usedGB: 0, planGB: 0 }, forecast: null, alerts: { count: 0, items: [] } });
  });
});

describe('the terminal list', () => {
  it("lists only the customer's own terminals with status, telemetry, plan and this cycle's use", async () => {
    const res = await get('/my/terminals', tokens.ana!);
    expect(res.statusCode).toBe(200);
    const rows = (res.json() as { data: MyTerminalWire[] }).data;
    expect(rows.map((r) => r.terminalId).sort()).toEqual([sims.a1!.terminalId, sims.a2!.terminalId, idOf(3), idOf(4)].sort());
    const a1 = rows.find((r) => r.terminalId === sims.a1!.terminalId)!;
    expect(a1).toMatchObject({
      serviceLineNumber: sims.a1!.line,
      kitSerialNumber: sims.a1!.kit,
      status: 'Active',
      online: true,
      signalQuality: 90,
      uptimeSeconds: 3600,
      usage: { usedGB: 45, planGB: 50, remainingGB: 5, overageGB: 0, percentage: 90 },
      billingCycle: { startDate: '2026-03-01', endDate: '2026-03-31' },
    });
    expect(a1.planName).toBeTruthy();
    expect(rows.find((r) => r.terminalId === idOf(3))).toMatchObject({ status: 'Inactive', online: false, nickname: 'Old cabin' });
    expect(rows.find((r) => r.terminalId === idOf(4))).toMatchObject({ status: 'Active', online: false, alerts: ['alertMotorsStuck'] });
    expect(res.body).not.toContain(sims.b1!.terminalId);
    expect(res.body).not.toContain(sims.u1!.terminalId);
  });
});

describe("a terminal's page", () => {
  it('answers the current month by default: every day up to today, priority vs standard, and the forecast', async () => {
    const res = await get(`/my/terminals/${sims.a1!.terminalId}`, tokens.ana!);
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: MyTerminalDetailWire }).data;
    expect(data.month).toBe('2026-03');
    expect(data.months).toHaveLength(12);
    expect(data.months[0]).toBe('2026-03');
    expect(data.months.at(-1)).toBe('2025-04');
    expect(data.daily).toHaveLength(18);
    expect(data.daily[1]).toEqual({ date: '2026-03-02', priorityGB: 3, standardGB: 1 });
    expect(data.totals).toEqual({ priorityGB: 5.5, standardGB: 1.5 });
    expect(data.forecast).toEqual({ projectedUsedGB: 77.5, projectedOverageGB: 27.5, projectedCharges: 137.5 });
  });

  it('answers an earlier month of the last twelve', async () => {
    const res = await get(`/my/terminals/${sims.a1!.terminalId}?month=2026-02`, tokens.ana!);
    expect(res.statusCode).toBe(200);
    const data = (res.json() as { data: MyTerminalDetailWire }).data;
    expect(data.daily).toHaveLength(28);
    expect(data.totals).toEqual({ priorityGB: 7, standardGB: 2 });
  });

  it.each([
    ['2025-03', M.monthOutOfRange('2025-04', '2026-03')],
    ['2026-04', M.monthOutOfRange('2025-04', '2026-03')],
    ['2026-13', M.monthInvalid],
    ['March', M.monthInvalid],
  ])('refuses month=%s with 400 and says which months may be asked for', async (month, message) => {
    const res = await get(`/my/terminals/${sims.a1!.terminalId}?month=${month}`, tokens.ana!);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(message);
  });
});

describe('renaming', () => {
  it("renames the line at the provider and audits it with the customer as the actor", async () => {
    const res = await rename(sims.a1!.terminalId, tokens.ana!, { name: '  North Barn  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { terminalId: sims.a1!.terminalId, nickname: 'North Barn' }, message: M.renamed('North Barn') });
    expect(sim.fleet.serviceLine(sims.a1!.line)!.nickname).toBe('North Barn');
    const list = (await get('/my/terminals', tokens.ana!)).json() as { data: MyTerminalWire[] };
    expect(list.data.find((t) => t.terminalId === sims.a1!.terminalId)!.nickname).toBe('North Barn');
    const audit = (await ctx.database.db.execute(
      sql`SELECT actor_type, actor_id::text AS actor_id, after FROM audit_log WHERE action = 'service_line.renamed' AND target_id = ${sims.a1!.line} ORDER BY id DESC LIMIT 1`,
    )) as unknown as { rows: { actor_type: string; actor_id: string; after: Record<string, unknown> }[] };
    expect(audit.rows[0]).toMatchObject({ actor_type: 'customer', actor_id: ids.ana, after: { nickname: 'North Barn' } });
  });

  it.each([
    [{ name: '' }, M.nameRequired],
    [{ name: '   ' }, M.nameRequired],
    [{ name: 'x'.repeat(101) }, M.nameTooLong],
    [{ name: 'a\u0007b' }, M.nameControl],
    [{}, M.nameRequired],
    [{ name: 'ok', customerId: '00000000-0000-4000-8000-000000000000' }, null],
  ])('refuses %j with 400 and changes nothing', async (payload, message) => {
    const before = sim.fleet.serviceLine(sims.a2!.line)!.nickname;
    const audits = await auditCount();
    const res = await rename(sims.a2!.terminalId, tokens.ana!, payload);
    expect(res.statusCode).toBe(400);
    if (message) expect(JSON.stringify(res.json())).toContain(message);
    expect(sim.fleet.serviceLine(sims.a2!.line)!.nickname).toBe(before);
    expect(await auditCount()).toBe(audits);
  });
});

describe('rebooting', () => {
  it('reboots at the provider, audits it, and refuses a second reboot of the terminal for 10 minutes with Retry-After', async () => {
    const audits = await auditCount();
    const first = await reboot(sims.a1!.terminalId, tokens.ana!);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ data: { terminalId: sims.a1!.terminalId, requestedAt: NOW.toISOString() }, message: M.rebooted });
    expect(await rebootsOf(ids.ana!)).toBe(1);
    const audit = (await ctx.database.db.execute(
      sql`SELECT actor_type, actor_id::text AS actor_id, target_id FROM audit_log WHERE action = 'terminal.rebooted' ORDER BY id DESC LIMIT 1`,
    )) as unknown as { rows: { actor_type: string; actor_id: string; target_id: string }[] };
    expect(audit.rows[0]).toEqual({ actor_type: 'customer', actor_id: ids.ana, target_id: sims.a1!.terminalId });
    expect(await auditCount()).toBe(audits + 1);

    ctx.clock.advanceMinutes(4);
    await keepOnline();
    const again = await reboot(sims.a1!.terminalId, tokens.ana!);
    expect(again.statusCode).toBe(429);
    expect(again.headers['retry-after']).toBe('360');
    expect(again.json().message).toBe(M.rebootTooSoonTerminal(6));
    expect(await rebootsOf(ids.ana!)).toBe(1);

    // Another terminal of the same customer is not held back by the first one's pace.
    expect((await reboot(sims.a2!.terminalId, tokens.ana!)).statusCode).toBe(200);

    ctx.clock.advanceMinutes(6);
    await keepOnline();
    expect((await reboot(sims.a1!.terminalId, tokens.ana!)).statusCode).toBe(200);
    expect(await rebootsOf(ids.ana!)).toBe(3);
  });

  it('refuses the eleventh reboot of a customer within an hour, saying how long to wait', async () => {
    const at = ctx.clock.now().getTime();
    // Ten earlier reboots of Carla's, 50 down to 5 minutes ago.
    for (let i = 0; i < 10; i++) {
      await ctx.database.db.execute(
        sql`INSERT INTO terminal_reboots (user_terminal_id, customer_id, requested_at) VALUES (${`UT-OLD-${i}`}, ${ids.carla!}, ${new Date(at - (50 - i * 5) * 60_000).toISOString()}::timestamptz)`,
      );
    }
    const res = await reboot(sims.c1!.terminalId, tokens.carla!);
    expect(res.statusCode).toBe(429);
    // The oldest leaves the hour in 10 minutes.
    expect(res.json().message).toBe(M.rebootTooSoonCustomer(10));
    expect(res.headers['retry-after']).toBe('600');
    expect(await rebootsOf(ids.carla!)).toBe(10);
  });

  it('lets one of two simultaneous reboots of a terminal through and refuses the other with 429', async () => {
    const answers = await Promise.all([reboot(sims.d1!.terminalId, tokens.dan!), reboot(sims.d1!.terminalId, tokens.dan!)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
    expect(await rebootsOf(ids.dan!)).toBe(1);
  });

  it('refuses a terminal whose line has ended, and one that is offline, with 409 and writes nothing', async () => {
    const audits = await auditCount();
    const ended = await reboot(idOf(3), tokens.ana!);
    expect(ended.statusCode).toBe(409);
    expect(ended.json().message).toBe(M.rebootInactive);
    const offline = await reboot(idOf(4), tokens.ana!);
    expect(offline.statusCode).toBe(409);
    expect(offline.json().message).toBe(M.rebootOffline);
    expect(await auditCount()).toBe(audits);
  });
});

describe('isolation', () => {
  const routes = (terminalId: string, token: string) => [
    () => get(`/my/terminals/${terminalId}`, token),
    () => get(`/my/terminals/${terminalId}?month=2026-02`, token),
    () => rename(terminalId, token, { name: 'Mine now' }),
    () => reboot(terminalId, token),
  ];

  it("answers another customer's terminal, an unassigned one and an unknown id with the same 404 on every route, revealing and writing nothing", async () => {
    const audits = await auditCount();
    const reboots = await count(sql`SELECT count(*) AS n FROM terminal_reboots`);
    const bLine = sim.fleet.serviceLine(sims.b1!.line)!.nickname;
    for (const target of [sims.b1!, sims.u1!, { terminalId: 'UT-NO-SUCH-1', line: '', kit: 'none' }]) {
      for (const call of routes(target.terminalId, tokens.ana!)) {
        const res = await call();
        expect(res.statusCode, `${target.terminalId}: ${res.body}`).toBe(404);
        expect(res.json().message).toBe(M.notFound);
        expect(res.body).not.toContain(target.kit);
        if (target.line) expect(res.body).not.toContain(target.line);
      }
    }
    expect(sim.fleet.serviceLine(sims.b1!.line)!.nickname).toBe(bLine);
    expect(await auditCount()).toBe(audits);
    expect(await count(sql`SELECT count(*) AS n FROM terminal_reboots`)).toBe(reboots);
  });

  it("refuses a blocked or expired customer's still-valid token at once", async () => {
    const fayToken = tokens.fay!;
    expect((await get('/my/overview', fayToken)).statusCode).toBe(200);
    await ctx.database.db.execute(sql`UPDATE customers SET blocked_enabled = true, blocked_reason = 'Unpaid', blocked_at = now() WHERE id = ${ids.fay!}`);
    for (const call of [() => get('/my/overview', fayToken), () => get('/my/terminals', fayToken), ...routes(sims.e1!.terminalId, fayToken)]) {
      expect((await call()).statusCode).toBe(401);
    }
    const eveToken = tokens.eve!;
    await ctx.database.db.execute(sql`UPDATE customers SET account_expires_at = ${new Date(ctx.clock.now().getTime() - 60_000).toISOString()}::timestamptz WHERE id = ${ids.eve!}`);
    expect((await get('/my/overview', eveToken)).statusCode).toBe(401);
    expect(await rebootsOf(ids.fay!)).toBe(0);
  });

  it("refuses an administrator's token with 403 on every customer terminal route", async () => {
    for (const call of [() => get('/my/overview', tokens.admin!), () => get('/my/terminals', tokens.admin!), ...routes(sims.a1!.terminalId, tokens.admin!)]) {
      const res = await call();
      expect(res.statusCode).toBe(403);
    }
  });
});
