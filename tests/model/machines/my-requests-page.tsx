// The /my/requests page as the customerRequest model's UI run drives it: signed in as the fixture
// customer over a fake API (one pending and one declined request, two lines, the options of a
// line), the New request dialog and Cancel on the pending row.
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { REQUEST_MESSAGES } from '../../../src/domain/requests';
import type { customerRequestMachine } from '../../../src/machines/customer-request';
import { requestPayload } from '../../../src/machines/customer-request';
import { CANCELLING_TEXT, CANCEL_REQUEST_TITLE, OPTIONS_LOADING_TEXT, SENDING_TEXT } from '../../../src/ui/requests/NewRequestDialog';
import { customerProfile } from '../../machines/fixtures';
import { customerRequest, declinedRequest, lineOptions, requestLines } from '../../fixtures/requests-client';
import type { ModelSeam, UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';

export type MyRequestsScreen = PageScreen;
type Screen = MyRequestsScreen;

const pending = customerRequest();
const NEW = REQUEST_MESSAGES.newRequest;
const LINE_LABELS: Record<string, string> = Object.fromEntries(requestLines.map((l) => [l.serviceLineNumber, l.nickname ? `${l.serviceLineNumber} (${l.nickname})` : l.serviceLineNumber]));
const PLAN_LABEL = 'Local Priority 1 TB · USD 165.00 a month';
const COUNT_LABEL = 'Blocks of 50 GB at USD 50.00 each (2 left this cycle)';
const cancelRowName = `Cancel plan change request on ${pending.serviceLineNumber}`;

function openMyRequests(seam: ModelSeam): Screen {
  return openPage('/my/requests', seam, { 'GET /api/v1/my/requests': { body: { success: true, message: 'ok', data: { requests: [pending, declinedRequest], lines: requestLines } } } }, customerProfile);
}

const dialog = (name: string) => within(screen.getByRole('dialog', { name }));
const button = (dialogName: string, name: string) => dialog(dialogName).getByRole('button', { name }) as HTMLButtonElement;
const pick = async ({ user }: Screen, combobox: string, option: string) => {
  await user.click(dialog(NEW).getByRole('combobox', { name: combobox }));
  await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: option }));
};

export const customerRequestUi: UiModel<typeof customerRequestMachine, Screen> = {
  open: async (seam) => {
    const opened = openMyRequests(seam);
    await screen.findByRole('button', { name: cancelRowName }, { timeout: 5000 });
    return opened;
  },
  drivable: (snapshot, event) => {
    const { context } = snapshot;
    switch (event.type) {
      // A select reports a change only: choosing what is chosen sends nothing.
      case 'user.line':
        return event.serviceLineNumber in LINE_LABELS && event.serviceLineNumber !== context.serviceLineNumber;
      // The blocks are asked for only on a top-up.
      case 'user.count':
        return context.kind === 'top_up' && event.count <= (lineOptions.topUp?.blocksLeft ?? 0) && event.count !== context.count;
      case 'user.kind':
        return event.kind !== context.kind;
      case 'user.plan':
        return context.kind === 'plan_change' && lineOptions.plans.some((p) => p.productReferenceId === event.productId) && event.productId !== context.planId;
      case 'user.cancelRequest':
        return event.request.status === 'pending';
      default:
        return true;
    }
  },
  events: {
    'user.open': async ({ user }) => user.click(screen.getByRole('button', { name: NEW })),
    'user.line': async (s, event) => pick(s, 'Service line', LINE_LABELS[event.serviceLineNumber]!),
    'user.kind': async ({ user }, event) => user.click(dialog(NEW).getByLabelText(event.kind === 'top_up' ? 'Top-up' : 'Plan change')),
    'user.plan': async ({ user }) => user.click(dialog(NEW).getByLabelText(PLAN_LABEL)),
    'user.count': async (s, event) => pick(s, COUNT_LABEL, String(event.count)),
    'user.note': async ({ user }, event) => {
      const field = dialog(NEW).getByLabelText('Note for the administrators (optional)');
      await user.clear(field);
      await user.type(field, event.value);
    },
    'user.submit': async ({ user }) => user.click(button(NEW, 'Send request')),
    'user.cancelRequest': async ({ user }) => user.click(screen.getByRole('button', { name: cancelRowName })),
    'user.confirm': async ({ user }) => user.click(button(CANCEL_REQUEST_TITLE, 'Cancel request')),
    'user.close': async ({ user }) =>
      screen.queryByRole('dialog', { name: CANCEL_REQUEST_TITLE }) ? user.click(button(CANCEL_REQUEST_TITLE, 'Keep it')) : user.click(button(NEW, 'Not now')),
  },
  states: {
    closed: () => {
      expect(screen.queryByRole('dialog')).toBeNull();
      expect((screen.getByRole('button', { name: NEW }) as HTMLButtonElement).disabled).toBe(false);
      expect(screen.getByText('That plan is retired')).toBeTruthy();
    },
    choosingLine: ({ context }) => {
      expect(dialog(NEW).getByRole('combobox', { name: 'Service line' })).toBeTruthy();
      if (context.error) expect(dialog(NEW).getByText(context.error)).toBeTruthy();
      expect(button(NEW, 'Send request').disabled).toBe(true);
    },
    loadingOptions: () => {
      expect(dialog(NEW).getByRole('status').textContent).toContain(OPTIONS_LOADING_TEXT);
      expect(button(NEW, 'Send request').disabled).toBe(true);
    },
    editing: ({ context }) => {
      expect((dialog(NEW).getByLabelText(context.kind === 'top_up' ? 'Top-up' : 'Plan change') as HTMLInputElement).checked).toBe(true);
      if (context.kind === 'plan_change') expect((dialog(NEW).getByLabelText(PLAN_LABEL) as HTMLInputElement).checked).toBe(context.planId !== null);
      else expect(dialog(NEW).getByText(`Total: ${context.count * 50} GB for USD ${(context.count * 50).toFixed(2)}`)).toBeTruthy();
      expect(button(NEW, 'Send request').disabled).toBe(requestPayload(context) === null);
      if (context.failure) expect(dialog(NEW).getByText(context.failure)).toBeTruthy();
    },
    submitting: () => {
      expect(button(NEW, SENDING_TEXT).disabled).toBe(true);
      expect(button(NEW, 'Not now').disabled).toBe(true);
    },
    confirmingCancel: ({ context }) => {
      expect(dialog(CANCEL_REQUEST_TITLE).getByText(REQUEST_MESSAGES.cancelConfirm)).toBeTruthy();
      if (context.failure) expect(dialog(CANCEL_REQUEST_TITLE).getByText(context.failure)).toBeTruthy();
    },
    cancelling: () => {
      expect(button(CANCEL_REQUEST_TITLE, CANCELLING_TEXT).disabled).toBe(true);
    },
  },
};
