// The Telemetry tab (src/routes/telemetry-panel.tsx) with its real telemetryHistory actor and API
// client, over a fake portal API at the fetch seam: the charts of a range (a missing value a gap),
// the range buttons, the outage timeline in words, the empty history, a failure and Try Again; then
// the tab where the pages put it: Terminal Details (admin), the customer's terminal page and the
// admin's "View as customer" preview of it.
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '../../src/domain/login';
import { TELEMETRY_RANGE_INFO, type TelemetryHistoryWire, type TelemetryPointWire, type TelemetryRange } from '../../src/domain/telemetry-history';
import { AppServicesProvider } from '../../src/routes/services';
import { TelemetryPanel } from '../../src/routes/telemetry-panel';
import { useAppServices } from '../../src/routes/services';
import { TELEMETRY_TEXTS, outageText, timeLabel } from '../../src/ui/telemetry/TelemetryView';
import { formatDateTime } from '../../src/ui/common/format';
import { adminProfile, customerProfile } from '../machines/fixtures';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth } from '../fixtures/terminals-ui';
import { createTestApp, openSignedInAt } from './open-app';
import { renderStrict } from './render';
import { myTerminalDetailWire } from '../fixtures/my-terminal';

const TERMINAL = 'UT-0001';

function point(at: string, values: Partial<TelemetryPointWire> = {}): TelemetryPointWire {
  return {
    at,
    downlinkMbps: 120,
    uplinkMbps: 15,
    latencyMs: 38,
    pingDropRate: 0.01,
    obstructionPercent: 0.5,
    signalQuality: 0.9,
    uptimeSeconds: 3600,
    onlineShare: 1,
    samples: 1,
    alerts: [],
    ...values,
  };
}

function history(more: Partial<TelemetryHistoryWire> = {}): TelemetryHistoryWire {
  return {
    userTerminalId: TERMINAL,
    range: '24h',
    from: '2026-03-17T10:30:00.000Z',
    to: '2026-03-18T10:30:00.000Z',
    resolution: 'raw',
    bucketSeconds: null,
    points: [
      point('2026-03-17T11:00:00.000Z'),
      // A reading the provider answered nothing for: a gap in every line, never a zero.
      point('2026-03-17T11:15:00.000Z', { downlinkMbps: null, latencyMs: null, signalQuality: null, pingDropRate: null, onlineShare: 0 }),
      point('2026-03-17T11:30:00.000Z', { downlinkMbps: 130.5, signalQuality: 0.95 }),
    ],
    outages: [],
    keptSince: '2026-03-04T10:30:00.000Z',
    firstReadingAt: '2026-03-01T00:00:00.000Z',
    ...more,
  };
}

const ongoing = { startedAt: '2026-03-18T09:00:00.000Z', endedAt: null, durationSeconds: 5400 };
const closed = { startedAt: '2026-03-17T15:00:00.000Z', endedAt: '2026-03-17T17:30:00.000Z', durationSeconds: 9000 };

type Answer = { status?: number; body: unknown } | Error;
const answered = (data: TelemetryHistoryWire): Answer => ({ body: { success: true, message: 'Telemetry history', data } });
const refused = (status: number, message: string): Answer => ({ status, body: { success: false, message } });

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Answers the telemetry route by range from `answers` (`hold` keeps a range's answer until
 * released); every other route is not found. Honours the request's abort signal, as fetch does.
 */
function fakeTelemetryFetch(answers: (range: string) => Answer, hold: readonly string[] = []) {
  const calls: string[] = [];
  const held = new Map<string, () => void>();
  const holding = new Set<string>(hold);
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(`${url.pathname}${url.search}`);
    const range = url.searchParams.get('range') ?? '';
    if (holding.has(range)) {
      await new Promise<void>((resolve, reject) => {
        held.set(range, resolve);
        init?.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
      });
    }
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    if (!url.pathname.endsWith('/telemetry')) return json(404, { success: false, message: `Route not found: ${url.pathname}` });
    const answer = answers(range);
    if (answer instanceof Error) throw answer;
    return json(answer.status ?? 200, answer.body);
  });
  return {
    fetch,
    calls,
    release: (range: string) => {
      holding.delete(range);
      held.get(range)?.();
    },
  };
}

function Harness() {
  const { api } = useAppServices();
  return <TelemetryPanel terminalId={TERMINAL} load={api.telemetry.terminalHistory} />;
}

/** The tab alone, with the app's services (its API client over the fake fetch); `hold`: ranges whose answers wait for `release`. */
function renderPanel(answers: (range: string) => Answer, hold: readonly string[] = []) {
  const fake = fakeTelemetryFetch(answers, hold);
  const app = createTestApp({ storage: localStorage, fetch: fake.fetch as typeof globalThis.fetch });
  const view = renderStrict(
    <AppServicesProvider services={app.services}>
      <Harness />
    </AppServicesProvider>,
  );
  return { ...view, ...fake };
}

const panel = () => within(screen.getByRole('region', { name: TELEMETRY_TEXTS.title }));
const chart = (title: string) => panel().getByRole('img', { name: new RegExp(`^${title.replace(/[()]/g, '\\$&')}\\.`) });
const seriesOf = (title: string) => JSON.parse(chart(title).dataset.series!) as (number | null)[][];
const rangeButton = (range: TelemetryRange) =>
  within(panel().getByRole('group', { name: TELEMETRY_TEXTS.ranges })).getByRole('button', { name: TELEMETRY_RANGE_INFO[range].label });
const telemetryCalls = (calls: string[]) => calls.filter((c) => c.includes('/telemetry'));

describe('the Telemetry tab', () => {
  it('draws the five charts of the 24 hours, a missing value a gap in the line and never a zero', async () => {
    renderPanel(() => answered(history()));
    expect(await panel().findByRole('img', { name: /^Throughput \(Mbps\)\./ })).toBeTruthy();
    expect(rangeButton('24h').getAttribute('aria-pressed')).toBe('true');
    expect(seriesOf(TELEMETRY_TEXTS.throughput)).toEqual([
      [120, null, 130.5],
      [15, 15, 15],
    ]);
    expect(seriesOf(TELEMETRY_TEXTS.latency)).toEqual([[38, null, 38]]);
    expect(seriesOf(TELEMETRY_TEXTS.quality)).toEqual([
      [1, null, 1],
      [0.5, 0.5, 0.5],
    ]);
    expect(seriesOf(TELEMETRY_TEXTS.signal)).toEqual([[90, null, 95]]);
    expect(seriesOf(TELEMETRY_TEXTS.online)).toEqual([[100, 0, 100]]);
    for (const title of [TELEMETRY_TEXTS.throughput, TELEMETRY_TEXTS.latency, TELEMETRY_TEXTS.quality, TELEMETRY_TEXTS.signal, TELEMETRY_TEXTS.online]) {
      expect(chart(title).dataset.spanGaps).toBe('false');
    }
    // Readings are labelled with their time of day; the figures are in words for those who do not see the canvas.
    expect(JSON.parse(chart(TELEMETRY_TEXTS.latency).dataset.labels!)).toEqual(history().points.map((p) => timeLabel(p.at, 'raw')));
    expect(timeLabel('2026-03-17T11:15:00.000Z', 'raw')).toMatch(/^\d\d:\d\d$/);
    expect(chart(TELEMETRY_TEXTS.latency).getAttribute('aria-label')).toBe('Latency (ms). Latency: average 38 ms, lowest 38, highest 38, 1 without a value');
  });

  it('draws a range whose every value is missing without breaking, and says so in words', async () => {
    const blank = { downlinkMbps: null, uplinkMbps: null, latencyMs: null, pingDropRate: null, obstructionPercent: null, signalQuality: null, uptimeSeconds: null };
    renderPanel(() => answered(history({ points: [point('2026-03-17T11:00:00.000Z', blank), point('2026-03-17T11:15:00.000Z', blank)] })));
    expect(await panel().findByRole('img', { name: 'Latency (ms). Latency: no values' })).toBeTruthy();
    expect(seriesOf(TELEMETRY_TEXTS.throughput)).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('choosing 7 days asks the server for that range and labels the hourly points by day and hour', async () => {
    const week = history({
      range: '7d',
      resolution: 'hour',
      bucketSeconds: 3600,
      from: '2026-03-11T10:30:00.000Z',
      points: [point('2026-03-12T08:00:00.000Z', { samples: 4 }), point('2026-03-12T09:00:00.000Z', { samples: 4 })],
    });
    const { user, calls } = renderPanel((range) => answered(range === '7d' ? week : history()));
    await panel().findByRole('img', { name: /^Latency/ });
    await user.click(rangeButton('7d'));
    await waitFor(() => expect(JSON.parse(chart(TELEMETRY_TEXTS.latency).dataset.labels!)).toEqual(week.points.map((p) => timeLabel(p.at, 'hour'))));
    expect(rangeButton('7d').getAttribute('aria-pressed')).toBe('true');
    expect(rangeButton('24h').getAttribute('aria-pressed')).toBe('false');
    expect(telemetryCalls(calls).at(-1)).toBe(`/api/v1/terminals/${TERMINAL}/telemetry?range=7d`);
    expect(timeLabel('2026-03-12T08:00:00.000Z', 'hour')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d\d:\d\d$/);
    expect(timeLabel('2026-03-12T00:00:00.000Z', 'day')).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 2026$/);
  });

  it('a range chosen while another loads: the earlier answer never shows', async () => {
    const month = history({ range: '30d', resolution: 'hour', bucketSeconds: 3600, points: [point('2026-02-20T08:00:00.000Z', { latencyMs: 77 })] });
    const fake = renderPanel((range) => answered(range === '30d' ? month : history()), ['24h']);
    await waitFor(() => expect(telemetryCalls(fake.calls).length).toBeGreaterThan(0));
    expect(panel().getByRole('status').textContent).toContain(TELEMETRY_TEXTS.loading);
    await fake.user.click(rangeButton('30d'));
    expect(await panel().findByRole('img', { name: /^Latency \(ms\)\. Latency: average 77 ms/ })).toBeTruthy();
    await act(async () => fake.release('24h'));
    expect(seriesOf(TELEMETRY_TEXTS.latency)).toEqual([[77]]);
    expect(rangeButton('30d').getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the outages as bars over the range and in words, the ongoing one included', async () => {
    renderPanel(() => answered(history({ outages: [closed, ongoing] })));
    const name = `2 outages from ${formatDateTime('2026-03-17T10:30:00.000Z')} to ${formatDateTime('2026-03-18T10:30:00.000Z')}`;
    const timeline = await panel().findByRole('img', { name });
    const bars = [...timeline.querySelectorAll<HTMLElement>('.telemetry-outage-bar')];
    // 4.5 h into a 24 h range, 2.5 h long; the ongoing one from 22.5 h to the end.
    expect(bars.map((bar) => [parseFloat(bar.style.left).toFixed(2), bar.style.width])).toEqual([
      ['18.75', '10.416666666666668%'],
      ['93.75', '6.25%'],
    ]);
    const list = within(panel().getByRole('region', { name: TELEMETRY_TEXTS.outages })).getAllByRole('listitem').map((item) => item.textContent);
    expect(list).toEqual([
      `Offline from ${formatDateTime(closed.startedAt)} to ${formatDateTime(closed.endedAt)} (2h 30m)`,
      `Offline since ${formatDateTime(ongoing.startedAt)} (ongoing)`,
    ]);
    expect(outageText({ ...closed, durationSeconds: 20 })).toMatch(/\(under a minute\)$/);
  });

  it('says "No outages in this range" when there were none', async () => {
    renderPanel(() => answered(history()));
    const outages = await panel().findByRole('region', { name: TELEMETRY_TEXTS.outages });
    expect(within(outages).getByText(TELEMETRY_TEXTS.noOutages)).toBeTruthy();
    expect(within(outages).queryByRole('img')).toBeNull();
  });

  it('a terminal with no readings yet says history starts with the next sync, and draws no chart', async () => {
    renderPanel(() => answered(history({ points: [], firstReadingAt: null })));
    expect(await panel().findByText(TELEMETRY_TEXTS.noReadings)).toBeTruthy();
    expect(panel().queryAllByRole('img')).toHaveLength(0);
  });

  it('a range with no readings of a terminal that has some says since when its history is kept', async () => {
    renderPanel(() => answered(history({ points: [], firstReadingAt: '2026-03-01T00:00:00.000Z' })));
    expect(await panel().findByText(TELEMETRY_TEXTS.noReadingsInRange)).toBeTruthy();
    expect(panel().getByText(TELEMETRY_TEXTS.keptSince(formatDateTime('2026-03-01T00:00:00.000Z')))).toBeTruthy();
  });

  it("a refusal shows the server's message with Try Again, which asks again and draws the charts", async () => {
    let refuse = true;
    const { user, calls } = renderPanel(() => (refuse ? refused(404, 'Terminal not found') : answered(history())));
    const alert = await panel().findByRole('alert');
    expect(within(alert).getByText('Terminal not found')).toBeTruthy();
    expect(within(alert).getByText(TELEMETRY_TEXTS.loadFailed)).toBeTruthy();
    const before = telemetryCalls(calls).length;
    refuse = false;
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await panel().findByRole('img', { name: /^Throughput/ })).toBeTruthy();
    expect(telemetryCalls(calls).length).toBe(before + 1);
    expect(panel().queryByRole('alert')).toBeNull();
  });

  it('no answer at all reads as the network failure, with Try Again', async () => {
    renderPanel(() => new TypeError('fetch failed'));
    const alert = await panel().findByRole('alert');
    expect(within(alert).getByText(NETWORK_ERROR_MESSAGE)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try Again' })).toBeTruthy();
  });
});

// ---- Where the pages put it ------------------------------------------------------------------

const ok = (data: unknown) => json(200, { success: true, message: 'ok', data });

const myDetail = myTerminalDetailWire(TERMINAL, ['2026-03']);

/** A fake portal API answering `routes` by path (GET), and 404 for the rest. */
function portal(routes: Record<string, unknown>) {
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(`${url.pathname}${url.search}`);
    const data = routes[url.pathname];
    if (url.pathname.endsWith('/telemetry')) return ok(history());
    return data === undefined ? json(404, { success: false, message: `Route not found: ${url.pathname}` }) : ok(data);
  });
  return { fetch, calls };
}

describe('the Telemetry tab on the pages', () => {
  it("Terminal Details has a Telemetry tab that reads the admin's history of the terminal", async () => {
    const row = terminalRowWire({ user_terminal_id: TERMINAL, service_line_number: 'AST-511274-31364-54' });
    const api = portal({
      '/api/v1/auth/me': { user: adminProfile },
      '/api/v1/terminals': { results: [row], totalCount: 1, page: 1, limit: 25 },
      '/api/v1/terminals/health': fleetHealth({ total: 1 }),
    });
    const { user } = openSignedInAt(`/terminals?terminal=${TERMINAL}`, api.fetch);
    const dialog = await screen.findByRole('dialog', { name: 'Terminal Details' }, { timeout: 5000 });
    expect(within(dialog).getAllByRole('tab').map((t) => t.textContent).slice(0, 4)).toEqual(['Information', 'Usage', 'Status', 'Telemetry']);
    // Nothing is read until the tab shows.
    expect(telemetryCalls(api.calls)).toEqual([]);
    await user.click(within(dialog).getByRole('tab', { name: 'Telemetry' }));
    expect(await within(dialog).findByRole('img', { name: /^Throughput/ })).toBeTruthy();
    expect(telemetryCalls(api.calls).at(-1)).toBe(`/api/v1/terminals/${TERMINAL}/telemetry?range=24h`);
  });

  it("the customer's terminal page keeps its details under Details and reads their own history under Telemetry", async () => {
    const api = portal({ '/api/v1/customers/auth/me': { customer: customerProfile }, [`/api/v1/my/terminals/${TERMINAL}`]: myDetail });
    const { user } = openSignedInAt(`/my/terminals/${TERMINAL}`, api.fetch, { profile: customerProfile });
    expect(await screen.findByRole('heading', { level: 1, name: 'North Barn' }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Details' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('button', { name: 'Rename' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Telemetry' }));
    expect(await panel().findByRole('img', { name: /^Signal quality/ })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'North Barn' })).toBeTruthy();
    expect(telemetryCalls(api.calls)).toContain(`/api/v1/my/terminals/${TERMINAL}/telemetry?range=24h`);
  });

  it("the admin's preview of the page reads the history through the preview's route", async () => {
    const uuid = '7d3e9a41-5b2c-4d8e-9f10-2a3b4c5d6e7f';
    const preview = `/api/v1/customers/${uuid}/preview`;
    const created = '2026-01-01T00:00:00.000Z';
    const customer = { uuid, name: 'Northwind Shipping', email: 'ops@northwind.example', company: 'Northwind Shipping', isActive: true, createdAt: created, updatedAt: created };
    const api = portal({ '/api/v1/auth/me': { user: adminProfile }, [`${preview}/terminals/${TERMINAL}`]: myDetail });
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) =>
      new URL(String(input), 'http://localhost').pathname === preview && init?.method === 'POST' ? ok({ customer }) : api.fetch(input),
    );
    const { user } = openSignedInAt(`/customers/${uuid}/preview/terminals/${TERMINAL}`, fetch);
    await user.click(await screen.findByRole('tab', { name: 'Telemetry' }, { timeout: 5000 }));
    expect(await panel().findByRole('img', { name: /^Latency/ })).toBeTruthy();
    expect(telemetryCalls(api.calls)).toContain(`${preview}/terminals/${TERMINAL}/telemetry?range=24h`);
  });
});
