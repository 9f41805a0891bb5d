// The admin shell's bell (alertBell machine): its generated paths walked on the machine and
// through the /alerts page's top bar, the poll timer driven by the simulated clock, the tab's
// visibility by the document's visibilitychange, and an acknowledgement on the page.
import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { ALERT_MESSAGES } from '../../../src/domain/alerts';
import { alertBellMachine } from '../../../src/machines/alert-bell';
import { targetText } from '../../../src/ui/alerts/parts';
import { BELL_PANEL_LABEL } from '../../../src/ui/shell/AlertBell';
import { acknowledgedAlert, alertList, bellWire, envelope, offlineAlert, openAlert } from '../../fixtures/alerts';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const bellButton = () => screen.getByRole('button', { name: /^Alerts, / });
const panelOpen = () => screen.queryByRole('dialog', { name: BELL_PANEL_LABEL }) !== null;
const panelLeaving = () => screen.queryByRole('dialog', { name: BELL_PANEL_LABEL })?.classList.contains('p-overlaypanel-exit') ?? false;

function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

const ui: UiModel<typeof alertBellMachine, PageScreen> = {
  open: async (seam) => {
    const page = openPage('/alerts', seam, {
      'GET /api/v1/alerts': { body: envelope(alertList([openAlert, offlineAlert, acknowledgedAlert])) },
      'POST /api/v1/alerts/acknowledge': { body: envelope({ acknowledged: [openAlert.id], unchanged: [], notFound: [] }) },
    });
    await screen.findByText(offlineAlert.message, {}, { timeout: 5000 });
    return {
      ...page,
      close() {
        setVisibility('visible');
        page.close();
      },
    };
  },
  // `bell.seen` is the machine's own, raised once the server recorded the opening.
  drivable: (_snapshot, event) => event.type !== 'bell.seen',
  events: {
    'user.open': async ({ user }) => {
      // The panel toggles: a panel already open is closed first, and gone, so that the click opens it.
      // A panel already leaving (a click on the page dismissed it) is only waited out: a click on the
      // bell during its exit transition would show it again.
      if (panelOpen() && !panelLeaving()) await user.click(bellButton());
      await waitFor(() => expect(panelOpen()).toBe(false));
      await user.click(bellButton());
      // The machine hears of the opening once the panel has finished showing (the overlay's onShow
      // follows its enter transition); under load that is well after the panel is in the page.
      await waitFor(() => expect(screen.getByRole('dialog', { name: BELL_PANEL_LABEL }).classList).toContain('p-overlaypanel-enter-done'));
      expect(within(screen.getByRole('dialog', { name: BELL_PANEL_LABEL })).getByText(openAlert.title)).toBeTruthy();
    },
    'page.hidden': async () => setVisibility('hidden'),
    'page.visible': async () => setVisibility('visible'),
    'alerts.changed': async ({ user }) => user.click(screen.getByRole('button', { name: `Acknowledge ${openAlert.title}: ${targetText(openAlert)}` })),
    'bell.seen': async () => {},
  },
  states: {
    'poll.loading': () => expect(bellButton()).toBeTruthy(),
    'poll.waiting': ({ context }) => expect(bellButton().getAttribute('aria-label')).toBe(ALERT_MESSAGES.bellLabel(context.bell?.unread ?? 0)),
    'poll.paused': ({ context }) => expect(bellButton().getAttribute('aria-label')).toBe(ALERT_MESSAGES.bellLabel(context.bell?.unread ?? 0)),
    'seen.idle': () => {},
    'seen.marking': () => {
      expect(bellButton().getAttribute('aria-label')).toBe(ALERT_MESSAGES.bellLabel(0));
      // A click on the page (alerts.changed acknowledges a row) dismisses the overlay as it would
      // for anyone: the panel is checked while it is still up, and the marking goes on either way.
      const panel = screen.queryByRole('dialog', { name: BELL_PANEL_LABEL });
      if (panel) expect(within(panel).getByText(openAlert.title)).toBeTruthy();
    },
  },
};

export const alertBellModel = defineModel<typeof alertBellMachine, PageScreen>({
  name: 'alert-bell',
  machine: alertBellMachine,
  events: {
    'user.open': [{ type: 'user.open' }],
    'page.hidden': [{ type: 'page.hidden' }],
    'page.visible': [{ type: 'page.visible' }],
    'alerts.changed': [{ type: 'alerts.changed' }],
    'bell.seen': [{ type: 'bell.seen' }],
  },
  actorResults: [
    done('loadBell', ok(bellWire(2))),
    done('loadBell', refused('Server busy')),
    failed('loadBell', new Error('network')),
    done('markSeen', ok({ seenAt: '2026-03-10T12:00:00.000Z' })),
    failed('markSeen', new Error('network')),
  ],
  states: {
    'poll.loading': (s) => expect(s.hasTag('loading')).toBe(true),
    'poll.waiting': (s) => expect(s.hasTag('loading')).toBe(false),
    'poll.paused': (s) => expect(s.hasTag('loading')).toBe(false),
    'seen.idle': (s) => expect(s.hasTag('marking')).toBe(false),
    'seen.marking': (s) => expect(s.context.bell?.unread).toBe(0),
  },
  ui,
});

modelSuite(alertBellModel);
