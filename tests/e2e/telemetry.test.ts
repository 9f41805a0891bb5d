// Telemetry over time and the fleet map in Chromium against the real server and its simulator: the
// admin syncs the fleet, the simulator takes one terminal offline for a day and a half, a sync a
// day later finds it offline and the one a day after that finds it back. The terminal's Telemetry
// tab then shows the 7-day chart with that outage on its timeline and in words. The fleet map
// shows one pin, or a share of a cluster, for every terminal with a location.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { TERMINAL_CONDITIONS, type SyncJob } from '../../src/domain/terminals';
import type { FleetMapWire, TelemetryHistoryWire } from '../../src/domain/telemetry-history';
import { signInAsAdminAt, useBrowserSession, until } from './harness';

// Syncs only when asked, so that each reading is the journey's own.
const session = useBrowserSession({ SIM_CONTROLS: 'on', SYNC_INTERVAL: 'off' });

async function syncToEnd(page: Page): Promise<void> {
  const job = await session.api<SyncJob>(page, '/terminals/sync', { method: 'POST' });
  await until(`sync ${job.id} to finish`, async () => {
    const run = await session.api<SyncJob>(page, `/terminals/sync/job/${job.id}`);
    if (run.status === 'failed') throw new Error(`the sync failed: ${run.message ?? ''}`);
    return run.status === 'succeeded';
  });
}

const control = (path: string, body: unknown) =>
  fetch(`${session.portal.url}/simulator/api/controls/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A day on for the portal and its simulator; the admin's session has expired meanwhile. */
async function aDayLater(): Promise<Page> {
  expect((await control('clock', { days: 1 })).status).toBe(200);
  await session.freshContext();
  const page = await session.context.newPage();
  await signInAsAdminAt(page, session.portal, '/terminals');
  return page;
}

describe('telemetry history and the fleet map in the browser', () => {
  it("shows the 7-day chart with the outage the simulator injected, and the map places every terminal with a location", async () => {
    const { portal } = session;
    let page = await session.context.newPage();
    await signInAsAdminAt(page, portal, '/terminals');
    await syncToEnd(page);

    // An active terminal, reporting now: the outage's subject.
    const fleet = await session.api<FleetMapWire>(page, '/fleet/map?status=active');
    const subject = fleet.located.userTerminalIds[0]!;
    expect(subject).toBeTruthy();
    expect((await control(`user-terminals/${subject}/outage`, { minutes: 36 * 60 })).status).toBe(200);

    page = await aDayLater();
    await syncToEnd(page);
    page = await aDayLater();
    await syncToEnd(page);

    const history = await session.api<TelemetryHistoryWire>(page, `/terminals/${subject}/telemetry?range=7d`);
    expect(history.outages).toHaveLength(1);
    expect(history.outages[0]!.endedAt).not.toBeNull();
    expect(history.points.map((p) => p.onlineShare)).toEqual([1, 0, 1]);

    // The terminal's dialog, its Telemetry tab, 7 days.
    await page.goto(`${portal.url}/terminals?terminal=${subject}`);
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Telemetry' }).click();
    const ranges = dialog.getByRole('group', { name: 'Telemetry range' });
    await ranges.getByRole('button', { name: '7 days' }).click();
    await expect.poll(() => ranges.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    // The charts are drawn (canvases with their figures in words: the offline reading is a gap) and
    // the outage is on the timeline and listed: from the last report before it to the sync that
    // found it back, two days on.
    const throughput = dialog.locator('canvas[aria-label^="Throughput"]');
    await throughput.waitFor();
    expect(await throughput.getAttribute('aria-label')).toMatch(/1 without a value/);
    await dialog.getByText(/^Offline from .+ to .+ \(2d 0h\)$/).waitFor();
    expect(await dialog.locator('canvas').count()).toBeGreaterThanOrEqual(4);

    // The map: a pin or a share of a cluster for every terminal with a location.
    const whole = await session.api<FleetMapWire>(page, '/fleet/map');
    await page.goto(`${portal.url}/terminals/map`);
    await page.getByRole('group', { name: 'Fleet map' }).waitFor();
    await page.getByText(`${whole.located.userTerminalIds.length} terminals on the map`).waitFor();
    const pins = await page.getByRole('link', { name: new RegExp(`, (${TERMINAL_CONDITIONS.map((c) => c[0]!.toUpperCase() + c.slice(1)).join('|')})$`) }).count();
    const clusterLabels = await page.locator('g[role="button"][aria-label]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label') ?? ''));
    const inClusters = clusterLabels.reduce((sum, label) => sum + Number(/^([\d,]+) terminals?:/.exec(label)?.[1]?.replace(/,/g, '') ?? 0), 0);
    expect(pins + inClusters).toBe(whole.located.userTerminalIds.length);
  }, 300_000);
});
