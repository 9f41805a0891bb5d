// The /alerts page as the alert models' UI runs drive it: two open alerts (the starters' ids) and
// an acknowledged one over a fake API, the ticks, the bulk and row buttons, and the dialog.
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { ALERT_MESSAGES, type AlertWire } from '../../../src/domain/alerts';
import { acknowledgeReport, type alertAcknowledgeMachine } from '../../../src/machines/alert-acknowledge';
import { ACKNOWLEDGE_TITLE, ACKNOWLEDGING_TEXT } from '../../../src/ui/alerts/AcknowledgeDialog';
import { targetText } from '../../../src/ui/alerts/parts';
import { acknowledgedAlert, alertList, envelope, offlineAlert, openAlert } from '../../fixtures/alerts';

const rows: AlertWire[] = [openAlert, offlineAlert];
const table = () => within(screen.getByRole('table', { name: ALERT_MESSAGES.pageTitle }));
const rowButton = (alert: AlertWire) => table().getByRole('button', { name: `Acknowledge ${alert.title}: ${targetText(alert)}` }) as HTMLButtonElement;
// PrimeReact 10.9 names a row box "Row Selected <id>" or "Row Unselected <id>", and which one does
// not follow the tick (a fresh page names every box "Selected"; after ticks and acknowledgements an
// unticked box may read "Unselected"): the id is what finds a row's box. It gives both the box and
// its native input the checkbox role: the inputs are what a click ticks.
const inputOf = (name: string | RegExp) => table().getAllByRole('checkbox', { name }).find((el) => el.tagName === 'INPUT') as HTMLInputElement;
const rowBox = (id: string) => inputOf(new RegExp(`^Row (Un)?[Ss]elected ${id}$`));
const headerBox = () => inputOf(/^All items/);
const bulkButton = () => screen.getByRole('button', { name: /^Acknowledge \(\d+\)$/ }) as HTMLButtonElement;
const dialog = () => within(screen.getByRole('dialog', { name: ACKNOWLEDGE_TITLE }));
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));
const changed = (from: readonly string[], to: readonly string[]) => [...from.filter((id) => !to.includes(id)), ...to.filter((id) => !from.includes(id))];
const everyRow = rows.map((r) => r.id);

export const alertsPageOpen = (seam: Parameters<UiModel<typeof alertAcknowledgeMachine, PageScreen>['open']>[0]) =>
  openPage('/alerts', seam, {
    'GET /api/v1/alerts': { body: envelope(alertList([openAlert, offlineAlert, acknowledgedAlert])) },
    'GET /api/v1/alerts/bell': { body: envelope({ unread: 0, open: 2, latest: [] }) },
  });

export const alertAcknowledgeUi: UiModel<typeof alertAcknowledgeMachine, PageScreen> = {
  open: async (seam) => {
    const page = alertsPageOpen(seam);
    await screen.findByText(offlineAlert.message, {}, { timeout: 5000 });
    return page;
  },
  // A tick changes one row, or the header's box all of them; nothing is clickable while busy or asked.
  drivable: (snapshot, event) => {
    const idleLike = snapshot.matches('idle') || snapshot.matches('done') || snapshot.matches('failed');
    if (event.type === 'user.select') {
      const diff = changed(snapshot.context.selection, event.ids);
      return idleLike && (diff.length === 1 || (diff.length === 2 && (sameSet(event.ids, everyRow) || event.ids.length === 0) && (snapshot.context.selection.length === 0 || sameSet(snapshot.context.selection, everyRow))));
    }
    if (event.type === 'user.acknowledge' || event.type === 'user.acknowledgeSelected') return idleLike;
    return true;
  },
  events: {
    'user.select': async ({ user }, event) => {
      const current = rows.filter((r) => rowBox(r.id).checked).map((r) => r.id);
      const diff = changed(current, event.ids);
      if (diff.length === 1) await user.click(rowBox(diff[0]!));
      else if (diff.length > 1) await user.click(headerBox());
    },
    'user.acknowledge': async ({ user }, event) => user.click(rowButton(rows.find((r) => r.id === event.id)!)),
    'user.acknowledgeSelected': async ({ user }) => user.click(bulkButton()),
    'user.confirm': async ({ user }) => user.click(dialog().getByRole('button', { name: 'Acknowledge' })),
    'user.cancel': async ({ user }) => user.click(dialog().getByRole('button', { name: 'Cancel' })),
    'user.dismiss': async ({ user }) => user.click(screen.getByRole('button', { name: 'Dismiss' })),
  },
  states: {
    idle: ({ context }) => {
      expect(screen.queryByRole('dialog', { name: ACKNOWLEDGE_TITLE })).toBeNull();
      expect(bulkButton().textContent).toBe(`Acknowledge (${context.selection.length})`);
      expect(bulkButton().disabled).toBe(context.selection.length === 0);
      expect(rowButton(openAlert).disabled).toBe(false);
      expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    },
    confirming: ({ context }) => {
      expect(dialog().getByText(`Acknowledge ${context.ids.length} alerts? They stay listed until their condition clears.`)).toBeTruthy();
    },
    submitting: ({ context }) => {
      if (context.ids.length > 1) expect((dialog().getByRole('button', { name: ACKNOWLEDGING_TEXT }) as HTMLButtonElement).disabled).toBe(true);
      else expect(rowButton(openAlert).disabled).toBe(true);
      expect(bulkButton().disabled).toBe(true);
    },
    done: ({ context }) => {
      expect(screen.getAllByText(acknowledgeReport(context.result!)).length).toBeGreaterThan(0);
      expect(screen.queryByRole('dialog', { name: ACKNOWLEDGE_TITLE })).toBeNull();
    },
    failed: ({ context }) => {
      expect(screen.getAllByText(context.failure!).length).toBeGreaterThan(0);
      expect(bulkButton().textContent).toBe(`Acknowledge (${context.selection.length})`);
    },
  },
};
