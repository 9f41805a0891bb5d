// The terminals and routers of a service line over HTTP against the real simulator (Terminal
// Details → Settings): a terminal moved to another line or taken off its line is so at the
// provider and, at once, in the inventory; a router behind a terminal of the line is rebooted or
// given one of the account's configurations. Each change is audited; each refusal (ours or the
// provider's) is a 4xx that changes nothing; a user-role portal user reads but cannot change.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_LINE_MESSAGES as M, type ServiceLineSettingsWire } from '../../src/domain/service-lines';
import type { SyncJob } from '../../src/domain/terminals';
import type { StarlinkClient } from '../../server/provider';
import type { ProviderUserTerminal } from '../../server/provider/schemas';
import type { RunningSimulator } from '../../server/simulator';
import { createTestContext, type TestContext } from './helpers';
import { SYNC_TEST_TIME, fastClient, runIdsOf, startFleet, waitForLatest, waitForRun } from './terminal-sync-fixtures';

let sim: RunningSimulator;
let provider: StarlinkClient;
let ctx: TestContext;
let admin: string;
let reader: string;

beforeAll(async () => {
  sim = await startFleet({ terminals: 40 });
  provider = fastClient(sim);
  ctx = await createTestContext({ now: SYNC_TEST_TIME, env: { SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => provider } });
  const created = await ctx.createAdmin();
  admin = (await ctx.login('admin', created.email, created.password)).token!;
  const user = await ctx.createAdmin({ role: 'user' });
  reader = (await ctx.login('admin', user.email, user.password)).token!;
  // The inventory as the provider has it, so the lines' terminals are known locally.
  const usageRuns = await runIdsOf(ctx.database.db, 'usage');
  const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
  expect(res.statusCode).toBe(202);
  expect(await waitForRun(ctx, admin, (res.json().data as SyncJob).id, 60_000)).toMatchObject({ status: 'succeeded' });
  await waitForLatest(ctx.database.db, 'usage', 60_000, usageRuns);
});
afterAll(async () => {
  await ctx.close();
  await sim.close();
});

const providerTerminals = async () => (await provider.listUserTerminals()).items;
const activeLine = (n: string) => {
  const line = sim.fleet.serviceLine(n);
  return line !== undefined && line.active && !line.endDate;
};
/** A terminal of the provider on an active line, with or without a router, not among `skip`. */
async function terminalOnActiveLine(withRouter: boolean, skip: string[] = []): Promise<ProviderUserTerminal & { serviceLineNumber: string }> {
  const found = (await providerTerminals()).find(
    (t) => t.serviceLineNumber !== null && activeLine(t.serviceLineNumber) && t.routers.length > 0 === withRouter && !skip.includes(t.userTerminalId),
  );
  expect(found).toBeDefined();
  return found as ProviderUserTerminal & { serviceLineNumber: string };
}

const url = (line: string, rest: string) => `/api/v1/service-lines/${line}/${rest}`;
const settingsOf = async (line: string) => {
  const res = await ctx.request({ method: 'GET', url: url(line, 'settings'), token: admin });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: ServiceLineSettingsWire }).data;
};
async function storedLineOf(userTerminalId: string): Promise<string | null> {
  const result = await ctx.database.db.execute(sql`SELECT service_line_number FROM terminals WHERE user_terminal_id = ${userTerminalId}`);
  return (result as unknown as { rows: { service_line_number: string | null }[] }).rows[0]!.service_line_number;
}
async function audits(targetType: string, targetId: string) {
  const result = await ctx.database.db.execute(sql`SELECT action, before, after FROM audit_log WHERE target_type = ${targetType} AND target_id = ${targetId} ORDER BY created_at`);
  return (result as unknown as { rows: { action: string; before: Record<string, unknown>; after: Record<string, unknown> }[] }).rows;
}

describe("a line's terminals and routers in its settings", () => {
  it('lists each terminal with the routers the provider reports behind it, and the account configurations once a router is there', async () => {
    const terminal = await terminalOnActiveLine(true);
    await provider.createRouterConfig({ nickname: 'Guest Wi-Fi', routerConfigJson: '{"wifi":{"ssid":"guest"}}' });
    const settings = await settingsOf(terminal.serviceLineNumber);
    const listed = settings.terminals.find((t) => t.deviceId === terminal.userTerminalId);
    expect(listed?.routers).toEqual(terminal.routers.map((r) => ({ routerId: r.routerId, nickname: r.nickname, configId: r.configId })));
    expect(settings.routerConfigs).toContainEqual(expect.objectContaining({ nickname: 'Guest Wi-Fi' }));
  });

  it('is read for the answer of a change, not for the checks of one that does not touch it (each read is a provider call)', async () => {
    const terminal = await terminalOnActiveLine(true);
    const before = provider.usage().requests;
    const res = await ctx.request({ method: 'PUT', url: url(terminal.serviceLineNumber, 'nickname'), token: admin, payload: { nickname: 'Counted' } });
    expect(res.statusCode).toBe(200);
    // The line for the checks; the rename; the line again, its partial periods, its terminals and
    // the account's router configurations for the answer.
    expect(provider.usage().requests - before).toBe(6);
    expect((res.json() as { data: ServiceLineSettingsWire }).data.terminals.find((t) => t.deviceId === terminal.userTerminalId)?.routers).toHaveLength(terminal.routers.length);
  });
});

describe('routers', () => {
  it('reboots a router of the line, audited; a router that is not behind the line is a 404', async () => {
    const terminal = await terminalOnActiveLine(true);
    const routerId = terminal.routers[0]!.routerId;
    const res = await ctx.request({ method: 'POST', url: url(terminal.serviceLineNumber, `routers/${routerId}/reboot`), token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: M.routerRebooted });
    expect(await audits('service_line', terminal.serviceLineNumber)).toContainEqual(expect.objectContaining({ action: 'router.rebooted', after: expect.objectContaining({ routerId }) }));

    const other = await terminalOnActiveLine(true, [terminal.userTerminalId]);
    const elsewhere = await ctx.request({ method: 'POST', url: url(terminal.serviceLineNumber, `routers/${other.routers[0]!.routerId}/reboot`), token: admin });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject({ success: false, message: M.routerNotOnLine });
  });

  it("assigns one of the account's configurations and back to the default; an unknown one is a 400, the same one a 409", async () => {
    const terminal = await terminalOnActiveLine(true);
    const routerId = terminal.routers[0]!.routerId;
    const config = await provider.createRouterConfig({ nickname: 'Crew', routerConfigJson: '{"wifi":{"ssid":"crew"}}' });
    const path = url(terminal.serviceLineNumber, `routers/${routerId}/config`);

    const unknown = await ctx.request({ method: 'PUT', url: path, token: admin, payload: { configId: 'no-such-config' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: M.unknownConfig });

    const set = await ctx.request({ method: 'PUT', url: path, token: admin, payload: { configId: config.configId } });
    expect(set.statusCode).toBe(200);
    const routerOf = (s: ServiceLineSettingsWire) => s.terminals.flatMap((t) => t.routers).find((r) => r.routerId === routerId);
    expect(routerOf((set.json() as { data: ServiceLineSettingsWire }).data)?.configId).toBe(config.configId);
    expect((await provider.getRouter(routerId)).configId).toBe(config.configId);

    const again = await ctx.request({ method: 'PUT', url: path, token: admin, payload: { configId: config.configId } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: M.noChange });

    const back = await ctx.request({ method: 'PUT', url: path, token: admin, payload: { configId: null } });
    expect(back.statusCode).toBe(200);
    expect((await provider.getRouter(routerId)).configId).toBeNull();
    expect((await audits('service_line', terminal.serviceLineNumber)).filter((a) => a.action === 'router.config_assigned').map((a) => a.after.configId)).toEqual([config.configId, null]);
  });
});

describe('moving and removing terminals', () => {
  it('moves a terminal to another active line: on the provider, in the inventory at once, audited, and gone from this line', async () => {
    const terminal = await terminalOnActiveLine(false);
    const from = terminal.serviceLineNumber;
    const to = sim.fleet.serviceLineNumbers().find((n) => n !== from && activeLine(n))!;
    const res = await ctx.request({ method: 'POST', url: url(from, `terminals/${terminal.userTerminalId}/move`), token: admin, payload: { toServiceLineNumber: to } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: M.terminalMoved });
    expect((res.json() as { data: ServiceLineSettingsWire }).data.terminals.map((t) => t.deviceId)).not.toContain(terminal.userTerminalId);
    const [now] = (await provider.listUserTerminals({ userTerminalIds: [terminal.userTerminalId] })).items;
    expect(now?.serviceLineNumber).toBe(to);
    expect(await storedLineOf(terminal.userTerminalId)).toBe(to);
    expect(await audits('terminal', terminal.userTerminalId)).toContainEqual(expect.objectContaining({ action: 'terminal.moved', before: { serviceLineNumber: from } }));
  });

  it('refuses a target that is this line, unknown or not active, and a terminal that is not on the line, changing nothing', async () => {
    const terminal = await terminalOnActiveLine(false);
    const from = terminal.serviceLineNumber;
    const move = (payload: Record<string, unknown>, device = terminal.userTerminalId) =>
      ctx.request({ method: 'POST', url: url(from, `terminals/${device}/move`), token: admin, payload });

    const same = await move({ toServiceLineNumber: from });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ message: M.sameLine });
    const unknown = await move({ toServiceLineNumber: 'AST-000000-00000-00' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ message: M.targetNotFound });
    const badNumber = await move({ toServiceLineNumber: 'not a line!' });
    expect(badNumber.statusCode).toBe(400);
    // A line of the inventory the provider has ended since (the inventory still says active).
    const other = (await providerTerminals()).find((t) => t.serviceLineNumber !== null && t.serviceLineNumber !== from && activeLine(t.serviceLineNumber))!;
    const ending = sim.fleet.serviceLineNumbers().find((n) => n !== from && n !== other.serviceLineNumber && activeLine(n))!;
    await provider.deactivateServiceLine(ending, { endNow: true, reason: 'test' });
    const ended = await move({ toServiceLineNumber: ending });
    expect(ended.statusCode).toBe(409);
    expect(ended.json()).toMatchObject({ message: M.targetInactive });

    const notHere = await move({ toServiceLineNumber: other.serviceLineNumber! }, other.userTerminalId);
    expect(notHere.statusCode).toBe(404);
    expect(notHere.json()).toMatchObject({ message: M.terminalNotOnLine });

    const [still] = (await provider.listUserTerminals({ userTerminalIds: [terminal.userTerminalId] })).items;
    expect(still?.serviceLineNumber).toBe(from);
    expect(await storedLineOf(terminal.userTerminalId)).toBe(from);
  });

  it('takes a terminal off its line: on no line at the provider and in the inventory, still on the account, audited', async () => {
    const terminal = await terminalOnActiveLine(false);
    const res = await ctx.request({ method: 'DELETE', url: url(terminal.serviceLineNumber, `terminals/${terminal.userTerminalId}`), token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: M.terminalRemoved });
    const [now] = (await provider.listUserTerminals({ userTerminalIds: [terminal.userTerminalId] })).items;
    expect(now).toBeDefined();
    expect(now!.serviceLineNumber).toBeNull();
    expect(await storedLineOf(terminal.userTerminalId)).toBeNull();
    expect(await audits('terminal', terminal.userTerminalId)).toContainEqual(
      expect.objectContaining({ action: 'terminal.removed_from_line', before: { serviceLineNumber: terminal.serviceLineNumber } }),
    );
  });

  it('is for administrators: a user-role portal user gets 403 on every change and nothing moves', async () => {
    const terminal = await terminalOnActiveLine(true);
    const line = terminal.serviceLineNumber;
    const routerId = terminal.routers[0]!.routerId;
    const attempts = [
      { method: 'POST' as const, url: url(line, `terminals/${terminal.userTerminalId}/move`), payload: { toServiceLineNumber: 'AST-000000-00000-00' } },
      { method: 'DELETE' as const, url: url(line, `terminals/${terminal.userTerminalId}`) },
      { method: 'POST' as const, url: url(line, `routers/${routerId}/reboot`) },
      { method: 'PUT' as const, url: url(line, `routers/${routerId}/config`), payload: { configId: null } },
    ];
    for (const attempt of attempts) {
      const res = await ctx.request({ ...attempt, token: reader });
      expect(res.statusCode, attempt.url).toBe(403);
    }
    expect(await storedLineOf(terminal.userTerminalId)).toBe(line);
  });
});
