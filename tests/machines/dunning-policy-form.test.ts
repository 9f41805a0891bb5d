import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { DEFAULT_DUNNING_POLICY, LEDGER_MESSAGES } from '../../src/domain/ledger';
import { POLICY_TEXTS, dunningPolicyView, policyForm, policyOf, validatePolicyForm } from '../../src/machines/dunning-policy-form';
import { policyField, policyToggle, retry, startDunningPolicy, storedPolicy } from '../fixtures/ledger';
import { ok, refused } from './scripted-actors';

const submit = { type: 'user.submit' } as const;

describe('dunning policy rules', () => {
  it('reads the policy into the form and back, a blank reminder between two skipped', () => {
    expect(policyOf(policyForm(DEFAULT_DUNNING_POLICY))).toEqual(DEFAULT_DUNNING_POLICY);
    const form = { ...policyForm(DEFAULT_DUNNING_POLICY), reminder1: '5', reminder2: '', reminder3: '12', finalNotice: '', block: '' };
    expect(policyOf(form)).toEqual({ ...DEFAULT_DUNNING_POLICY, reminderDays: [5, 12], finalNoticeDays: null, blockDays: null });
  });

  it('takes whole days from 1 to 365 or blank, in order', () => {
    const form = policyForm(DEFAULT_DUNNING_POLICY);
    expect(validatePolicyForm(form)).toEqual({});
    expect(validatePolicyForm({ ...form, reminder2: '1.5', block: '400' })).toEqual({ reminder2: POLICY_TEXTS.daysInvalid, block: POLICY_TEXTS.daysInvalid });
    expect(validatePolicyForm({ ...form, finalNotice: '40' })).toEqual({ order: LEDGER_MESSAGES.policyOrder });
  });
});

describe('dunning policy form machine', () => {
  it('loads the policy, saves the changed one and shows what the server stored', async () => {
    const { actor, called, notifySuccess } = startDunningPolicy();
    const editing = await waitFor(actor, (s) => s.matches('editing'));
    expect(dunningPolicyView(editing)).toMatchObject({ ready: true, form: { enabled: true, reminder1: '7', finalNotice: '21', block: '30' } });
    actor.send(policyField('reminder1', '5'));
    actor.send(policyField('reminder2', '12'));
    actor.send(policyToggle('proposeLineEnds', true));
    actor.send(submit);
    expect(dunningPolicyView(actor.getSnapshot()).saving).toBe(true);
    const saved = await waitFor(actor, (s) => s.matches('editing') && called('savePolicy').length === 1);
    expect(called('savePolicy')[0]!.input).toEqual({ enabled: true, reminderDays: [5, 12], finalNoticeDays: 21, blockDays: 30, proposeLineEnds: true });
    expect(saved.context.form).toMatchObject({ reminder1: '5', reminder2: '12', proposeLineEnds: false });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.policySaved);
  });

  it('sends nothing out of order, and shows the server’s 400 above the form', async () => {
    const message = 'Validation failed: blockDays must be a whole number of days from 1 to 365, or null';
    const { actor, called, notifyFailure } = startDunningPolicy({ save: [refused(message)] });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(policyField('block', '10'));
    actor.send(submit);
    expect(actor.getSnapshot().context.errors.order).toBe(LEDGER_MESSAGES.policyOrder);
    expect(called('savePolicy')).toHaveLength(0);
    actor.send(policyField('block', '60'));
    expect(actor.getSnapshot().context.errors.order).toBeUndefined();
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(back.context.failure).toBe(message);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(message);
  });

  it('says why it could not load, and Try again loads it', async () => {
    const { actor } = startDunningPolicy({ load: [refused('Only those who read billing see the policy'), ok(storedPolicy())] });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(dunningPolicyView(failed).loadError).toBe('Only those who read billing see the policy');
    actor.send(retry);
    await waitFor(actor, (s) => s.matches('editing'));
  });
});
