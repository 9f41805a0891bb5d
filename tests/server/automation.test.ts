// Automatic actions and scheduled changes over HTTP, the database and the simulator (sharing one
// movable clock): a rule's actions are checked when saved, naming the lines a plan cannot take;
// the alert a line opens at 90 % queues its act-mode action and proposes the other; the run makes
// the opt-out at the provider once, even with two runs at once and a lost answer; the admin and
// the customer see why; Approve, Dismiss and Undo; a plan change scheduled for the next cycle runs
// at that cycle's start; a schedule's bad times are 400s; a change whose line ended is skipped; a
// provider outage is tried again; a final refusal raises an alert; the audit log names the rule and
// the schedule with the person who set them up.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertListWire, MyAlertsWire } from '../../src/domain/alerts';
import { AUTOMATION_MESSAGES as M, type AutomaticActionListWire, type ScheduledChangeWire } from '../../src/domain/automation';
import type { AuditListWire } from '../../src/domain/audit';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';
import type { RunningSimulator } from '../../server/simulator';
import { idOf, insertProduct, insertServiceLines, insertTerminals, insertUsageCycles, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, countingClient, fastClient, startFleet } from './terminal-sync-fixtures';

/** The provider writes counted at the client, and the faults the next call of one gets. */
const calls = { optOutPriorityData: 0, optInPriorityData: 0, changeServiceLineProduct: 0 };
type Counted = keyof typeof calls;
const loseAnswer = new Set<Counted>();
const unavailable = new Set<Counted>();


let sim: RunningSimulator;
let ctx: TestContext;
let admin: string;
let adminLogin: { email: string; password: string };
let ana: string;
let anaId: string;
let anaEmail: string;
/** Ana's metered lines: the act-mode line, the lost-answer line, the scheduled one, one to end. */
let actLine: string;
let lostLine: string;
let planLine: string;
let endLine: string;
const CYCLE = { cycleStart: '2026-03-01', cycleEnd: '2026-03-31' };

const db = () => ctx.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
const data = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;
const setUsed = (line: string, used: number) => db().execute(sql`UPDATE service_line_usage_cycles SET priority_gb = ${used}, usage_limit_gb = 100 WHERE service_line_number = ${line}`);
const settingsOf = async (line: string) => data<ServiceLineSettingsWire>(await ctx.request({ method: 'GET', url: `/api/v1/service-lines/${line}/settings`, token: admin }));
const actionsOf = async (line: string) => (data<AutomaticActionListWire>(await ctx.request({ method: 'GET', url: `/api/v1/automatic-actions?status=all&search=${line}`, token: admin }))).actions;
const saveActions = (actions: unknown[], kind = 'usage') => ctx.request({ method: 'PUT', url: `/api/v1/alert-rules/${kind}/actions`, token: admin, payload: { actions } });
const schedule = (payload: Record<string, unknown>) => ctx.request({ method: 'POST', url: '/api/v1/scheduled-changes', token: admin, payload });
const runDue = () => ctx.app.services.automaticActions.runDue();

beforeAll(async () => {
  // The simulator reads the app's clock: a scheduled change's time is the provider's time too.
  sim = await startFleet({ terminals: 60, now: () => (ctx ? ctx.clock.now() : new Date(SYNC_TEST_TIME)) });
  const client = countingClient(fastClient(sim), calls, { loseAnswer, unavailable });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => client } });
  await ctx.app.syncJobs?.stop();
  const created = await ctx.createAdmin({ name: 'Alice Admin' });
  adminLogin = { email: created.email, password: created.password };
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  const a = await ctx.createCustomer({ name: 'Ana Costa', company: 'Costa Farms' });
  anaId = a.id;
  anaEmail = a.email;
  ana = (await ctx.login('customer', a.email, a.password)).token!;

  for (const product of sim.fleet.products()) {
    await insertProduct(db(), { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
  }
  const metered = sim.fleet.serviceLineNumbers().filter((n) => {
    const line = sim.fleet.serviceLine(n)!;
    return line.active && !line.endDate && line.productReferenceId === 'SUB-METERED-50GB' && n !== sim.fleet.knownServiceLineNumber;
  });
  [actLine, lostLine, planLine, endLine] = metered as [string, string, string, string];
  const lines = [actLine, lostLine, planLine, endLine];
  await insertServiceLines(db(), lines.map((serviceLineNumber) => ({ serviceLineNumber, productReferenceId: 'SUB-METERED-50GB' })));
  await insertTerminals(
    db(),
    lines.map((serviceLineNumber, i) => terminalRow({ userTerminalId: idOf(i + 1), serviceLineNumber, productReferenceId: 'SUB-METERED-50GB', assignedCustomerId: anaId })),
  );
  await insertUsageCycles(db(), lines.map((serviceLineNumber) => ({ serviceLineNumber, ...CYCLE, priorityGb: 10, usageLimitGb: 100 })));
  // Each line starts opted in, so that opting out is a change.
  for (const line of [actLine, lostLine]) {
    if (!(await settingsOf(line)).optedIn) await ctx.request({ method: 'PUT', url: `/api/v1/service-lines/${line}/priority-data`, token: admin, payload: { optedIn: true } });
  }
  await ctx.request({ method: 'PUT', url: '/api/v1/alert-rules/usage', token: admin, payload: { enabled: true, usageLevels: [80, 90, 100], notifyCustomer: true } });
  await ctx.request({ method: 'PUT', url: '/api/v1/alert-rules/overage_forecast', token: admin, payload: { enabled: false, threshold: 50, notifyCustomer: false } });
  await ctx.app.services.alerts.evaluate();
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe("a rule's actions", () => {
  it('are refused when saved if a covered line\'s plan cannot take them, naming the lines; a level the rule lacks is refused too', async () => {
    const blocks = await saveActions([{ level: 90, action: 'stop_recurring_blocks', mode: 'act', productReferenceId: null }]);
    expect(blocks.statusCode).toBe(400);
    expect(blocks.json().errors[0].message).toMatch(/cannot apply to 4 lines whose plan does not allow it/);
    expect(blocks.json().errors[0].message).toContain(actLine);
    const level = await saveActions([{ level: 95, action: 'opt_out', mode: 'act', productReferenceId: null }]);
    expect(level.statusCode).toBe(400);
    expect(level.json().errors[0].message).toBe(M.actionLevelUnknown(95));
    const plan = await saveActions([{ level: 90, action: 'change_plan', mode: 'propose', productReferenceId: 'SUB-NOT-SOLD' }]);
    expect(plan.statusCode).toBe(400);
    expect((await saveActions([{ level: 90, action: 'opt_out', mode: 'sometimes' }])).statusCode).toBe(400);
  });

  it('at 90 %: the act-mode opt-out is made once at the provider, even with two runs at once; the proposal waits; nothing twice on a second evaluation', async () => {
    const saved = await saveActions([
      { level: 90, action: 'opt_out', mode: 'act', productReferenceId: null },
      { level: 90, action: 'block_sign_in', mode: 'propose', productReferenceId: null },
    ]);
    expect(saved.statusCode).toBe(200);
    await setUsed(actLine, 95);
    const report = await ctx.app.services.alerts.evaluate();
    expect(report.actions).toBe(2);
    const before = calls.optOutPriorityData;
    const [one, two] = await Promise.all([runDue(), runDue()]);
    expect(one.ran + two.ran).toBe(1);
    expect(calls.optOutPriorityData - before).toBe(1);
    expect((await settingsOf(actLine)).optedIn).toBe(false);

    const actions = await actionsOf(actLine);
    expect(actions.map((a) => [a.action, a.status]).sort()).toEqual([
      ['block_sign_in', 'proposed'],
      ['opt_out', 'executed'],
    ]);
    expect(actions.find((a) => a.action === 'opt_out')).toMatchObject({ setUpBy: 'Alice Admin', undoable: true, ruleLabel: 'Data use rule at 90 %' });
    await ctx.app.services.alerts.evaluate();
    expect(await actionsOf(actLine)).toHaveLength(2);

    // Audited with the rule as the actor, named with the person who set it up.
    const log = data<AuditListWire>(await ctx.request({ method: 'GET', url: '/api/v1/audit?action=service_line.priority_data_changed&actorKind=rule', token: admin }));
    expect(log.entries.filter((e) => e.target.id === actLine)).toHaveLength(1);
    expect(log.entries[0]!.actor.name).toBe('Data use rule at 90 % (set up by Alice Admin)');
  });

  it('the admin and the customer see why; the customer is emailed; a proposal is the admins\' own', async () => {
    const alerts = data<AlertListWire>(await ctx.request({ method: 'GET', url: `/api/v1/alerts?search=${actLine}`, token: admin })).alerts;
    const texts = alerts.flatMap((a) => a.automaticActions ?? []).map((a) => a.text);
    expect(texts).toEqual(expect.arrayContaining(['Done automatically: Opt out of priority data, at 90 % of the plan', 'Proposed: Block the customer\'s portal sign-in, at 90 % of the plan']));
    const mine = data<MyAlertsWire>(await ctx.request({ method: 'GET', url: '/api/v1/my/alerts', token: ana })).alerts;
    const seen = mine.flatMap((a) => a.automaticActions ?? []);
    expect(seen.map((a) => [a.text, a.undoable])).toEqual([['Done automatically: Opt out of priority data, at 90 % of the plan', false]]);
    const mails = await rows<{ subject: string }>(sql`SELECT subject FROM email_outbox WHERE recipient = ${anaEmail} ORDER BY id`);
    expect(mails.map((m) => m.subject)).toContain(`Your service line ${actLine}: Opt out of priority data`);
  });

  it('Approve makes a proposal (the customer is blocked); Undo takes it back; a decided proposal is not decided twice', async () => {
    const proposal = (await actionsOf(actLine)).find((a) => a.action === 'block_sign_in')!;
    const approved = await ctx.request({ method: 'POST', url: `/api/v1/automatic-actions/${proposal.id}/approve`, token: admin });
    expect(approved.json()).toMatchObject({ data: { status: 'executed', decidedBy: 'Alice Admin', outcome: 'Done' } });
    expect((await ctx.request({ method: 'GET', url: '/api/v1/my/alerts', token: ana })).statusCode).toBe(401);
    expect((await ctx.request({ method: 'POST', url: `/api/v1/automatic-actions/${proposal.id}/dismiss`, token: admin })).statusCode).toBe(409);
    const undone = await ctx.request({ method: 'POST', url: `/api/v1/automatic-actions/${proposal.id}/undo`, token: admin });
    expect(undone.statusCode).toBe(200);
    expect(data<{ status: string }>(undone).status).toBe('undone');
    expect(await rows(sql`SELECT blocked_enabled FROM customers WHERE id = ${anaId}`)).toEqual([{ blocked_enabled: false }]);
    expect((await ctx.request({ method: 'POST', url: `/api/v1/automatic-actions/${proposal.id}/undo`, token: admin })).statusCode).toBe(409);
  });

  it('Undo opts the line back in at the provider (once its opt-in cool-down has passed)', async () => {
    const optOut = (await actionsOf(actLine)).find((a) => a.action === 'opt_out')!;
    ctx.clock.advance(24 * 3_600_000 + 60_000);
    admin = (await ctx.login('admin', adminLogin.email, adminLogin.password)).token!;
    const before = calls.optInPriorityData;
    expect((await ctx.request({ method: 'POST', url: `/api/v1/automatic-actions/${optOut.id}/undo`, token: admin })).statusCode).toBe(200);
    expect(calls.optInPriorityData - before).toBe(1);
    expect((await settingsOf(actLine)).optedIn).toBe(true);
  });

  it('an opt-out whose answer was lost is looked up before it is sent again: made once', async () => {
    await saveActions([{ level: 90, action: 'opt_out', mode: 'act', productReferenceId: null }]);
    await setUsed(lostLine, 92);
    await ctx.app.services.alerts.evaluate();
    const before = calls.optOutPriorityData;
    loseAnswer.add('optOutPriorityData');
    await runDue();
    const [waiting] = await actionsOf(lostLine);
    expect(waiting).toMatchObject({ status: 'queued' });
    expect(waiting!.outcome).toMatch(/^Will try again/);
    ctx.clock.advance(2 * 60_000);
    await runDue();
    expect(calls.optOutPriorityData - before).toBe(1);
    expect((await actionsOf(lostLine))[0]).toMatchObject({ status: 'executed' });
    expect((await settingsOf(lostLine)).optedIn).toBe(false);
    await saveActions([]);
  });
});

describe('scheduled changes', () => {
  it('refuses a time in the past, more than 13 months ahead, a customer at "next cycle", and an unknown target', async () => {
    const now = ctx.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const past = await schedule({ operation: 'opt_out', target: planLine, parameters: {}, at: at(-60_000) });
    expect([past.statusCode, past.json().errors[0]]).toEqual([400, { path: 'at', message: M.timeInPast }]);
    const far = await schedule({ operation: 'opt_out', target: planLine, parameters: {}, at: at(400 * 86_400_000) });
    expect([far.statusCode, far.json().errors[0].message]).toEqual([400, M.timeTooFar]);
    const customerCycle = await schedule({ operation: 'extend', target: anaId, parameters: { days: 30 }, atNextCycle: true });
    expect([customerCycle.statusCode, customerCycle.json().errors[0].message]).toEqual([400, M.nextCycleLinesOnly]);
    expect((await schedule({ operation: 'opt_out', target: 'SL-NOBODY', parameters: {}, at: at(3_600_000) })).statusCode).toBe(400);
    expect((await schedule({ operation: 'extend', target: anaId, parameters: { days: 0 }, at: at(3_600_000) })).statusCode).toBe(400);
    expect((await schedule({ operation: 'teleport', target: anaId, parameters: {}, at: at(3_600_000) })).statusCode).toBe(400);
  });

  it("a plan change set for the next cycle runs at that cycle's start on the simulator clock, once, audited as the schedule", async () => {
    const made = await schedule({ operation: 'change_plan', target: planLine, parameters: { productReferenceId: 'SUB-METERED-1TB' }, atNextCycle: true });
    expect(made.statusCode).toBe(201);
    const change = data<ScheduledChangeWire>(made);
    expect(change).toMatchObject({ runAt: '2026-04-01T00:00:00.000Z', status: 'scheduled', createdBy: 'Alice Admin' });
    expect(await ctx.app.services.scheduledChanges.runDue()).toEqual({ ran: 0, more: false });
    ctx.clock.set(new Date('2026-04-01T00:00:30.000Z'));
    // Two weeks on, the session has expired: the admin signs in again.
    admin = (await ctx.login('admin', adminLogin.email, adminLogin.password)).token!;
    const before = calls.changeServiceLineProduct;
    const [one, two] = await Promise.all([ctx.app.services.scheduledChanges.runDue(), ctx.app.services.scheduledChanges.runDue()]);
    expect(one.ran + two.ran).toBe(1);
    expect(calls.changeServiceLineProduct - before).toBe(1);
    expect(sim.fleet.serviceLine(planLine)!.productReferenceId).toBe('SUB-METERED-1TB');
    const listed = data<{ changes: ScheduledChangeWire[] }>(await ctx.request({ method: 'GET', url: `/api/v1/scheduled-changes?status=done&target=${planLine}`, token: admin })).changes;
    expect(listed.map((c) => [c.id, c.outcome])).toEqual([[change.id, 'Done']]);
    const log = data<AuditListWire>(await ctx.request({ method: 'GET', url: '/api/v1/audit?actorKind=schedule', token: admin }));
    expect(log.entries[0]!.actor.name).toBe('Scheduled change: Change plan (set up by Alice Admin)');
  });

  it('Cancel stops a change before it runs, once', async () => {
    const change = data<ScheduledChangeWire>(await schedule({ operation: 'extend', target: anaId, parameters: { days: 30 }, at: new Date(ctx.clock.now().getTime() + 3_600_000).toISOString() }));
    expect(data<ScheduledChangeWire>(await ctx.request({ method: 'POST', url: `/api/v1/scheduled-changes/${change.id}/cancel`, token: admin })).status).toBe('cancelled');
    expect((await ctx.request({ method: 'POST', url: `/api/v1/scheduled-changes/${change.id}/cancel`, token: admin })).statusCode).toBe(409);
    ctx.clock.advance(2 * 3_600_000);
    expect((await ctx.app.services.scheduledChanges.runDue()).ran).toBe(0);
  });

  it('a provider outage is tried again; a change whose line has ended is skipped with the reason; a refusal fails and raises an alert', async () => {
    const soon = () => new Date(ctx.clock.now().getTime() + 60_000).toISOString();
    // Opted out by the lost-answer test above: opting it in is a change.
    const retried = data<ScheduledChangeWire>(await schedule({ operation: 'opt_in', target: lostLine, parameters: {}, at: soon() }));
    const ended = data<ScheduledChangeWire>(await schedule({ operation: 'opt_out', target: endLine, parameters: {}, at: soon() }));
    const refused = data<ScheduledChangeWire>(await schedule({ operation: 'change_plan', target: planLine, parameters: { productReferenceId: 'SUB-PRIORITY-BLOCKS' }, at: soon() }));
    expect((await ctx.request({ method: 'POST', url: `/api/v1/service-lines/${endLine}/deactivate`, token: admin, payload: { when: 'now', reason: 'Test' } })).statusCode).toBe(200);
    // The provider refuses the move (this line's terminals take no Priority plan in the simulator): made unsellable here.
    await db().execute(sql`UPDATE provider_products SET removed_at = now() WHERE product_reference_id = 'SUB-PRIORITY-BLOCKS'`);
    unavailable.add('optInPriorityData');
    ctx.clock.advance(2 * 60_000);
    await ctx.app.services.scheduledChanges.runDue();
    const byId = async (id: string) => data<{ changes: ScheduledChangeWire[] }>(await ctx.request({ method: 'GET', url: '/api/v1/scheduled-changes?status=all&limit=100', token: admin })).changes.find((c) => c.id === id)!;
    expect(await byId(retried.id)).toMatchObject({ status: 'scheduled', attempts: 1 });
    expect(await byId(ended.id)).toMatchObject({ status: 'skipped', outcome: 'Skipped: the line has ended' });
    expect(await byId(refused.id)).toMatchObject({ status: 'failed' });
    const failed = await rows<{ kind: string; status: string; message: string }>(sql`SELECT kind, status, message FROM alerts WHERE kind = 'change_failed' AND period_key = ${refused.id}`);
    expect(failed).toEqual([expect.objectContaining({ kind: 'change_failed', status: 'open' })]);
    expect(failed[0]!.message).toMatch(/^Scheduled change: Change plan of line .* failed: /);
    ctx.clock.advance(2 * 60_000);
    await ctx.app.services.scheduledChanges.runDue();
    expect(await byId(retried.id)).toMatchObject({ status: 'done', attempts: 2 });
  });
});
