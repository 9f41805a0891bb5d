// Ageing → Dunning policy (dunningPolicyForm machine): its generated paths walked on the machine
// and through the /billing/ageing page (the policy read, a second reminder typed, a block before
// the final notice refused on the page, the line-ending proposal ticked, Save), plus a journey
// pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../../src/domain/ledger';
import { dunningPolicyFormMachine, validatePolicyForm, type PolicyDaysField } from '../../../src/machines/dunning-policy-form';
import { AGEING_TEXTS as T } from '../../../src/ui/billing/ageing/parts';
import { ageingAnswers, policyField, policyToggle, retry, startDunningPolicy, storedPolicy } from '../../fixtures/ledger';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const REFUSAL = 'Validation failed: reminderDays must be up to 3 whole numbers of days from 1 to 365';
const LABELS: Readonly<Record<PolicyDaysField, string>> = { reminder1: T.reminder(1), reminder2: T.reminder(2), reminder3: T.reminder(3), finalNotice: T.finalNotice, block: T.block };
const submit = { type: 'user.submit' } as const;

const panel = () => within(screen.getByRole('region', { name: T.policyTitle }));
const input = (field: PolicyDaysField) => panel().getByLabelText(LABELS[field]) as HTMLInputElement;
const box = (label: string) => panel().getByRole('checkbox', { name: label }) as HTMLInputElement;

export const dunningPolicyModel = defineModel<typeof dunningPolicyFormMachine, PageScreen>({
  name: 'dunning-policy-form',
  machine: dunningPolicyFormMachine,
  events: {
    // A block on day 10 comes before the final notice on day 21: refused on the page.
    'user.field': [policyField('reminder2', '14'), policyField('block', '10')],
    'user.toggle': [policyToggle('proposeLineEnds', true)],
    'user.submit': [submit],
    'user.retry': [retry],
  },
  actorResults: [
    done('loadPolicy', ok(storedPolicy())),
    done('loadPolicy', refused('Only those who read billing see the policy')),
    failed('loadPolicy', new TypeError('fetch failed')),
    done('savePolicy', ok(storedPolicy({ reminderDays: [7, 14], proposeLineEnds: true }))),
    done('savePolicy', refused(REFUSAL)),
    failed('savePolicy', new TypeError('fetch failed')),
  ],
  states: {
    loading: (s) => expect(s.hasTag('loading')).toBe(true),
    failed: (s) => expect(s.context.loadError).toBeTruthy(),
    editing: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      if (s.context.errors.order) expect(s.context.errors.order).toBe(LEDGER_MESSAGES.policyOrder);
    },
    saving: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(validatePolicyForm(s.context.form)).toEqual({});
      expect(s.context.failure).toBeNull();
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/billing/ageing', seam, ageingAnswers());
      await screen.findByText(T.policyLoading, undefined, { timeout: 5000 });
      return page;
    },
    // A checkbox already ticked cannot be ticked.
    drivable: (snapshot, event) => (event.type === 'user.toggle' ? snapshot.context.form[event.field] !== event.value : true),
    events: {
      'user.field': async ({ user }, event) => {
        await user.clear(input(event.field));
        await user.click(input(event.field));
        await user.paste(event.value);
      },
      'user.toggle': async ({ user }) => user.click(box(T.proposeLineEnds)),
      'user.submit': async ({ user }) => user.click(panel().getByRole('button', { name: T.save })),
      'user.retry': async ({ user }) => user.click(panel().getByRole('button', { name: 'Try Again' })),
    },
    states: {
      loading: () => expect(panel().getByText(T.policyLoading)).toBeTruthy(),
      failed: ({ context }) => {
        expect(panel().getByText(T.policyFailed)).toBeTruthy();
        expect(panel().getByText(context.loadError!)).toBeTruthy();
      },
      editing: ({ context }) => {
        const { form, errors } = context;
        for (const field of Object.keys(LABELS) as PolicyDaysField[]) expect(input(field).value).toBe(form[field]);
        expect(box(T.policyEnabled).checked).toBe(form.enabled);
        expect(box(T.proposeLineEnds).checked).toBe(form.proposeLineEnds);
        if (errors.order) expect(panel().getByText(errors.order)).toBeTruthy();
        else expect(panel().queryByText(LEDGER_MESSAGES.policyOrder)).toBeNull();
        if (context.failure) expect(panel().getByText(context.failure)).toBeTruthy();
        expect((panel().getByRole('button', { name: T.save }) as HTMLButtonElement).disabled).toBe(false);
      },
      saving: () => {
        expect((panel().getByRole('button', { name: T.saving }) as HTMLButtonElement).disabled).toBe(true);
        expect(input('block').disabled).toBe(true);
      },
    },
  },
});

modelSuite(dunningPolicyModel);

describe('dunning policy form machine (pinned journeys)', () => {
  it('a load that failed, tried again; a block before the final notice refused; a second reminder saved', async () => {
    const { actor, called, notifySuccess } = startDunningPolicy({ load: [refused('Try later'), ok(storedPolicy())] });
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send(retry);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(policyField('block', '10'));
    actor.send(submit);
    expect(actor.getSnapshot().context.errors).toEqual({ order: LEDGER_MESSAGES.policyOrder });
    actor.send(policyField('block', '30'));
    actor.send(policyField('reminder2', '14'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('editing') && called('savePolicy').length === 1);
    expect(called('savePolicy')[0]!.input).toEqual({ enabled: true, reminderDays: [7, 14], finalNoticeDays: 21, blockDays: 30, proposeLineEnds: false });
    expect(notifySuccess).toHaveBeenCalledOnce();
  });
});
