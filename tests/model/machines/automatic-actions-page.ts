// The /alerts/actions page as the actionReview model's UI run drives it: a proposal, a done action
// that can be undone and a dismissed one over a fake API, the row buttons, and the dialog.
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { RULE_ACTION_LABELS, type AutomaticActionWire } from '../../../src/domain/automation';
import type { actionReviewMachine } from '../../../src/machines/automatic-action-review';
import { REVIEW_BUTTONS, REVIEW_TITLES, REVIEW_WORKING_TEXT, reviewQuestion, type ReviewVerb } from '../../../src/ui/automation/actions/ActionReviewDialog';
import { envelope } from '../../fixtures/alerts';
import { actionList, dismissedAction, executedAction, proposedAction } from '../../fixtures/automatic-actions';

const rowName = (a: AutomaticActionWire) => `${RULE_ACTION_LABELS[a.action]} on ${a.serviceLineNumber}`;
const rowButton = (verb: 'Approve' | 'Dismiss' | 'Undo', a: AutomaticActionWire) => screen.getByRole('button', { name: `${verb} ${rowName(a)}` }) as HTMLButtonElement;
const openDialog = () => screen.getByRole('dialog');
const dialogButton = (name: string) => within(openDialog()).getByRole('button', { name }) as HTMLButtonElement;
const verbOfDialog = (): ReviewVerb => (Object.keys(REVIEW_TITLES) as ReviewVerb[]).find((verb) => screen.queryByRole('dialog', { name: REVIEW_TITLES[verb] }))!;

export const actionReviewUi: UiModel<typeof actionReviewMachine, PageScreen> = {
  open: async (seam) => {
    const page = openPage('/alerts/actions', seam, {
      'GET /api/v1/automatic-actions': { body: envelope(actionList([proposedAction, executedAction, dismissedAction])) },
    });
    await screen.findByRole('button', { name: `Approve ${rowName(proposedAction)}` }, { timeout: 5000 });
    return page;
  },
  // Each row offers only what its action allows: the guards' other cases have no button.
  drivable: (_snapshot, event) => {
    if (event.type === 'user.approve' || event.type === 'user.dismiss') return event.target.status === 'proposed';
    if (event.type === 'user.undo') return event.target.undoable;
    return true;
  },
  events: {
    'user.approve': async ({ user }) => user.click(rowButton('Approve', proposedAction)),
    'user.dismiss': async ({ user }) => user.click(rowButton('Dismiss', proposedAction)),
    'user.undo': async ({ user }) => user.click(rowButton('Undo', executedAction)),
    'user.confirm': async ({ user }) => user.click(dialogButton(REVIEW_BUTTONS[verbOfDialog()])),
    'user.close': async ({ user }) => user.click(dialogButton('Cancel')),
  },
  states: {
    closed: () => {
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(rowButton('Approve', proposedAction).disabled).toBe(false);
      // Done and dismissed rows offer no decision; only the done one offers Undo.
      expect(screen.getAllByRole('button', { name: /^Approve / })).toHaveLength(1);
      expect(screen.getAllByRole('button', { name: /^Undo / })).toHaveLength(1);
    },
    confirming: ({ context }) => {
      const dialog = within(screen.getByRole('dialog', { name: REVIEW_TITLES[context.verb!] }));
      expect(dialog.getByText(reviewQuestion(context.verb!, context.target!.action, context.target!.serviceLineNumber))).toBeTruthy();
      if (context.failure) expect(dialog.getByText(context.failure)).toBeTruthy();
      expect((dialog.getByRole('button', { name: REVIEW_BUTTONS[context.verb!] }) as HTMLButtonElement).disabled).toBe(false);
    },
    submitting: ({ context }) => {
      const dialog = within(screen.getByRole('dialog', { name: REVIEW_TITLES[context.verb!] }));
      expect((dialog.getByRole('button', { name: REVIEW_WORKING_TEXT }) as HTMLButtonElement).disabled).toBe(true);
      expect((dialog.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    },
  },
};
