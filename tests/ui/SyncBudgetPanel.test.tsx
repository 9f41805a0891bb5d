// The "Provider calls" panel of the terminals page: when the next syncs are due, the last runs,
// the budget and the chart of the last hour by minute; and the page reading it from
// GET /terminals/sync/budget, again on Refresh.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SyncBudget, SyncScheduleEntry } from '../../src/domain/provider-budget';
import { SyncBudgetPanel, type SyncBudgetPanelProps } from '../../src/ui/terminals/SyncBudgetPanel';
import { adminProfile } from '../machines/fixtures';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth } from '../fixtures/terminals-ui';
import { openSignedInAt } from './open-app';
import { renderStrict } from './render';

const NOW = Date.parse('2026-11-20T10:30:20.000Z');
const MINUTE = 60_000;

function entry(overrides: Partial<SyncScheduleEntry> = {}): SyncScheduleEntry {
  return {
    kind: 'inventory',
    state: 'scheduled',
    configuredIntervalMs: 15 * MINUTE,
    effectiveIntervalMs: 15 * MINUTE,
    nextAt: new Date(NOW + 12 * MINUTE).toISOString(),
    lastRun: { id: 'run-1', status: 'succeeded', startedAt: '2026-11-20T10:27:00.000Z', finishedAt: '2026-11-20T10:30:12.000Z', durationMs: 192_000, providerCalls: 312 },
    ...overrides,
  };
}

/** Sixty minutes up to NOW's, with calls in the last two. */
function budget(overrides: Partial<SyncBudget> = {}): SyncBudget {
  const current = Math.floor(NOW / MINUTE) * MINUTE;
  const perMinute = Array.from({ length: 60 }, (_, i) => ({ minute: new Date(current - (59 - i) * MINUTE).toISOString(), sync: 0, person: 0 }));
  perMinute[58] = { ...perMinute[58]!, sync: 150, person: 2 };
  perMinute[59] = { ...perMinute[59]!, sync: 162, person: 6 };
  return {
    budget: { requestsPerMinute: 240, syncShare: 0.7, syncRequestsPerMinute: 168, shared: true, pausedUntil: null },
    inventory: entry(),
    usage: entry({
      kind: 'usage',
      configuredIntervalMs: 60 * MINUTE,
      effectiveIntervalMs: 60 * MINUTE,
      nextAt: new Date(NOW + 40 * MINUTE).toISOString(),
      lastRun: { id: 'run-2', status: 'failed', startedAt: null, finishedAt: null, durationMs: null, providerCalls: 38 },
    }),
    perMinute,
    ...overrides,
  };
}

function renderPanel(props: Partial<SyncBudgetPanelProps> = {}) {
  return renderStrict(<SyncBudgetPanel budget={budget()} loading={false} error={null} now={NOW} {...props} />);
}

const panel = () => screen.getByRole('region', { name: 'Provider calls' });
const fact = (label: string) => within(panel()).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
const localTime = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { hour: '2-digit', minute: '2-digit' });

describe('SyncBudgetPanel', () => {
  it('says when the next syncs are due, how the last runs went and what the budget is', () => {
    renderPanel();
    expect(fact('Next sync')).toBe(`in 12 minutes (${localTime(new Date(NOW + 12 * MINUTE).toISOString())}), every 15 min`);
    expect(fact('Next usage sync')).toBe(`in 40 minutes (${localTime(new Date(NOW + 40 * MINUTE).toISOString())}), every 1 h`);
    expect(fact('Last sync')).toBe('3 min 12 s, 312 calls');
    expect(fact('Last usage sync')).toBe('38 calls (failed)');
    expect(fact('Budget')).toBe('240 calls a minute (shared by every server); syncs up to 70 % (168)');
    expect(within(panel()).queryByText('Paused', { selector: 'dt' })).toBeNull();
  });

  it('charts the last hour, syncs and people stacked per minute, with its figures for a screen reader', () => {
    renderPanel();
    const chart = within(panel()).getByRole('img');
    expect(chart.getAttribute('aria-label')).toBe('Provider calls per minute, last hour: 312 by syncs, 8 by people; the busiest minute 168 of 240');
    const minutes = chart.querySelectorAll('.calls-chart-minute');
    expect(minutes).toHaveLength(60);
    const last = minutes[59] as HTMLElement;
    expect((last.querySelector('.calls-chart-sync') as HTMLElement).style.height).toBe(`${(162 / 168) * 100}%`);
    expect((last.querySelector('.calls-chart-person') as HTMLElement).style.height).toBe(`${(6 / 168) * 100}%`);
    expect(last.getAttribute('title')).toBe(`${localTime(budget().perMinute[59]!.minute)}: 162 sync, 6 people`);
    expect((minutes[0]!.querySelector('.calls-chart-sync') as HTMLElement).style.height).toBe('0%');
    expect(within(panel()).getByText('Syncs')).toBeTruthy();
    expect(within(panel()).getByText('People')).toBeTruthy();
  });

  it('tells a schedule stretched by the budget, a run under way, and syncs turned off', () => {
    renderPanel({
      budget: budget({
        inventory: entry({ state: 'running', nextAt: null }),
        usage: entry({ kind: 'usage', state: 'off', configuredIntervalMs: null, effectiveIntervalMs: null, nextAt: null, lastRun: null }),
      }),
    });
    expect(fact('Next sync')).toBe('Running now');
    expect(fact('Next usage sync')).toBe('After each inventory sync');
    expect(fact('Last usage sync')).toBe('None yet');

    const stretched = entry({ state: 'due', effectiveIntervalMs: 20 * MINUTE, nextAt: new Date(NOW - MINUTE).toISOString() });
    renderPanel({ budget: budget({ inventory: stretched, budget: { ...budget().budget, shared: false, pausedUntil: new Date(NOW + 30_000).toISOString() } }) });
    const panels = screen.getAllByRole('region', { name: 'Provider calls' });
    const second = panels.at(-1)!;
    const secondFact = (label: string) => within(second).getByText(label, { selector: 'dt' }).nextElementSibling!.textContent;
    expect(secondFact('Next sync')).toBe("Due now, every 20 min, longer than the 15 min set, for the last run's calls");
    expect(secondFact('Budget')).toBe('240 calls a minute (this server only); syncs up to 70 % (168)');
    expect(secondFact('Paused')).toBe(`After a 429 from the provider, until ${localTime(new Date(NOW + 30_000).toISOString())}`);
  });

  it('shows a placeholder while the first answer loads, and why a load failed', () => {
    const { container, rerender } = renderPanel({ budget: null, loading: true });
    expect(panel().getAttribute('aria-busy')).toBe('true');
    expect(container.querySelector('.p-skeleton')).not.toBeNull();
    rerender(<SyncBudgetPanel budget={null} loading={false} error="The server did not answer" now={NOW} />);
    expect(within(panel()).getByRole('status').textContent).toBe('The provider call budget could not be loaded: The server did not answer');
    expect(within(panel()).queryByRole('img')).toBeNull();
  });
});

describe('the terminals page reads the budget', () => {
  function fakeApi() {
    let budgetCalls = 0;
    let refreshed = false;
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const ok = (data: unknown) => json(200, { success: true, message: 'ok', data });
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const call = `${init?.method ?? 'GET'} ${url.pathname}`;
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (call === 'GET /api/v1/auth/me') return ok({ user: adminProfile });
      if (call === 'GET /api/v1/terminals') return ok({ results: [terminalRowWire()], totalCount: 1, page: 1, limit: 25 });
      if (call === 'GET /api/v1/terminals/health') return ok(fleetHealth({ total: 1 }));
      if (call === 'GET /api/v1/terminals/sync/queue') return ok({ active: null, recent: [] });
      if (call === 'GET /api/v1/terminals/sync/budget') {
        budgetCalls += 1;
        const answer = budget();
        // Readings after the first (StrictMode mounts the page twice): another run has ended.
        return ok(!refreshed ? answer : { ...answer, inventory: entry({ lastRun: { ...answer.inventory.lastRun!, providerCalls: 400 } }) });
      }
      return json(404, { success: false, message: `Route not found: ${call}` });
    });
    return {
      fetch,
      budgetCalls: () => budgetCalls,
      refresh: () => {
        refreshed = true;
      },
    };
  }

  it('shows the panel from GET /terminals/sync/budget and reads it again on Refresh', async () => {
    const api = fakeApi();
    openSignedInAt('/terminals', api.fetch);
    const region = await screen.findByRole('region', { name: 'Provider calls' }, { timeout: 5000 });
    await waitFor(() => expect(within(region).getByText('Last sync', { selector: 'dt' }).nextElementSibling!.textContent).toBe('3 min 12 s, 312 calls'));
    expect(within(region).getByRole('img').getAttribute('aria-label')).toContain('312 by syncs, 8 by people');

    const before = api.budgetCalls();
    api.refresh();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(within(region).getByText('Last sync', { selector: 'dt' }).nextElementSibling!.textContent).toBe('3 min 12 s, 400 calls'));
    expect(api.budgetCalls()).toBe(before + 1);
  });
});
