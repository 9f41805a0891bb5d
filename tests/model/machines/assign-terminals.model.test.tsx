// The Assign Terminals dialog (assignTerminals machine): its generated paths walked on the machine
// and through a customer's terminals page (/customer/terminals/{uuid}, whose own usage machine talks
// to a fake API), plus journeys pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor, type SnapshotFrom } from 'xstate';
import { ASSIGN_MESSAGES, validateAssignInput } from '../../../src/domain/customer-terminals';
import { assignTerminalsMachine, type AssignCustomer } from '../../../src/machines/assign-terminals';
import { ASSIGNED_LOADING_TEXT } from '../../../src/ui/customer-terminals/AssignTerminalsDialog';
import { ok, refused } from '../../machines/scripted-actors';
import { first, noneAssigned, partial, second, startDialog } from '../../machines/starters/assign-terminals';
import { assignedPageOf } from '../../fixtures/customer-terminals-client';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { customerPageAnswers, muteExpectedFetchLogs, PAGE_CUSTOMER, PAGE_PATH } from './customer-terminals-page';

// The customer as the page hands it to the dialog.
const customer: AssignCustomer = PAGE_CUSTOMER;
const open = (who: AssignCustomer = customer) => ({ type: 'user.open', customer: who }) as const;
const input = (value: string) => ({ type: 'user.input', value }) as const;
const submit = { type: 'user.submit' } as const;
const close = { type: 'user.close' } as const;

type Snapshot = SnapshotFrom<typeof assignTerminalsMachine>;

const dialog = () => within(screen.getByRole('dialog', { name: ASSIGN_MESSAGES.title }));
const textbox = () => dialog().getByLabelText(ASSIGN_MESSAGES.inputLabel) as HTMLTextAreaElement;
const dialogButton = (name: string) => dialog().getByRole('button', { name }) as HTMLButtonElement;

/** The customer's facts, the box as the machine holds it, and what the last answer or check said. */
function expectOpenDialog({ context }: Snapshot) {
  expect(dialog().getByText(customer.name)).toBeTruthy();
  expect(dialog().getByText(customer.uuid)).toBeTruthy();
  expect(textbox().value).toBe(context.text);
  if (context.error) expect(dialog().getByText(context.error)).toBeTruthy();
  else expect(textbox().getAttribute('aria-invalid')).toBeNull();
  const { result } = context;
  if (result?.assigned.length) expect(dialog().getByText(ASSIGN_MESSAGES.successTitle(result.assigned.length))).toBeTruthy();
  if (result?.failed.length) expect(dialog().getByText(ASSIGN_MESSAGES.failureTitle(result.failed.length))).toBeTruthy();
  if (!result) expect(dialog().queryByText(/^\d+ (terminals? assigned|service lines? not assigned)$/)).toBeNull();
}

const ui = {
  open: async (seam) => {
    muteExpectedFetchLogs();
    const page = openPage(PAGE_PATH, seam, customerPageAnswers());
    await screen.findByRole('button', { name: ASSIGN_MESSAGES.button }, { timeout: 5000 });
    return page;
  },
  events: {
    'user.open': async ({ user }) => user.click(screen.getByRole('button', { name: ASSIGN_MESSAGES.button })),
    'user.input': async ({ user }, event) => {
      await user.click(textbox());
      await user.clear(textbox());
      // Pasted: one input event, as the step is one event.
      if (event.value) await user.paste(event.value);
    },
    'user.submit': async ({ user }) => user.click(dialogButton(ASSIGN_MESSAGES.button)),
    'user.close': async ({ user }) => user.click(dialogButton(ASSIGN_MESSAGES.close)),
    'terminals.assigned': async () => {
      throw new Error('terminals.assigned is raised by the dialog after an answer: no user action sends it');
    },
  },
  states: {
    closed: () => {
      expect(screen.queryByRole('dialog', { name: ASSIGN_MESSAGES.title })).toBeNull();
      expect((screen.getByRole('button', { name: ASSIGN_MESSAGES.button }) as HTMLButtonElement).disabled).toBe(false);
    },
    'open.assigned.loading': () => {
      expect(dialog().getByText(ASSIGNED_LOADING_TEXT)).toBeTruthy();
      expect(dialog().queryByText(/currently assigned$/)).toBeNull();
    },
    'open.assigned.loaded': ({ context }) => {
      expect(dialog().queryByText(ASSIGNED_LOADING_TEXT)).toBeNull();
      expect(dialog().getByText(ASSIGN_MESSAGES.assignedCount(context.assigned.length))).toBeTruthy();
      for (const terminal of context.assigned) expect(dialog().getByText(terminal.deviceId)).toBeTruthy();
    },
    'open.form.editing': (snapshot) => {
      expectOpenDialog(snapshot);
      expect(textbox().disabled).toBe(false);
      expect(dialogButton(ASSIGN_MESSAGES.button).disabled).toBe(false);
      expect(dialogButton(ASSIGN_MESSAGES.close).disabled).toBe(false);
    },
    'open.form.submitting': (snapshot) => {
      expectOpenDialog(snapshot);
      // Nothing can change or close the dialog while the request runs.
      expect(textbox().disabled).toBe(true);
      expect(dialogButton(ASSIGN_MESSAGES.busy).disabled).toBe(true);
      expect(dialogButton(ASSIGN_MESSAGES.close).disabled).toBe(true);
    },
  },
  drivable: (snapshot, event) => {
    // Raised by the dialog itself after an answer; the UI run takes it inside that answer's step.
    if (event.type === 'terminals.assigned') return false;
    // Typing what the box already holds fires no input event.
    if (event.type === 'user.input') return event.value !== snapshot.context.text;
    return true;
  },
} satisfies UiModel<typeof assignTerminalsMachine, PageScreen>;

export const assignTerminalsModel = defineModel<typeof assignTerminalsMachine, PageScreen>({
  name: 'assign-terminals',
  machine: assignTerminalsMachine,
  events: {
    'user.open': [open()],
    'user.input': [input(''), input('AST-622190-48211-07, AST-000000-00000-00')],
    'user.submit': [submit],
    'user.close': [close],
    'terminals.assigned': [{ type: 'terminals.assigned' }],
  },
  // One answer per guarded branch of each invoke.
  actorResults: [
    done('loadAssigned', ok(assignedPageOf([first]))),
    done('loadAssigned', refused('')),
    failed('loadAssigned', new Error('boom')),
    done('assignTerminals', ok(partial)),
    done('assignTerminals', ok(noneAssigned)),
    done('assignTerminals', refused('')),
    failed('assignTerminals', new Error('boom')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open') || s.hasTag('busy') || s.hasTag('loadingAssigned')).toBe(false);
      expect(s.can(open())).toBe(true);
    },
    'open.assigned.loading': (s) => {
      expect(s.hasTag('open') && s.hasTag('loadingAssigned')).toBe(true);
      expect(s.context.customer).toEqual(customer);
    },
    'open.assigned.loaded': (s) => {
      expect(s.hasTag('loadingAssigned')).toBe(false);
      // The customer's list, or the empty list a failed fetch reads as.
      expect([[], [first]]).toContainEqual(s.context.assigned);
    },
    'open.form.editing': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.can(close)).toBe(true);
      // A failed request drops the last result; only a client check can sit beside one.
      if (s.context.error === ASSIGN_MESSAGES.unexpected || s.context.error === ASSIGN_MESSAGES.failedGeneric) expect(s.context.result).toBeNull();
    },
    'open.form.submitting': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close) || s.can(input('x'))).toBe(false);
      expect(s.context.error).toBeNull();
      expect(validateAssignInput(s.context.text).ok).toBe(true);
    },
  },
  ui,
});

modelSuite(assignTerminalsModel);

const settled = (s: Snapshot) => s.hasTag('open') && !s.hasTag('loadingAssigned') && !s.hasTag('busy');

describe('assign terminals machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('empty submit, a refusal, then a partial success: box cleared, result shown, list refetched twice', async () => {
    const { actor, calls } = startDialog({
      assigned: [ok(assignedPageOf([first])), ok(assignedPageOf([first, second]))],
      assign: [refused('Provider unavailable'), ok(partial)],
    });
    actor.send(open());
    await waitFor(actor, settled);
    actor.send(submit);
    actor.send(input('AST-622190-48211-07 AST-000000-00000-00'));
    actor.send(submit);
    await waitFor(actor, (s) => settled(s) && s.context.error !== null);
    actor.send(submit);
    await waitFor(actor, (s) => s.context.result !== null);
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.value).toEqual({ open: { assigned: 'loaded', form: 'editing' } });
    expect(snapshot.context).toEqual({ customer, text: '', result: partial, error: null, assigned: [first, second], assignedTotal: 2 });
    expect(calls.map((c) => c.name)).toEqual(['loadAssigned', 'assignTerminals', 'assignTerminals', 'loadAssigned']);
  });
});
