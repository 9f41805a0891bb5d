// The simulator's own controls (SIM_CONTROLS=on): a traffic surge on a line shows in the very
// next usage query of the provider's API; an outage takes a terminal offline for the minutes asked;
// they are absent unless turned on, and refuse a bad amount or an unknown line or terminal with the
// provider's error envelope.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulatorOptionsFromEnv, startSimulator, type RunningSimulator } from '../../server/simulator';
import { fastClient } from './terminal-sync-fixtures';

const NOW = new Date('2026-03-15T12:00:00.000Z');
let on: RunningSimulator;
let off: RunningSimulator;

beforeAll(async () => {
  on = await startSimulator({ port: 0, terminals: 20, now: () => NOW, ...simulatorOptionsFromEnv({ SIM_CONTROLS: 'on' }) });
  off = await startSimulator({ port: 0, terminals: 20, now: () => NOW });
});
afterAll(async () => {
  await Promise.all([on?.close(), off?.close()]);
});

const surge = (sim: RunningSimulator, line: string, body: unknown) =>
  fetch(`${sim.baseUrl}/controls/service-lines/${line}/surge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const billableThisCycle = async (sim: RunningSimulator, line: string) => {
  const usage = await fastClient(sim).queryDataUsage({ serviceLineNumbers: [line] });
  const cycle = usage.items[0]!.billingCycles.at(-1)!;
  // Opt-in Priority GB are part of the Priority GB (the share past the cap), not on top of them.
  return cycle.dailyDataUsage.reduce((sum, d) => sum + d.priorityGB + d.standardGB, 0);
};

describe('the simulator controls', () => {
  it('adds the surge to the line this cycle, reported at once', async () => {
    const line = on.fleet.knownServiceLineNumber;
    const before = await billableThisCycle(on, line);
    const response = await surge(on, line, { gb: 40 });
    expect(response.status).toBe(200);
    expect(await billableThisCycle(on, line)).toBeCloseTo(before + 40, 1);
  });

  it('refuses a bad amount and an unknown line, and is not there unless turned on', async () => {
    expect((await surge(on, on.fleet.knownServiceLineNumber, { gb: -1 })).status).toBe(400);
    expect((await surge(on, on.fleet.knownServiceLineNumber, { gb: 'lots' })).status).toBe(400);
    expect((await surge(on, 'AST-000000-00000-00', { gb: 1 })).status).toBe(404);
    expect((await surge(off, off.fleet.knownServiceLineNumber, { gb: 1 })).status).toBe(404);
  });

  it('takes a terminal offline for the minutes asked: its telemetry shows the last report before, and a bad request is refused', async () => {
    const outage = (sim: RunningSimulator, id: string, body: unknown) =>
      fetch(`${sim.baseUrl}/controls/user-terminals/${id}/outage`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const online = (i: number) => NOW.getTime() - Date.parse(on.fleet.telemetryAt(i).timestamp) <= 60_000;
    const index = on.fleet.userTerminalIds().findIndex((_, i) => online(i));
    const id = on.fleet.userTerminalIds()[index]!;
    const response = await outage(on, id, { minutes: 90 });
    expect(response.status).toBe(200);
    // The clock has not moved: the last report is the one of the outage's start, as the terminal's next one never came.
    expect(Date.parse(on.fleet.telemetryAt(index).timestamp)).toBe(Math.floor(NOW.getTime() / 15_000) * 15_000);
    const reading = (await fastClient(on).queryTelemetry([id])).userTerminals[id]!;
    expect(Date.parse(reading.timestamp!)).toBeLessThanOrEqual(NOW.getTime());
    expect(NOW.getTime() - Date.parse(reading.timestamp!)).toBeLessThan(15_000);
    expect((await outage(on, id, { minutes: 0 })).status).toBe(400);
    expect((await outage(on, id, { minutes: 'long' })).status).toBe(400);
    expect((await outage(on, '00000000-00000000-00000000', { minutes: 5 })).status).toBe(404);
    expect((await outage(off, id, { minutes: 5 })).status).toBe(404);
  });
});
