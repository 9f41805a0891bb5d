// Customer requests over HTTP against the real simulator: a customer asks for a plan change or a
// top-up on a line of theirs; every refusal is a 4xx that writes nothing; an admin's approval runs
// the provider call exactly once (also when two admins press Approve together) and a provider
// refusal leaves the request pending; a decline needs a reason; the customer sees each state; and
// another customer's lines and request ids answer 404 on every customer route.
import { permissionMessage } from '../../server/plugins/auth';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_MESSAGES as M, type CustomerRequestWire, type MyRequestsWire, type QueuedRequestWire, type RequestOptionsWire, type RequestQueueWire } from '../../src/domain/requests';
import type { ServiceLineSettingsWire } from '../../src/domain/service-lines';
import { INTENT_MESSAGES } from '../../server/services/provider-intents';
import type { RunningSimulator } from '../../server/simulator';
import { CUSTOMERS_ONLY_MESSAGE } from '../../server/plugins/auth';
import { insertProduct, insertServiceLines, insertTerminals, idOf, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, countingClient, fastClient, startFleet } from './terminal-sync-fixtures';

/** The provider writes an approval may make, counted at the client. */
const calls = { changeServiceLineProduct: 0, topUpServiceLine: 0 };
type Counted = keyof typeof calls;
/** Writes whose next answer is lost after the provider made them (as when the server dies mid-call). */
const loseAnswer = new Set<Counted>();


let sim: RunningSimulator;
let ctx: TestContext;
let admin: string;
let reader: string;
let ana: string;
let anaId: string;
let anaEmail: string;
let bruno: string;
/** Ana's lines: one for plan changes, one for top-ups, one set to end, one ended now. Bruno has one. */
let planLine: string;
let topUpLine: string;
let endingLine: string;
let endedLine: string;
let brunoLine: string;

beforeAll(async () => {
  sim = await startFleet({ terminals: 60 });
  const client = countingClient(fastClient(sim), calls, { loseAnswer });
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off', USAGE_SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => client } });
  await ctx.app.syncJobs?.stop();
  const created = await ctx.createAdmin();
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  const user = await ctx.createAdmin({ role: 'user' });
  reader = (await ctx.login('admin', user.email, user.password)).token!;
  const a = await ctx.createCustomer({ name: 'Ana Costa', company: 'Costa Farms' });
  anaId = a.id;
  anaEmail = a.email;
  ana = (await ctx.login('customer', a.email, a.password)).token!;
  const b = await ctx.createCustomer({ name: 'Bruno Okafor' });
  bruno = (await ctx.login('customer', b.email, b.password)).token!;

  const db = ctx.database.db;
  for (const product of sim.fleet.products()) {
    await insertProduct(db, { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
  }
  // Stored, but not one the provider sells on this account: the simulator refuses a move to it.
  await insertProduct(db, { productReferenceId: 'SUB-LEGACY-10GB', name: 'Legacy 10 GB', price: 10 });
  const metered = sim.fleet.serviceLineNumbers().filter((n) => {
    const line = sim.fleet.serviceLine(n)!;
    return line.active && !line.endDate && line.productReferenceId === 'SUB-METERED-50GB' && n !== sim.fleet.knownServiceLineNumber;
  });
  [planLine, topUpLine, endingLine, endedLine, brunoLine] = metered as [string, string, string, string, string];
  const lines = [planLine, topUpLine, endingLine, endedLine, brunoLine];
  await insertServiceLines(
    db,
    lines.map((serviceLineNumber) => ({ serviceLineNumber, productReferenceId: 'SUB-METERED-50GB' })),
  );
  await insertTerminals(
    db,
    lines.map((serviceLineNumber, i) =>
      terminalRow({
        userTerminalId: idOf(i + 1),
        serviceLineNumber,
        productReferenceId: 'SUB-METERED-50GB',
        plan: 'Local Priority 50 GB',
        nickname: i === 0 ? 'Barn dish' : null,
        assignedCustomerId: serviceLineNumber === brunoLine ? b.id : a.id,
      }),
    ),
  );
  const end = async (line: string, when: 'now' | 'end_of_cycle') =>
    expect((await ctx.request({ method: 'POST', url: `/api/v1/service-lines/${line}/deactivate`, token: admin, payload: { when, reason: 'Test set-up' } })).statusCode).toBe(200);
  await end(endingLine, 'end_of_cycle');
  await end(endedLine, 'now');
});
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

const ask = (payload: Record<string, unknown>, token = ana) => ctx.request({ method: 'POST', url: '/api/v1/my/requests', token, payload });
const approve = (id: string, token = admin) => ctx.request({ method: 'POST', url: `/api/v1/requests/${id}/approve`, token });
const decline = (id: string, payload: unknown, token = admin) => ctx.request({ method: 'POST', url: `/api/v1/requests/${id}/decline`, token, payload: payload as Record<string, unknown> });
const cancel = (id: string, token = ana) => ctx.request({ method: 'POST', url: `/api/v1/my/requests/${id}/cancel`, token });
const mine = async (token = ana) => {
  const res = await ctx.request({ method: 'GET', url: '/api/v1/my/requests', token });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: MyRequestsWire }).data;
};
const settingsOf = async (line: string) => ((await ctx.request({ method: 'GET', url: `/api/v1/service-lines/${line}/settings`, token: admin })).json() as { data: ServiceLineSettingsWire }).data;

/** The emails the outbox holds for Ana, oldest first. */
async function mailsToAna() {
  const result = await ctx.database.db.execute(sql`SELECT subject, body_text FROM email_outbox WHERE recipient = ${anaEmail} ORDER BY id`);
  return (result as unknown as { rows: { subject: string; body_text: string }[] }).rows;
}

async function written() {
  const result = await ctx.database.db.execute(
    sql`SELECT (SELECT count(*)::int FROM customer_requests) AS requests, (SELECT count(*)::int FROM audit_log WHERE action LIKE 'customer_request.%') AS audits,
               (SELECT coalesce(string_agg(id::text || status || coalesce(decided_at::text, ''), ',' ORDER BY id), '') FROM customer_requests) AS states`,
  );
  return (result as unknown as { rows: { requests: number; audits: number; states: string }[] }).rows[0]!;
}

/** Sends a refused request and checks its status, message and that nothing was written. */
async function refused(send: () => Promise<LightMyRequestResponse>, status: number, message: string | RegExp) {
  const before = await written();
  const res = await send();
  expect(res.statusCode).toBe(status);
  expect((res.json() as { message: string }).message).toMatch(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
  expect(await written()).toEqual(before);
  return res;
}

describe('a customer asks', () => {
  it('lists their own active lines and offers the other plans and the top-up with the blocks left this cycle', async () => {
    const { requests, lines } = await mine();
    expect(requests).toEqual([]);
    expect(lines.map((l) => l.serviceLineNumber).sort()).toEqual([planLine, topUpLine, endingLine].sort());
    expect(lines.find((l) => l.serviceLineNumber === planLine)?.nickname).toBe('Barn dish');

    const res = await ctx.request({ method: 'GET', url: `/api/v1/my/requests/options?serviceLineNumber=${planLine}`, token: ana });
    expect(res.statusCode).toBe(200);
    const options = (res.json() as { data: RequestOptionsWire }).data;
    expect(options.currentPlan).toEqual({ productReferenceId: 'SUB-METERED-50GB', name: 'Local Priority 50 GB' });
    expect(options.plans.map((p) => p.productReferenceId)).toContain('SUB-METERED-1TB');
    expect(options.plans.map((p) => p.productReferenceId)).not.toContain('SUB-METERED-50GB');
    expect(options.topUp).toEqual({ product: { productId: 'DATA-TOPUP-50GB', dataGB: 50, price: 50, currency: 'USD' }, blocksLeft: (await settingsOf(planLine)).topUpBlocksLeft });
  });

  it('sends a plan change: 201, pending, what was asked spelled out, audited with the customer as actor', async () => {
    const res = await ask({ serviceLineNumber: planLine, kind: 'plan_change', productId: 'SUB-METERED-1TB', note: '  More data for harvest  ' });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { data: CustomerRequestWire; message: string };
    expect(body.message).toBe(M.created);
    expect(body.data).toMatchObject({
      kind: 'plan_change',
      serviceLineNumber: planLine,
      terminalNickname: 'Barn dish',
      plan: { productReferenceId: 'SUB-METERED-1TB', name: 'Local Priority 1 TB', monthlyDataGB: 1000 },
      topUp: null,
      note: 'More data for harvest',
      status: 'pending',
      reason: null,
      decidedAt: null,
    });
    const audit = await ctx.database.db.execute(sql`SELECT actor_type, actor_id::text FROM audit_log WHERE action = 'customer_request.created' AND target_id = ${body.data.id}`);
    expect((audit as unknown as { rows: unknown[] }).rows).toEqual([{ actor_type: 'customer', actor_id: anaId }]);
    expect((await mine()).requests.map((r) => r.id)).toEqual([body.data.id]);
  });

  it('refuses, writing nothing: a second pending request of the kind, the same plan, a plan not offered, a top-up the plan does not sell, more blocks than are left', async () => {
    await refused(() => ask({ serviceLineNumber: planLine, kind: 'plan_change', productId: 'SUB-PRIORITY-BLOCKS' }), 409, M.pendingExists('plan_change'));
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'plan_change', productId: 'SUB-METERED-50GB' }), 409, M.samePlan);
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'plan_change', productId: 'SUB-NOPE' }), 400, M.planNotOffered);
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'top_up', productId: 'DATA-BLOCK-PRIORITY-1TB', count: 1 }), 400, M.unknownTopUp);
    // Seven bought by an admin this cycle: three left, so four is over what the cycle sells.
    expect((await ctx.request({ method: 'POST', url: `/api/v1/service-lines/${topUpLine}/top-up`, token: admin, payload: { productId: 'DATA-TOPUP-50GB', count: 7 } })).statusCode).toBe(200);
    const left = (await settingsOf(topUpLine)).topUpBlocksLeft;
    expect(left).toBe(3);
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: left + 1 }), 400, M.topUpLimit(left));
  });

  it('refuses a line set to end or already ended with 409, and a line not theirs with the 404 of an unknown one', async () => {
    await refused(() => ask({ serviceLineNumber: endingLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 }), 409, M.lineEnding);
    await refused(() => ask({ serviceLineNumber: endedLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 }), 409, M.lineInactive);
    const unknown = await refused(() => ask({ serviceLineNumber: 'AST-999999-99999-99', kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 }), 404, M.lineNotFound);
    const others = await refused(() => ask({ serviceLineNumber: brunoLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 }), 404, M.lineNotFound);
    expect(others.json()).toMatchObject({ success: false, message: (unknown.json() as { message: string }).message });
    await refused(() => ctx.request({ method: 'GET', url: `/api/v1/my/requests/options?serviceLineNumber=${endingLine}`, token: ana }), 409, M.lineEnding);
  });

  it('refuses malformed bodies with the field’s message, writing nothing', async () => {
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'plan_change', productId: 'SUB-METERED-1TB', count: 2 }), 400, /Validation failed|count/);
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 0 }), 400, /Validation failed|count/);
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'downgrade', productId: 'X' }), 400, /Validation failed|kind/);
    await refused(() => ask({ serviceLineNumber: 'bad line!', kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 }), 400, /Validation failed|serviceLineNumber/);
    await refused(() => ask({ serviceLineNumber: topUpLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1, note: 'x'.repeat(501) }), 400, /Validation failed|note/);
    await refused(() => ctx.request({ method: 'GET', url: '/api/v1/my/requests/options', token: ana }), 400, /Validation failed|serviceLineNumber/);
  });
});

describe('an admin decides', () => {
  const pendingOf = async (line: string, kind: string) => (await mine()).requests.find((r) => r.serviceLineNumber === line && r.kind === kind && r.status === 'pending')!;

  it('lists the queue, pending by default, with the customer, counts per status and paging', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/v1/requests', token: reader });
    expect(res.statusCode).toBe(200);
    const queue = (res.json() as { data: RequestQueueWire }).data;
    expect(queue.requests.every((r) => r.status === 'pending')).toBe(true);
    expect(queue.requests[0]).toMatchObject({ serviceLineNumber: planLine, customer: { uuid: anaId, name: 'Ana Costa', company: 'Costa Farms' }, decidedBy: null });
    expect(queue.counts.pending).toBe(queue.pagination.total);
    expect(queue.pagination).toMatchObject({ page: 1, limit: 20 });
    expect((await ctx.request({ method: 'GET', url: '/api/v1/requests?status=bogus', token: admin })).statusCode).toBe(400);
    expect((await ctx.request({ method: 'GET', url: '/api/v1/requests?limit=0', token: admin })).statusCode).toBe(400);
  });

  it('approves a plan change: the provider moves the line once, the request is approved, audited, and the customer sees it', async () => {
    const request = await pendingOf(planLine, 'plan_change');
    const before = calls.changeServiceLineProduct;
    const res = await approve(request.id);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: QueuedRequestWire }).data).toMatchObject({ status: 'approved', decidedBy: expect.stringMatching(/^Test Admin/), decidedAt: SYNC_TEST_TIME });
    expect(calls.changeServiceLineProduct).toBe(before + 1);
    expect(sim.fleet.serviceLine(planLine)!.productReferenceId).toBe('SUB-METERED-1TB');
    const actions = await ctx.database.db.execute(sql`SELECT action FROM audit_log WHERE action IN ('subscription.plan_changed', 'customer_request.approved') AND target_id IN (${planLine}, ${request.id}) ORDER BY id`);
    expect((actions as unknown as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual(['subscription.plan_changed', 'customer_request.approved']);
    expect((await mine()).requests.find((r) => r.id === request.id)).toMatchObject({ status: 'approved', decidedAt: SYNC_TEST_TIME });
    expect((await mailsToAna()).at(-1)).toMatchObject({
      subject: 'Your request was approved',
      body_text: expect.stringContaining(`Local Priority 1 TB (USD 165.00 a month) on service line ${planLine} was approved`),
    });
    // Decided: neither admin nor customer can change it again.
    await refused(() => approve(request.id), 409, M.alreadyDecided('approved'));
    await refused(() => decline(request.id, { reason: 'Too late' }), 409, M.alreadyDecided('approved'));
    await refused(() => cancel(request.id), 409, M.alreadyDecided('approved'));
  });

  it('buys a top-up once when two admins approve at once: one approves, the other gets 409', async () => {
    const sent = await ask({ serviceLineNumber: topUpLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 2 });
    expect(sent.statusCode).toBe(201);
    expect((sent.json() as { data: CustomerRequestWire }).data.topUp).toEqual({ productId: 'DATA-TOPUP-50GB', count: 2, dataGB: 100, price: 100, currency: 'USD' });
    const id = (sent.json() as { data: CustomerRequestWire }).data.id;
    const bought = (await settingsOf(topUpLine)).topUpBlocksThisCycle;
    const before = calls.topUpServiceLine;
    const answers = await Promise.all([approve(id), approve(id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(calls.topUpServiceLine).toBe(before + 1);
    expect((await settingsOf(topUpLine)).topUpBlocksThisCycle).toBe(bought + 2);
    expect((await mine()).requests.find((r) => r.id === id)?.status).toBe('approved');
  });

  it('buys a top-up once when the provider made it but its answer was lost: approving again finds it instead of buying again', async () => {
    // The line's last block this cycle: approved again, the check of the blocks left must not refuse
    // what the lost attempt already bought.
    const left = (await settingsOf(planLine)).topUpBlocksLeft;
    if (left > 1) expect((await ctx.request({ method: 'POST', url: `/api/v1/service-lines/${planLine}/top-up`, token: admin, payload: { productId: 'DATA-TOPUP-50GB', count: left - 1 } })).statusCode).toBe(200);
    const sent = await ask({ serviceLineNumber: planLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 });
    const id = (sent.json() as { data: CustomerRequestWire }).data.id;
    const bought = (await settingsOf(planLine)).topUpBlocksThisCycle;
    const before = calls.topUpServiceLine;
    loseAnswer.add('topUpServiceLine');
    // The provider made it; the portal cannot tell, and the request waits again.
    expect((await approve(id)).statusCode).toBeGreaterThanOrEqual(500);
    expect((await mine()).requests.find((r) => r.id === id)?.status).toBe('pending');
    const recorded = (await ctx.database.db.execute(sql`SELECT status, attempts FROM provider_intents WHERE key = ${'customer_request:' + id}`)) as unknown as { rows: { status: string; attempts: number }[] };
    expect(recorded.rows).toEqual([{ status: 'pending', attempts: 1 }]);

    // Approved again: the line is read, the top-up found, nothing bought twice.
    const again = await approve(id);
    expect(again.statusCode).toBe(200);
    expect((again.json() as { data: QueuedRequestWire }).data.status).toBe('approved');
    expect(calls.topUpServiceLine).toBe(before + 1);
    expect((await settingsOf(planLine)).topUpBlocksThisCycle).toBe(bought + 1);
    const settled = (await ctx.database.db.execute(sql`SELECT status, attempts, outcome FROM provider_intents WHERE key = ${'customer_request:' + id}`)) as unknown as {
      rows: { status: string; attempts: number; outcome: string }[];
    };
    expect(settled.rows).toEqual([{ status: 'succeeded', attempts: 1, outcome: INTENT_MESSAGES.foundDone }]);
  });

  it('keeps a request pending when the provider refuses, with the provider’s words to the admin, and it can still be declined', async () => {
    const sent = await ask({ serviceLineNumber: topUpLine, kind: 'plan_change', productId: 'SUB-LEGACY-10GB' });
    expect(sent.statusCode).toBe(201);
    const id = (sent.json() as { data: CustomerRequestWire }).data.id;
    const before = calls.changeServiceLineProduct;
    const res = await approve(id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, message: 'Product SUB-LEGACY-10GB is not available on this account' });
    expect(calls.changeServiceLineProduct).toBe(before + 1);
    expect(sim.fleet.serviceLine(topUpLine)!.productReferenceId).toBe('SUB-METERED-50GB');
    expect((await mine()).requests.find((r) => r.id === id)).toMatchObject({ status: 'pending', decidedAt: null });
    expect((await mailsToAna()).map((m) => m.subject)).not.toContain('Your request was declined');

    await refused(() => decline(id, {}), 400, /Validation failed|reason/i);
    await refused(() => decline(id, { reason: '   ' }), 400, /Validation failed|reason/i);
    await refused(() => decline(id, { reason: 'x'.repeat(501) }), 400, /Validation failed|reason/i);
    const declined = await decline(id, { reason: '  That plan is retired  ' });
    expect(declined.statusCode).toBe(200);
    expect((declined.json() as { data: QueuedRequestWire }).data).toMatchObject({ status: 'declined', reason: 'That plan is retired' });
    expect((await mine()).requests.find((r) => r.id === id)).toMatchObject({ status: 'declined', reason: 'That plan is retired', decidedAt: SYNC_TEST_TIME });
    expect((await mailsToAna()).at(-1)).toMatchObject({ subject: 'Your request was declined', body_text: expect.stringContaining('Reason: That plan is retired') });
    expect(calls.changeServiceLineProduct).toBe(before + 1);
  });

  it('lets only who may buy a top-up approve one (lifecycle:manage), and 404s an unknown request', async () => {
    const sent = await ask({ serviceLineNumber: topUpLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 });
    const id = (sent.json() as { data: CustomerRequestWire }).data.id;
    const before = calls.topUpServiceLine;
    await refused(() => approve(id, reader), 403, permissionMessage('lifecycle:manage'));
    expect(calls.topUpServiceLine).toBe(before);
    await refused(() => approve('00000000-0000-4000-8000-000000000000'), 404, M.requestNotFound);
    await refused(() => approve('not-a-uuid'), 400, /Validation failed|UUID/);
    // The customer cancels it instead.
    const res = await cancel(id);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { data: CustomerRequestWire }).data).toMatchObject({ status: 'cancelled' });
    await refused(() => cancel(id), 409, M.alreadyDecided('cancelled'));
  });
});

describe('isolation', () => {
  it("answers 404 on every customer route for another customer's lines and request ids, and never shows their requests", async () => {
    const anasRequests = (await mine()).requests;
    expect(anasRequests.length).toBeGreaterThan(0);
    const pending = await ask({ serviceLineNumber: topUpLine, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 });
    expect(pending.statusCode).toBe(201);
    const ids = [...anasRequests.map((r) => r.id), (pending.json() as { data: CustomerRequestWire }).data.id];
    const seen = await mine(bruno);
    expect(seen.requests).toEqual([]);
    expect(seen.lines.map((l) => l.serviceLineNumber)).toEqual([brunoLine]);
    for (const line of [planLine, topUpLine, endingLine]) {
      const options = await refused(() => ctx.request({ method: 'GET', url: `/api/v1/my/requests/options?serviceLineNumber=${line}`, token: bruno }), 404, M.lineNotFound);
      expect(options.body).not.toContain(line);
      await refused(() => ask({ serviceLineNumber: line, kind: 'plan_change', productId: 'SUB-METERED-1TB' }, bruno), 404, M.lineNotFound);
      await refused(() => ask({ serviceLineNumber: line, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 1 }, bruno), 404, M.lineNotFound);
    }
    for (const id of ids) {
      const res = await refused(() => cancel(id, bruno), 404, M.requestNotFound);
      expect(res.body).not.toContain(id);
    }
  });

  it("refuses a customer's token on every admin route with 403, and an admin's on the customer routes", async () => {
    const id = (await mine()).requests[0]!.id;
    for (const [method, url, payload] of [
      ['GET', '/api/v1/requests', undefined],
      ['POST', `/api/v1/requests/${id}/approve`, undefined],
      ['POST', `/api/v1/requests/${id}/decline`, { reason: 'No' }],
    ] as const) {
      await refused(() => ctx.request({ method, url, token: ana, ...(payload ? { payload } : {}) }), 403, /.+/);
    }
    await refused(() => ctx.request({ method: 'GET', url: '/api/v1/my/requests', token: admin }), 403, CUSTOMERS_ONLY_MESSAGE);
    await refused(() => ctx.request({ method: 'POST', url: `/api/v1/my/requests/${id}/cancel`, token: admin }), 403, CUSTOMERS_ONLY_MESSAGE);
  });
});
