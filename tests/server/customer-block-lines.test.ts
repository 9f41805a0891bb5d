// Blocking a customer may also end their service lines at the end of the billing cycle,
// over HTTP against the real simulator: without the flag nothing ends; with it each active line of
// that customer (and no other customer's) gets an end date at the provider and in the inventory,
// with an audit row each; a line already ending says so; a provider refusal on one line is that
// line's outcome, in the provider's words, while the block stands and the other lines end. The
// flag goes with a block only, and from the admin role only (ending a line is theirs alone).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerUpdateData } from '../../src/domain/customers';
import { DEACTIVATION_REASON_MAX_LENGTH } from '../../src/domain/service-lines';
import { permissionMessage } from '../../server/plugins/auth';
import { CUSTOMER_SERVER_MESSAGES, blockedLineReason } from '../../server/services/customers';
import type { RunningSimulator } from '../../server/simulator';
import { idOf, insertProduct, insertServiceLines, insertTerminals, terminalRow } from '../fixtures/terminals';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, startFleet } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let ctx: TestContext;
let admin: string;
let reader: string;
/** Free lines of the simulator, handed to the customers below. */
let lines: string[];
/** The line whose DELETE the provider refuses (see `refusingFetch`). */
let refused = '';

const customers = {} as Record<'quiet' | 'ending' | 'bystander' | 'refusal' | 'plain', string>;
/** Each customer's lines, in service line order. */
const linesOf = {} as Record<keyof typeof customers, string[]>;

/**
 * The real simulator, except that just before our DELETE of the `refused` line reaches it, the
 * line is ended at the provider by someone else: the simulator then refuses our request in its own
 * words, as it would after any such race.
 */
function refusingFetch(): typeof fetch {
  return async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (refused && init?.method === 'DELETE' && url.includes(`/service-lines/${refused}`)) {
      sim.fleet.deactivateServiceLine(refused, { endNow: true, reason: 'Ended at the provider meanwhile' });
    }
    return fetch(input, init);
  };
}

beforeAll(async () => {
  sim = await startFleet({ terminals: 60 });
  ctx = await createTestContext({
    now: SYNC_TEST_TIME,
    env: { SYNC_INTERVAL: 'off' },
    provider: { kind: 'simulator', client: () => fastClient(sim, { fetch: refusingFetch() }) },
  });
  const created = await ctx.createAdmin();
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  // Sales: manages customers, but ending service is lifecycle:manage, which they do not hold.
  const sales = await ctx.app.repos.roles.insert({ name: 'Sales', description: '', permissions: ['customers:manage'], at: ctx.clock.now() });
  const user = await ctx.createAdmin({ role: 'user' });
  await ctx.app.repos.roles.setUserRoles(user.id, [sales.id]);
  reader = (await ctx.login('admin', user.email, user.password)).token!;
  const db = ctx.database.db;
  for (const product of sim.fleet.products()) {
    await insertProduct(db, { productReferenceId: product.productReferenceId, name: product.name, price: product.price, isoCurrencyCode: product.isoCurrencyCode, raw: product });
  }
  lines = sim.fleet
    .serviceLineNumbers()
    .filter((n) => n !== sim.fleet.knownServiceLineNumber)
    .filter((n) => {
      const line = sim.fleet.serviceLine(n)!;
      return line.active && !line.endDate;
    })
    .slice(0, 10)
    .sort();
  expect(lines).toHaveLength(10);

  const hand: Record<keyof typeof customers, number[]> = { quiet: [0, 1], ending: [2, 3, 4], bystander: [5], refusal: [6, 7], plain: [8] };
  let terminal = 0;
  for (const [key, indexes] of Object.entries(hand) as [keyof typeof customers, number[]][]) {
    customers[key] = (await ctx.createCustomer({ name: `Customer ${key}` })).id;
    linesOf[key] = indexes.map((i) => lines[i]!);
    await insertServiceLines(db, linesOf[key].map((serviceLineNumber) => ({ serviceLineNumber, productReferenceId: sim.fleet.serviceLine(serviceLineNumber)!.productReferenceId })));
    // Two terminals on the first line: the line is ended once, not once per terminal.
    const terminals = [linesOf[key][0]!, ...linesOf[key]];
    await insertTerminals(db, terminals.map((serviceLineNumber) => terminalRow({ userTerminalId: idOf(++terminal), serviceLineNumber, assignedCustomerId: customers[key] })));
  }
  // A line the inventory holds as ended already: nothing to end, and the provider is not asked.
  await insertServiceLines(db, [{ serviceLineNumber: lines[9]!, active: false }]);
  await insertTerminals(db, [terminalRow({ userTerminalId: idOf(++terminal), serviceLineNumber: lines[9]!, assignedCustomerId: customers.ending })]);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

const block = (customer: string, payload: Record<string, unknown>, token = admin) =>
  ctx.request({ method: 'PUT', url: `/api/v1/customers/${customer}`, token, payload });
const dataOf = (res: { json(): unknown }) => (res.json() as { data: CustomerUpdateData }).data;

async function stored(line: string) {
  const result = await ctx.database.db.execute(sql`SELECT active, end_date FROM service_lines WHERE service_line_number = ${line}`);
  return (result as unknown as { rows: { active: boolean; end_date: unknown }[] }).rows[0]!;
}
async function audits(line: string) {
  const result = await ctx.database.db.execute(sql`SELECT action, after FROM audit_log WHERE target_type = 'service_line' AND target_id = ${line} ORDER BY created_at`);
  return (result as unknown as { rows: { action: string; after: Record<string, unknown> }[] }).rows;
}
const providerEnd = (line: string) => sim.fleet.serviceLine(line)!.endDate;
const isBlocked = async (customer: string) =>
  ((await ctx.request({ method: 'GET', url: `/api/v1/customers/${customer}`, token: admin })).json() as { data: { customer: { blockedEnabled: boolean } } }).data.customer.blockedEnabled;

describe('blocking a customer', () => {
  it('without the flag blocks and ends nothing', async () => {
    const res = await block(customers.quiet, { blocked_enabled: true, blocked_reason: 'Unpaid invoices' });
    expect(res.statusCode).toBe(200);
    expect(dataOf(res)).toMatchObject({ customer: { blockedEnabled: true, blockedReason: 'Unpaid invoices' }, lineEndings: [] });
    for (const line of linesOf.quiet) {
      expect(providerEnd(line), line).toBeNull();
      expect((await stored(line)).end_date, line).toBeNull();
      expect(await audits(line), line).toEqual([]);
    }
  });

  it("with the flag sets each active line of that customer, and no other customer's, to end at the end of its cycle; one already ending says so", async () => {
    const [first, second, alreadyEnding] = linesOf.ending as [string, string, string];
    expect(sim.fleet.deactivateServiceLine(alreadyEnding, { endNow: false, reason: 'Asked by the customer last week' }).ok).toBe(true);

    const res = await block(customers.ending, { blocked_enabled: true, blocked_reason: ' Chargeback on the March invoice ', end_lines_at_cycle_end: true });
    expect(res.statusCode).toBe(200);
    const data = dataOf(res);
    expect(data.customer).toMatchObject({ blockedEnabled: true, blockedReason: 'Chargeback on the March invoice' });
    expect(data.lineEndings).toEqual([
      { serviceLineNumber: first, outcome: 'scheduled' },
      { serviceLineNumber: second, outcome: 'scheduled' },
      { serviceLineNumber: alreadyEnding, outcome: 'already_ending' },
    ]);
    for (const line of [first, second]) {
      expect(providerEnd(line), line).toBe('2026-03-31T23:59:59.000Z');
      expect(await stored(line), line).toMatchObject({ active: true });
      expect((await stored(line)).end_date, line).not.toBeNull();
      expect(await audits(line), line).toEqual([
        {
          action: 'service_line.deactivation_scheduled',
          after: expect.objectContaining({ serviceLineNumber: line, when: 'end_of_cycle', reason: 'Customer blocked: Chargeback on the March invoice', customer: 'Customer ending' }),
        },
      ]);
    }
    // Nothing new was written for the line that was ending already, nor for the ended one.
    expect(await audits(alreadyEnding)).toEqual([]);
    expect(await audits(lines[9]!)).toEqual([]);
    // Another customer's line is left alone.
    expect(providerEnd(linesOf.bystander[0]!)).toBeNull();
    expect(await audits(linesOf.bystander[0]!)).toEqual([]);
  });

  it("reports a provider refusal on one line in the provider's words; the customer stays blocked and the other lines end", async () => {
    const [first, second] = linesOf.refusal as [string, string];
    refused = first;
    try {
      const res = await block(customers.refusal, { blocked_enabled: true, blocked_reason: 'Fraud review', end_lines_at_cycle_end: true });
      expect(res.statusCode).toBe(200);
      expect(dataOf(res).lineEndings).toEqual([
        { serviceLineNumber: first, outcome: 'failed', message: `Service line ${first} is not active` },
        { serviceLineNumber: second, outcome: 'scheduled' },
      ]);
    } finally {
      refused = '';
    }
    expect(await isBlocked(customers.refusal)).toBe(true);
    expect(await audits(first)).toEqual([]);
    expect(providerEnd(second)).not.toBeNull();
    expect(await audits(second)).toHaveLength(1);
  });

  it('cuts the line reason to what the provider takes', () => {
    expect(blockedLineReason('Late')).toBe('Customer blocked: Late');
    const long = blockedLineReason('x'.repeat(500));
    expect(long).toHaveLength(DEACTIVATION_REASON_MAX_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('who may ask, and with what', () => {
  it('refuses the flag without blocked_enabled true (400, the error envelope), changing nothing', async () => {
    for (const payload of [
      { end_lines_at_cycle_end: true },
      { blocked_enabled: false, blocked_reason: null, end_lines_at_cycle_end: true },
      { name: 'Renamed', end_lines_at_cycle_end: true },
    ]) {
      const res = await block(customers.plain, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: CUSTOMER_SERVER_MESSAGES.endLinesWithoutBlock,
        errors: [{ path: 'end_lines_at_cycle_end', message: CUSTOMER_SERVER_MESSAGES.endLinesWithoutBlock }],
        requestId: expect.any(String),
      });
    }
    const notBoolean = await block(customers.plain, { blocked_enabled: true, blocked_reason: 'x', end_lines_at_cycle_end: 'yes' });
    expect(notBoolean.statusCode).toBe(400);
    expect(notBoolean.json()).toMatchObject({ success: false, message: expect.stringContaining('end_lines_at_cycle_end must be true or false') });
    expect(await isBlocked(customers.plain)).toBe(false);
    expect(providerEnd(linesOf.plain[0]!)).toBeNull();
  });

  it('refuses the flag to a portal user who manages customers but not their lines (403, nothing blocked), who may still block alone', async () => {
    const res = await block(customers.plain, { blocked_enabled: true, blocked_reason: 'Abuse', end_lines_at_cycle_end: true }, reader);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, message: permissionMessage('lifecycle:manage') });
    expect(await isBlocked(customers.plain)).toBe(false);
    expect(providerEnd(linesOf.plain[0]!)).toBeNull();

    const alone = await block(customers.plain, { blocked_enabled: true, blocked_reason: 'Abuse', end_lines_at_cycle_end: false }, reader);
    expect(alone.statusCode).toBe(200);
    expect(dataOf(alone)).toMatchObject({ customer: { blockedEnabled: true }, lineEndings: [] });
    expect(providerEnd(linesOf.plain[0]!)).toBeNull();
  });

  it('shows the flag and the per-line answer in the OpenAPI document', async () => {
    const document = (await ctx.app.swagger()) as unknown as {
      paths: Record<string, { put?: { requestBody: { content: Record<string, { schema: { properties: Record<string, { type?: string; description?: string }> } }> }; responses: Record<string, unknown> } }>;
    };
    const put = document.paths['/api/v1/customers/{uuid}']!.put!;
    const flag = put.requestBody.content['application/json']!.schema.properties.end_lines_at_cycle_end!;
    expect(flag).toMatchObject({ type: 'boolean', description: expect.stringContaining('blocked_enabled true') });
    expect(JSON.stringify(put.responses['200'])).toContain('lineEndings');
    expect(JSON.stringify(put.responses['200'])).toContain('already_ending');
  });
});
