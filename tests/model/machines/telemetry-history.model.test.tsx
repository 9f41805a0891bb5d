// The Telemetry tab (telemetryHistory machine): its generated paths walked on the machine and
// through the Telemetry tab of the customer's /my/terminals/$terminalId page, plus journeys pinned
// by hand (a range chosen while another loads; the view read from the chart).
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { TELEMETRY_RANGE_INFO, type TelemetryHistoryWire, type TelemetryRange } from '../../../src/domain/telemetry-history';
import { FALLBACK_LOAD_ERROR } from '../../../src/machines/resource';
import { telemetryHistoryMachine, telemetryHistoryView, type TelemetryHistoryOutcome, type TelemetryHistoryRequest } from '../../../src/machines/telemetry-history';
import { TELEMETRY_TEXTS } from '../../../src/ui/telemetry/TelemetryView';
import { customerProfile } from '../../machines/fixtures';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed, type ModelSeam } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { myTerminalDetailWire } from '../../fixtures/my-terminal';

const TERMINAL = 'UT1001';
const NOT_FOUND = 'Terminal not found';

function history(points: number, outages: TelemetryHistoryWire['outages'] = []): TelemetryHistoryWire {
  return {
    userTerminalId: TERMINAL,
    range: '24h',
    from: '2026-03-17T10:30:00.000Z',
    to: '2026-03-18T10:30:00.000Z',
    resolution: 'raw',
    bucketSeconds: null,
    points: Array.from({ length: points }, (_, i) => ({
      at: new Date(Date.parse('2026-03-17T11:00:00.000Z') + i * 3_600_000).toISOString(),
      downlinkMbps: 120 + i,
      uplinkMbps: 15,
      // A reading without a latency: a gap, never zero.
      latencyMs: i === 1 ? null : 38,
      pingDropRate: 0.01,
      obstructionPercent: 0.5,
      signalQuality: 0.9,
      uptimeSeconds: 3600 * (i + 1),
      onlineShare: 1,
      samples: 1,
      alerts: [],
    })),
    outages,
    keptSince: '2026-03-04T10:30:00.000Z',
    firstReadingAt: points > 0 ? '2026-03-17T11:00:00.000Z' : null,
  };
}

const withReadings = history(3, [{ startedAt: '2026-03-17T15:00:00.000Z', endedAt: '2026-03-17T17:30:00.000Z', durationSeconds: 9000 }]);
const noReadings = history(0);

const detail = myTerminalDetailWire(TERMINAL);

const selectRange = (range: TelemetryRange) => ({ type: 'user.selectRange', range }) as const;
const retry = { type: 'user.retry' } as const;

const tab = () => within(screen.getByRole('region', { name: TELEMETRY_TEXTS.title }));
const rangeButton = (range: TelemetryRange) =>
  within(tab().getByRole('group', { name: TELEMETRY_TEXTS.ranges })).getByRole('button', { name: TELEMETRY_RANGE_INFO[range].label }) as HTMLButtonElement;

/** The customer's terminal page signed in as the fixture customer, on its Telemetry tab. */
async function openTelemetryTab(seam: ModelSeam): Promise<PageScreen> {
  const answers = { [`GET /api/v1/my/terminals/${TERMINAL}`]: { body: { success: true, message: 'ok', data: detail } } };
  const page = openPage(`/my/terminals/${TERMINAL}`, seam, answers, customerProfile);
  await page.user.click(await screen.findByRole('tab', { name: 'Telemetry' }, { timeout: 5000 }));
  return page;
}

export const telemetryHistoryModel = defineModel<typeof telemetryHistoryMachine, PageScreen>({
  name: 'telemetry-history',
  machine: telemetryHistoryMachine,
  input: { terminalId: TERMINAL },
  events: {
    // Another range, and the first one back.
    'user.selectRange': [selectRange('7d'), selectRange('24h')],
    'user.retry': [retry],
  },
  actorResults: [
    done('loadHistory', ok(withReadings)),
    done('loadHistory', ok(noReadings)),
    done('loadHistory', refused(NOT_FOUND)),
    failed('loadHistory', new TypeError('fetch failed')),
  ],
  states: {
    loading: (s) => {
      expect(telemetryHistoryView(s)).toMatchObject({ loading: true, history: null, error: null, canRetry: false });
    },
    ready: (s) => {
      const view = telemetryHistoryView(s);
      expect(view).toMatchObject({ loading: false, error: null, canRetry: false });
      expect(view.history).not.toBeNull();
      expect(view.empty).toBe(view.history!.points.length === 0);
    },
    failed: (s) => {
      const view = telemetryHistoryView(s);
      expect(view).toMatchObject({ loading: false, history: null, canRetry: true });
      expect([NOT_FOUND, FALLBACK_LOAD_ERROR]).toContain(view.error);
    },
  },
  ui: {
    open: openTelemetryTab,
    events: {
      'user.selectRange': async ({ user }, event) => user.click(rangeButton(event.range)),
      'user.retry': async ({ user }) => user.click(tab().getByRole('button', { name: 'Try Again' })),
    },
    states: {
      loading: ({ context }) => {
        expect(rangeButton(context.range).getAttribute('aria-pressed')).toBe('true');
        expect(tab().getByRole('status').textContent).toContain(TELEMETRY_TEXTS.loading);
        expect(tab().queryAllByRole('img')).toHaveLength(0);
      },
      ready: ({ context }) => {
        expect(rangeButton(context.range).getAttribute('aria-pressed')).toBe('true');
        if (context.history!.points.length === 0) {
          expect(tab().getByText(TELEMETRY_TEXTS.noReadings)).toBeTruthy();
          expect(tab().queryAllByRole('img')).toHaveLength(0);
        } else {
          // Five charts and the outage timeline.
          expect(tab().getAllByRole('img')).toHaveLength(6);
          expect(tab().getByText(/^Offline from .* \(2h 30m\)$/)).toBeTruthy();
        }
      },
      failed: ({ context }) => {
        expect(within(tab().getByRole('alert')).getByText(context.error!)).toBeTruthy();
        expect(tab().getByRole('button', { name: 'Try Again' })).toBeTruthy();
      },
    },
  },
});

modelSuite(telemetryHistoryModel);

describe('telemetry history machine (pinned journeys)', () => {
  it('a range chosen while another loads: the earlier request is aborted and its late answer never shows', async () => {
    const pending: { request: TelemetryHistoryRequest; signal: AbortSignal; resolve: (outcome: TelemetryHistoryOutcome) => void }[] = [];
    const loadHistory = fromPromise<TelemetryHistoryOutcome, TelemetryHistoryRequest>(
      ({ input, signal }) => new Promise((resolve) => pending.push({ request: input, signal, resolve })),
    );
    const actor = createActor(telemetryHistoryMachine.provide({ actors: { loadHistory } }), { input: { terminalId: TERMINAL } }).start();
    actor.send(selectRange('7d'));
    expect(pending.map((p) => p.request)).toEqual([
      { terminalId: TERMINAL, range: '24h' },
      { terminalId: TERMINAL, range: '7d' },
    ]);
    expect(pending[0]!.signal.aborted).toBe(true);
    pending[0]!.resolve(ok(withReadings));
    await Promise.resolve();
    expect(telemetryHistoryView(actor.getSnapshot())).toMatchObject({ range: '7d', loading: true, history: null });
    const week = { ...withReadings, range: '7d' as const, resolution: 'hour' as const, bucketSeconds: 3600 };
    pending[1]!.resolve(ok(week));
    const ready = await waitFor(actor, (s) => s.matches('ready'));
    expect(telemetryHistoryView(ready)).toMatchObject({ range: '7d', history: week, empty: false });
    actor.stop();
  });

  it('a failure, Try Again, an empty answer: "No readings" with nothing of the failure left', async () => {
    const answers: TelemetryHistoryOutcome[] = [refused('  '), ok(noReadings)];
    const loadHistory = fromPromise<TelemetryHistoryOutcome, TelemetryHistoryRequest>(async () => answers.shift()!);
    const actor = createActor(telemetryHistoryMachine.provide({ actors: { loadHistory } }), { input: { terminalId: TERMINAL, range: '30d' } }).start();
    const failedOnce = await waitFor(actor, (s) => s.matches('failed'));
    // A refusal without words reads as the app's fallback, never as a blank card.
    expect(telemetryHistoryView(failedOnce)).toMatchObject({ range: '30d', error: FALLBACK_LOAD_ERROR, canRetry: true });
    actor.send(retry);
    const ready = await waitFor(actor, (s) => s.matches('ready'));
    expect(telemetryHistoryView(ready)).toMatchObject({ range: '30d', error: null, empty: true, history: noReadings });
    // The range shown is not asked for again.
    actor.send(selectRange('30d'));
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.stop();
  });
});
