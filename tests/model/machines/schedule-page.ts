// The /schedule page as the schedule models' UI runs drive it: the schedule (a line's plan change
// still to run, a customer's block that ran) over a fake API, Cancel on the row still to run, and
// "Schedule a change" with its dialog.
import { fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { SCHEDULE_OPERATION_LABELS } from '../../../src/domain/automation';
import type { scheduleCancelMachine } from '../../../src/machines/schedule-cancel';
import type { scheduleChangeMachine } from '../../../src/machines/schedule-change';
import { CANCEL_CHANGE_TEXTS } from '../../../src/ui/automation/schedule/CancelChangeDialog';
import { PARAMETER_TEXTS } from '../../../src/ui/automation/schedule/ParameterFields';
import { SCHEDULE_DIALOG_TEXTS as D } from '../../../src/ui/automation/schedule/ScheduleDialog';
import { SCHEDULE_TEXTS } from '../../../src/ui/automation/schedule/ScheduleView';
import { TARGET_TEXTS } from '../../../src/ui/automation/schedule/TargetFields';
import { SCHEDULE_CUSTOMER, SCHEDULE_LINE, scheduleAnswers } from '../../fixtures/schedule';
import type { ModelSeam, UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { MODEL_AT_TYPED } from './schedule-fixtures';

export async function openSchedulePage(seam: ModelSeam): Promise<PageScreen> {
  const page = openPage('/schedule', seam, scheduleAnswers());
  await screen.findByRole('button', { name: cancelName }, { timeout: 5000 });
  return page;
}

const cancelName = `Cancel ${SCHEDULE_OPERATION_LABELS.change_plan} of ${SCHEDULE_LINE} (Barn dish)`;
const dialog = (name: string) => within(screen.getByRole('dialog', { name }));
const button = (scope: ReturnType<typeof within>, name: string) => scope.getByRole('button', { name }) as HTMLButtonElement;
const noDialog = (name: string) => expect(screen.queryByRole('dialog', { name })).toBeNull();

/** Replaces what a field holds in one input event, as a person selecting it all and pasting does. */
async function replaceText(field: HTMLElement, value: string) {
  fireEvent.input(field, { target: { value } });
}

// ---- Cancel ---------------------------------------------------------------------------------

export const scheduleCancelUi: UiModel<typeof scheduleCancelMachine, PageScreen> = {
  open: openSchedulePage,
  // Only the change still to run has a Cancel button.
  drivable: (_, event) => event.type !== 'user.cancelChange' || event.change.status === 'scheduled',
  events: {
    'user.cancelChange': async ({ user }) => user.click(screen.getByRole('button', { name: cancelName })),
    'user.confirm': async ({ user }) => user.click(button(dialog(CANCEL_CHANGE_TEXTS.title), CANCEL_CHANGE_TEXTS.confirm)),
    'user.close': async ({ user }) => user.click(button(dialog(CANCEL_CHANGE_TEXTS.title), 'Cancel')),
  },
  states: {
    closed: () => {
      noDialog(CANCEL_CHANGE_TEXTS.title);
      expect(button(within(document.body), cancelName).disabled).toBe(false);
    },
    confirming: ({ context }) => {
      const d = dialog(CANCEL_CHANGE_TEXTS.title);
      expect(d.getByText(`${SCHEDULE_OPERATION_LABELS.change_plan} of ${SCHEDULE_LINE} (Barn dish)`)).toBeTruthy();
      if (context.failure) expect(d.getByText(context.failure)).toBeTruthy();
      expect(button(d, CANCEL_CHANGE_TEXTS.confirm).disabled).toBe(false);
    },
    cancelling: () => {
      const d = dialog(CANCEL_CHANGE_TEXTS.title);
      expect(button(d, CANCEL_CHANGE_TEXTS.busy).disabled).toBe(true);
      expect(button(d, 'Cancel').disabled).toBe(true);
    },
  },
};

// ---- Schedule a change ----------------------------------------------------------------------

const form = () => dialog(D.title);

/** What the open form shows of the machine's context: the target, the operation, its fields and their problems. */
function expectForm({ context }: { context: ReturnType<typeof scheduleChangeMachine.getInitialSnapshot>['context'] }) {
  const f = form();
  const { form: values, errors } = context;
  if (values.targetType === 'line') expect((f.getByLabelText(TARGET_TEXTS.lineNumber) as HTMLInputElement).value).toBe(values.target);
  else {
    expect((f.getByLabelText(TARGET_TEXTS.findCustomer) as HTMLInputElement).value).toBe(context.customerQuery);
    expect(f.queryAllByRole('button', { name: `${SCHEDULE_CUSTOMER.name} · ${SCHEDULE_CUSTOMER.email}` })).toHaveLength(context.customers.length);
    if (context.searchError) expect(f.getByText(context.searchError)).toBeTruthy();
  }
  expect(f.getByRole('combobox', { name: D.operation }).textContent).toContain(values.operation ? SCHEDULE_OPERATION_LABELS[values.operation] : 'Choose an operation');
  if (values.operation === 'extend') expect((f.getByLabelText(PARAMETER_TEXTS.days) as HTMLInputElement).value).toBe(values.days);
  if (values.operation === 'change_plan' && context.plansError) expect(f.getByText(context.plansError)).toBeTruthy();
  expect(f.queryByLabelText(D.dateTime) !== null).toBe(values.timing === 'at');
  for (const message of Object.values(errors)) if (message) expect(f.getAllByText(message).length).toBeGreaterThan(0);
  if (context.failure) expect(f.getByText(context.failure)).toBeTruthy();
}

export const scheduleChangeUi: UiModel<typeof scheduleChangeMachine, PageScreen> = {
  open: openSchedulePage,
  drivable: (snapshot, event) => {
    const { form: values, customers, customerQuery } = snapshot.context;
    switch (event.type) {
      // A customer is chosen from the matches listed; the time is typed only where it is asked.
      case 'user.customer':
        return customers.length > 0;
      case 'user.at':
        return values.timing === 'at';
      // A field given what it already holds sends nothing.
      case 'user.customerSearch':
        return event.value !== customerQuery;
      case 'user.line':
        return event.value !== values.target;
      case 'user.parameter':
        return event.value !== values[event.field];
      case 'user.retryPlans':
        return !snapshot.hasTag('loadingPlans');
      default:
        return true;
    }
  },
  events: {
    'user.open': async ({ user }) => user.click(screen.getByRole('button', { name: SCHEDULE_TEXTS.schedule })),
    'user.targetType': async ({ user }, event) => user.click(form().getByLabelText(TARGET_TEXTS[event.targetType])),
    'user.line': async (_, event) => replaceText(form().getByLabelText(TARGET_TEXTS.lineNumber), event.value),
    'user.customerSearch': async (_, event) => replaceText(form().getByLabelText(TARGET_TEXTS.findCustomer), event.value),
    'user.customer': async ({ user }, event) => user.click(form().getByRole('button', { name: `${event.customer.name} · ${event.customer.email}` })),
    'user.operation': async ({ user }, event) => {
      await user.click(form().getByRole('combobox', { name: D.operation }));
      await user.click(await screen.findByRole('option', { name: SCHEDULE_OPERATION_LABELS[event.operation] }));
    },
    'user.parameter': async (_, event) => replaceText(form().getByLabelText(event.field === 'days' ? PARAMETER_TEXTS.days : PARAMETER_TEXTS.blockCount), event.value),
    'user.timing': async ({ user }, event) => user.click(form().getByLabelText(D[event.timing])),
    // The whole text at once, as the picker reads it: in happy-dom its overlay takes the keys user.type sends.
    'user.at': async () => void fireEvent.input(form().getByLabelText(D.dateTime), { target: { value: MODEL_AT_TYPED } }),
    'user.retryPlans': async ({ user }) => user.click(button(form(), PARAMETER_TEXTS.retryPlans)),
    'user.submit': async ({ user }) => user.click(button(form(), D.submit)),
    'user.close': async ({ user }) => user.click(button(form(), 'Cancel')),
  },
  states: {
    closed: () => noDialog(D.title),
    'open.editing.idle': (snapshot) => expectForm(snapshot),
    'open.editing.debouncing': (snapshot) => expectForm(snapshot),
    'open.editing.searching': (snapshot) => {
      expectForm(snapshot);
      expect(form().getByText(TARGET_TEXTS.searching)).toBeTruthy();
    },
    'open.editing.loadingPlans': () => expect(form().getByText(PARAMETER_TEXTS.plansLoading)).toBeTruthy(),
    'open.submitting': () => {
      expect(button(form(), D.busy).disabled).toBe(true);
      expect(button(form(), 'Cancel').disabled).toBe(true);
    },
  },
};
