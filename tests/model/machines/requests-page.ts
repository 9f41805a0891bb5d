// The /requests page as the requestReview model's UI run drives it: the queue (one pending and one
// approved request) over a fake API, Approve / Decline on the pending row, and the dialog.
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { REQUEST_MESSAGES, describeAsked } from '../../../src/domain/requests';
import type { requestReviewMachine } from '../../../src/machines/request-review';
import { APPROVE_TITLE, DECIDING_TEXT, DECLINE_TITLE } from '../../../src/ui/requests/ReviewDialog';
import { declinedRequest, queuedRequest, requestQueue } from '../../fixtures/requests-client';

const pending = queuedRequest();
const rowButton = (action: 'Approve' | 'Decline') => screen.getByRole('button', { name: `${action} request of ${pending.customer.name} on ${pending.serviceLineNumber}` }) as HTMLButtonElement;
const dialog = (name: string) => within(screen.getByRole('dialog', { name }));
const expectNoDialog = () => expect(screen.queryByRole('dialog')).toBeNull();

export const requestReviewUi: UiModel<typeof requestReviewMachine, PageScreen> = {
  open: async (seam) => {
    const page = openPage('/requests', seam, {
      'GET /api/v1/requests': { body: { success: true, message: 'ok', data: requestQueue([pending, declinedRequest], { declined: 1 }) } },
    });
    await screen.findByRole('button', { name: `Approve request of ${pending.customer.name} on ${pending.serviceLineNumber}` }, { timeout: 5000 });
    return page;
  },
  // The decided row offers neither button. Clearing an empty reason box (and typing nothing) fires
  // no input event, so an empty reason can be given only over one the box holds.
  drivable: (snapshot, event) => {
    if (event.type === 'user.reason') return event.value !== '' || snapshot.context.reason !== '';
    return !('request' in event) || event.request.status === 'pending';
  },
  events: {
    'user.approve': async ({ user }) => user.click(rowButton('Approve')),
    'user.decline': async ({ user }) => user.click(rowButton('Decline')),
    'user.reason': async ({ user }, event) => {
      const field = dialog(DECLINE_TITLE).getByRole('textbox');
      await user.clear(field);
      if (event.value) await user.type(field, event.value);
    },
    'user.confirm': async ({ user }) => {
      const name = screen.queryByRole('dialog', { name: DECLINE_TITLE }) ? DECLINE_TITLE : APPROVE_TITLE;
      await user.click(dialog(name).getByRole('button', { name: name === DECLINE_TITLE ? 'Decline' : 'Approve' }));
    },
    'user.close': async ({ user }) => {
      const name = screen.queryByRole('dialog', { name: DECLINE_TITLE }) ? DECLINE_TITLE : APPROVE_TITLE;
      await user.click(dialog(name).getByRole('button', { name: 'Cancel' }));
    },
  },
  states: {
    closed: () => {
      expectNoDialog();
      expect(rowButton('Approve').disabled).toBe(false);
      // A decided request is shown with its reason and offers nothing.
      expect(screen.getByText(/That plan is retired/)).toBeTruthy();
      expect(screen.getAllByRole('button', { name: /^Approve request of/ })).toHaveLength(1);
    },
    confirming: ({ context }) => {
      expect(dialog(APPROVE_TITLE).getByText(REQUEST_MESSAGES.approveConfirm(describeAsked(pending), pending.customer.name))).toBeTruthy();
      if (context.failure) expect(dialog(APPROVE_TITLE).getByText(context.failure)).toBeTruthy();
      expect((dialog(APPROVE_TITLE).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(false);
    },
    reason: ({ context }) => {
      const field = dialog(DECLINE_TITLE).getByRole('textbox') as HTMLTextAreaElement;
      expect(field.value).toBe(context.reason);
      if (context.reasonError) expect(dialog(DECLINE_TITLE).getByText(context.reasonError)).toBeTruthy();
      else expect(dialog(DECLINE_TITLE).queryByText(REQUEST_MESSAGES.reasonRequired)).toBeNull();
      if (context.failure) expect(dialog(DECLINE_TITLE).getByText(context.failure)).toBeTruthy();
    },
    deciding: ({ context }) => {
      const name = context.action === 'decline' ? DECLINE_TITLE : APPROVE_TITLE;
      expect((dialog(name).getByRole('button', { name: DECIDING_TEXT }) as HTMLButtonElement).disabled).toBe(true);
      expect((dialog(name).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    },
  },
};
