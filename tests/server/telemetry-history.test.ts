// Telemetry over time, end to end against the simulator: every sync's readings are kept in day
// partitions; an outage the simulator injects opens at the terminal's last report and closes at
// the first reading that finds it online; the 24-hour chart reads each reading, 7 days the hourly
// roll-up and 13 months the daily one, with the hour in progress rolled up on read; the upkeep
// makes partitions ahead and drops expired ones whole; a range outside the kept history is a 400
// naming it; a customer sees their own terminal's history from the day it became theirs, and
// nobody else's; the fleet map places every terminal with a location and lists the rest.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { conditionIndex, isPlaceable, RAW_KEEP_DAYS, type FleetMapWire, type TelemetryHistoryWire } from '../../src/domain/telemetry-history';
import { TERMINAL_CONDITIONS, type SyncJob, type TerminalCondition } from '../../src/domain/terminals';
import type { RunningSimulator } from '../../server/simulator';
import { historyReading } from '../../server/services/terminal-sync-map';
import { acceptsGzip, mapBody } from '../../server/routes/telemetry-history';
import { successSchema } from '../../server/routes/schemas';
import { fleetMapSchema } from '../../server/routes/telemetry-history-schemas';
import { gunzipSync } from 'node:zlib';
import { createTestContext, type TestContext } from './helpers';
import { fastClient, runIdsOf, startFleet, waitForLatest, waitForRun } from './terminal-sync-fixtures';

const T0 = '2026-03-18T10:30:00.000Z';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let sim: RunningSimulator;
let ctx: TestContext;
let admin: string;
let now: () => Date = () => new Date(T0);
const db = () => ctx.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;
const get = (url: string, token = admin) => ctx.request({ method: 'GET', url: `/api/v1${url}`, token });
const data = <T>(response: { json(): unknown }) => (response.json() as { data: T }).data;
const history = async (terminalId: string, query: string, token = admin) => {
  const response = await get(`/terminals/${terminalId}/telemetry?${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return data<TelemetryHistoryWire>(response);
};

async function syncToEnd(): Promise<SyncJob> {
  const usageRuns = await runIdsOf(db(), 'usage');
  const res = await ctx.request({ method: 'POST', url: '/api/v1/terminals/sync', token: admin });
  expect(res.statusCode).toBe(202);
  const job = await waitForRun(ctx, admin, (res.json().data as SyncJob).id);
  await waitForLatest(db(), 'usage', undefined, usageRuns);
  expect(job.status).toBe('succeeded');
  return job;
}

/** An online terminal on an active line that is not ending: the outage's subject. */
let subject: string;
let adminLogin: { email: string; password: string };
/** After the clock moved days on, the admin's token has expired. */
const relogin = async () => {
  admin = (await ctx.login('admin', adminLogin.email, adminLogin.password)).token!;
};
const partitions = async () =>
  (
    await rows<{ name: string }>(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'telemetry_readings' ORDER BY 1`)
  ).map((r) => r.name);

beforeAll(async () => {
  sim = await startFleet({ terminals: 40, now: () => now() });
  ctx = await createTestContext({ now: T0, env: { SYNC_INTERVAL: 'off', USAGE_SYNC_INTERVAL: 'off' }, provider: { kind: 'simulator', client: () => fastClient(sim) } });
  now = ctx.clock.now;
  const owner = await ctx.createAdmin();
  adminLogin = { email: owner.email, password: owner.password };
  await relogin();
  const index = sim.fleet.userTerminalIds().findIndex((_, i) => {
    const t = sim.fleet.terminal(i);
    const line = t.serviceLineNumber ? sim.fleet.serviceLine(t.serviceLineNumber) : undefined;
    return line?.active && !line.endDate && Date.parse(T0) - Date.parse(sim.fleet.telemetryAt(i).timestamp) <= 60_000;
  });
  subject = sim.fleet.terminal(index).userTerminalId;
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await sim?.close();
});

describe('the history the syncs keep', () => {
  it('keeps every reading, and the outage the simulator injected from its last report to the reading that found it back', async () => {
    await syncToEnd();
    const [{ n: first }] = (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM telemetry_readings`)) as [{ n: number }];
    const [{ n: live }] = (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM terminals WHERE removed_at IS NULL`)) as [{ n: number }];
    expect(first).toBe(live);
    expect(await partitions()).toContain('telemetry_readings_20260318');

    const injected = sim.fleet.injectOutage(subject, 90);
    expect(injected.ok).toBe(true);
    ctx.clock.advanceMinutes(30);
    await syncToEnd();
    ctx.clock.advanceMinutes(90);
    await syncToEnd();

    const day = await history(subject, 'range=24h');
    expect(day.resolution).toBe('raw');
    expect(day.points.map((p) => p.at)).toEqual([T0, new Date(Date.parse(T0) + 30 * 60_000).toISOString(), new Date(Date.parse(T0) + 120 * 60_000).toISOString()]);
    expect(day.points.map((p) => p.onlineShare)).toEqual([1, 0, 1]);
    // An offline reading has no values: a gap in the chart, never a zero.
    expect(day.points[1]!.downlinkMbps).toBeNull();
    expect(day.points[0]!.downlinkMbps).not.toBeNull();
    expect(day.outages).toEqual([
      {
        startedAt: new Date(Math.floor(Date.parse(T0) / 15_000) * 15_000).toISOString(),
        endedAt: new Date(Date.parse(T0) + 120 * 60_000).toISOString(),
        durationSeconds: 120 * 60 - ((Date.parse(T0) / 1000) % 15),
      },
    ]);
    expect(day.firstReadingAt).toBe(T0);
  }, 120_000);

  it('reads 7 days from the hourly roll-up, rolled up or not, with the same averages as the readings', async () => {
    const before = await history(subject, 'range=7d');
    expect(before.resolution).toBe('hour');
    expect(before.bucketSeconds).toBe(3600);
    // Nothing rolled up yet: the hours come from the readings on read.
    const raw = await history(subject, 'range=24h');
    const byHour = new Map<string, number[]>();
    for (const p of raw.points) {
      const hour = new Date(Math.floor(Date.parse(p.at) / HOUR) * HOUR).toISOString();
      byHour.set(hour, [...(byHour.get(hour) ?? []), ...(p.latencyMs === null ? [] : [p.latencyMs])]);
    }
    const mean = (values: number[]) => (values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 100) / 100 : null);
    const expected = [...byHour].map(([at, values]) => ({ at, latencyMs: mean(values) }));
    expect(before.points.map((p) => ({ at: p.at, latencyMs: p.latencyMs }))).toEqual(expected);

    // The day in progress is not rolled up: its hours keep coming from the readings.
    ctx.clock.advance(HOUR);
    expect((await ctx.app.services.telemetryHistory.maintain()).hours).toBe(0);
    // After midnight the whole day is, in terminal order: a terminal's hours of a day sit together.
    ctx.clock.advance(DAY - (ctx.clock.now().getTime() % DAY) + 30 * 60_000);
    await relogin();
    const done = await ctx.app.services.telemetryHistory.maintain();
    expect(done.hours).toBeGreaterThan(0);
    const stored = await rows<{ key: number; bucket: string }>(sql`SELECT terminal_key AS key, bucket::text AS bucket FROM telemetry_hourly_202603 ORDER BY ctid`);
    expect(stored.length).toBeGreaterThan(1);
    const ordered = [...stored].sort((a, b) => a.key - b.key || a.bucket.localeCompare(b.bucket));
    expect(stored).toEqual(ordered);
    const after = await history(subject, 'range=7d');
    expect(after.points.map((p) => ({ at: p.at, latencyMs: p.latencyMs }))).toEqual(expected);
    expect(after.points.map((p) => p.samples)).toEqual(before.points.map((p) => p.samples));
    // The partitions of the next two days are made ahead.
    expect(await partitions()).toEqual(expect.arrayContaining(['telemetry_readings_20260318', 'telemetry_readings_20260319', 'telemetry_readings_20260320']));
  }, 60_000);

  it('drops expired raw partitions whole, keeps the roll-ups, and refuses a range outside what is kept', async () => {
    ctx.clock.advance((RAW_KEEP_DAYS + 1) * DAY);
    await relogin();
    await ctx.app.services.telemetryHistory.maintain();
    expect(await partitions()).not.toContain('telemetry_readings_20260318');
    const [{ n: raw }] = (await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM telemetry_readings`)) as [{ n: number }];
    expect(raw).toBe(0);

    const month = await history(subject, 'range=30d');
    expect(month.resolution).toBe('hour');
    expect(month.points.length).toBeGreaterThan(0);
    expect(month.outages).toHaveLength(1);
    const year = await history(subject, 'range=13m');
    expect(year.resolution).toBe('day');
    expect(year.points).toHaveLength(1);
    expect(year.points[0]!.at).toBe('2026-03-18T00:00:00.000Z');
    expect(year.points[0]!.samples).toBe(3);
    expect(year.points[0]!.onlineShare).toBeCloseTo(2 / 3, 4);

    const outside = await get(`/terminals/${subject}/telemetry?from=2026-03-18T00:00:00Z&to=2026-03-19T00:00:00Z`);
    expect(outside.statusCode).toBe(400);
    expect(outside.json().message).toBe(`The range 2026-03-18T00:00:00Z to 2026-03-19T00:00:00Z is outside the kept history, which starts ${new Date(ctx.clock.now().getTime() - RAW_KEEP_DAYS * DAY).toISOString()}`);
  });

  it('refuses bad ranges with 400s that name them, and an unknown terminal with 404', async () => {
    const cases: [string, RegExp][] = [
      ['range=1y', /range must be one of 24h, 7d, 30d, 13m/],
      ['range=7d&from=2026-03-20T00:00:00Z&to=2026-03-21T00:00:00Z', /either range or from and to/],
      ['from=2026-03-30T00:00:00Z', /both from and to/],
      ['from=2026-03-30T00:00:00Z&to=2026-03-29T00:00:00Z', /ends before it starts/],
      ['from=yesterday&to=2026-03-29T00:00:00Z', /from must be an ISO 8601 date and time/],
      ['from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z', /lies in the future/],
    ];
    for (const [query, message] of cases) {
      const response = await get(`/terminals/${subject}/telemetry?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toMatch(message);
    }
    expect((await get('/terminals/00000000-00000000-00000000/telemetry?range=24h')).statusCode).toBe(404);
  });
});

describe('provider values out of their range', () => {
  it('keeps them as null and names them, so a chart never draws them', () => {
    const at = new Date(T0);
    const reading = {
      userTerminalId: 'ut-1',
      timestamp: T0,
      uptimeSeconds: 100,
      downlinkThroughputMbps: 120,
      uplinkThroughputMbps: 10,
      popPingDropRateAvg: 0.01,
      popPingLatencyMsAvg: -4,
      obstructionPercentTime: 140,
      signalQuality: 1.7,
      softwareVersion: null,
      hardwareVersion: null,
      alerts: { alertMotorsStuck: true },
    };
    const kept = historyReading(reading, at, true);
    expect(kept.outOfRange.sort()).toEqual(['latencyMs', 'obstructionPercent', 'signalQuality']);
    expect(kept.reading).toMatchObject({ online: true, latencyMs: null, obstructionPercent: null, signalQuality: null, downlinkMbps: 120, alerts: 1 << 2 });
  });
});

describe("a customer's own terminal", () => {
  it('shows its history from the day it became theirs, and another customer gets 404', async () => {
    const ana = await ctx.createCustomer({ name: 'Ana History' });
    const bob = await ctx.createCustomer({ name: 'Bob History' });
    const since = new Date(ctx.clock.now().getTime() - 10 * DAY);
    await db().execute(sql`UPDATE terminals SET assigned_customer_id = ${ana.id}::uuid, assigned_at = ${since.toISOString()}::timestamptz WHERE user_terminal_id = ${subject}`);
    const anaToken = (await ctx.login('customer', ana.email, ana.password)).token!;
    const bobToken = (await ctx.login('customer', bob.email, bob.password)).token!;
    const own = await ctx.request({ method: 'GET', url: `/api/v1/my/terminals/${subject}/telemetry?range=30d`, token: anaToken });
    expect(own.statusCode, own.body).toBe(200);
    const shown = data<TelemetryHistoryWire>(own);
    // The readings of 2026-03-18 came before Ana held it.
    expect(shown.from).toBe(since.toISOString());
    expect(shown.points).toEqual([]);
    expect(shown.outages).toEqual([]);
    const other = await ctx.request({ method: 'GET', url: `/api/v1/my/terminals/${subject}/telemetry?range=30d`, token: bobToken });
    expect(other.statusCode).toBe(404);
    const preview = await get(`/customers/${ana.id}/preview/terminals/${subject}/telemetry?range=24h`);
    expect(preview.statusCode, preview.body).toBe(200);
  });
});

describe('the fleet map', () => {
  it('places every live terminal with a location, lists the rest, and filters by status and customer', async () => {
    const terminals = await rows<{ id: string; lat: number | null; lon: number | null; condition: string }>(
      sql`SELECT user_terminal_id AS id, latitude AS lat, longitude AS lon, condition FROM terminals WHERE removed_at IS NULL`,
    );
    // The database places them (the map's JSON is built there) by isPlaceable's rule: none without
    // a location, at 0,0 (a missing location as some sources send it), out of range or not a number;
    // the edges of the ranges are places.
    const others = terminals.filter((t) => t.id !== subject);
    const odd: [number | null, number | null][] = [[null, null], [0, 0], [91, 10], [10, -180.5], [Number.NaN, 5], [5, Number.POSITIVE_INFINITY], [-90, 180], [12.345678, -45.67891]];
    for (const [k, [lat, lon]] of odd.entries()) {
      const text = (v: number | null) => (v === null ? null : String(v));
      await db().execute(sql`UPDATE terminals SET latitude = ${text(lat)}::float8, longitude = ${text(lon)}::float8 WHERE user_terminal_id = ${others[k]!.id}`);
      Object.assign(others[k]!, { lat, lon });
    }
    const response = await get('/fleet/map');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const map = successSchema(fleetMapSchema).parse(response.json()).data;
    const located = terminals.filter((t) => isPlaceable(t.lat, t.lon));
    expect([...map.located.userTerminalIds].sort()).toEqual(located.map((t) => t.id).sort());
    expect(map.unlocated.total).toBe(terminals.length - located.length);
    expect(map.unlocated.terminals.map((t) => t.userTerminalId).sort()).toEqual(terminals.filter((t) => !isPlaceable(t.lat, t.lon)).map((t) => t.id).sort());
    const at = (id: string) => map.located.userTerminalIds.indexOf(id);
    // In whole ten-thousandths of a degree (about 11 m).
    expect([map.located.latitudesE4[at(others[6]!.id)], map.located.longitudesE4[at(others[6]!.id)]]).toEqual([-900_000, 1_800_000]);
    expect([map.located.latitudesE4[at(others[7]!.id)], map.located.longitudesE4[at(others[7]!.id)]]).toEqual([123_457, -456_789]);
    const i = at(subject);
    const row = terminals.find((t) => t.id === subject)!;
    expect(map.located.latitudesE4[i]! / 10_000).toBeCloseTo(row.lat!, 4);
    expect(map.located.conditions).toEqual(map.located.userTerminalIds.map((id) => conditionIndex(terminals.find((t) => t.id === id)!.condition as TerminalCondition)));
    const status = row.condition;
    const filtered = data<FleetMapWire>(await get(`/fleet/map?status=${status}`));
    expect(filtered.located.conditions.length).toBeGreaterThan(0);
    expect(filtered.located.conditions.every((c) => TERMINAL_CONDITIONS[c] === status)).toBe(true);
    const [{ customer }] = (await rows<{ customer: string }>(sql`SELECT assigned_customer_id::text AS customer FROM terminals WHERE user_terminal_id = ${subject}`)) as [{ customer: string }];
    const mine = data<FleetMapWire>(await get(`/fleet/map?customer_id=${customer}`));
    expect(mine.located.userTerminalIds).toEqual([subject]);
    // While the terminals are unchanged the answer made before is the answer, when it was made
    // included; a change to any terminal makes a new one.
    const service = ctx.app.services.telemetryHistory;
    const kept = await service.map({});
    expect(await service.map({})).toBe(kept);
    expect(JSON.parse(kept.json)).toEqual(map);
    await db().execute(sql`UPDATE terminals SET latitude = 45.5, longitude = 7.25 WHERE user_terminal_id = ${others[0]!.id}`);
    const moved = data<FleetMapWire>(await get('/fleet/map'));
    expect(await service.map({})).not.toBe(kept);
    // Once opened, the whole fleet's map is made again by the tick's upkeep after a change, so the
    // next look finds it made.
    const writes = vi.spyOn(ctx.app.repos.telemetryHistory, 'mapJson');
    try {
      await db().execute(sql`UPDATE terminals SET latitude = 45.75 WHERE user_terminal_id = ${others[0]!.id}`);
      await service.maintain();
      expect(writes).toHaveBeenCalledTimes(1);
      const ready = await service.map({});
      expect(writes).toHaveBeenCalledTimes(1);
      expect(JSON.parse(ready.json).located.latitudesE4[moved.located.userTerminalIds.indexOf(others[0]!.id)]).toBe(457_500);
      await service.maintain();
      expect(writes).toHaveBeenCalledTimes(1);
    } finally {
      writes.mockRestore();
    }
    expect([moved.located.latitudesE4[moved.located.userTerminalIds.indexOf(others[0]!.id)], moved.unlocated.total]).toEqual([455_000, map.unlocated.total - 1]);
    // A whole fleet's map is sent gzipped to a client that asks, as it is to one that does not.
    const asBrowser = await ctx.request({ method: 'GET', url: '/api/v1/fleet/map', token: admin, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    const plain = await get('/fleet/map');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const big = { json: JSON.stringify({ ids: Array.from({ length: 5_000 }, (_, k) => `terminal-${k}`) }), version: '1' };
    expect(JSON.parse(gunzipSync(await mapBody(big, true)).toString())).toEqual({ success: true, data: JSON.parse(big.json), message: 'Fleet map retrieved successfully' });
    expect(await mapBody(big, false)).toBe(`{"success":true,"data":${big.json},"message":"Fleet map retrieved successfully"}`);
    // This fleet's map is small: under 32 KB it goes out as it is, to anyone.
    expect([asBrowser.headers['content-encoding'], asBrowser.body]).toEqual([undefined, plain.body]);
    expect(acceptsGzip({ 'accept-encoding': 'gzip, deflate, br' })).toBe(true);
    expect(acceptsGzip({})).toBe(false);
    const bad = await get('/fleet/map?status=sleeping');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/status must be one of/);
  });
});
