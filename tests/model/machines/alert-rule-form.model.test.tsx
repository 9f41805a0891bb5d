// Alert rules → one rule's card (alertRuleForm machine): its generated paths walked on the machine
// and through the /alerts/rules page, plus a journey pinned by hand. The page is served one rule,
// the account-expiry rule: a line rule's card holds a second form (its overrides), and the UI run
// drives one actor of the machine at a time. An override's own actions are the data use and
// projected overage overrides' (their journey: tests/machines and tests/ui/AlertRules.test.tsx).
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { ALERT_MESSAGES } from '../../../src/domain/alerts';
import { alertRuleFormMachine, ruleFormProblems } from '../../../src/machines/alert-rule-form';
import { SAVING_TEXT } from '../../../src/ui/alerts/AlertRulesView';
import { envelope, ruleWire } from '../../fixtures/alerts';
import { ok, refused } from '../../machines/scripted-actors';
import { actionMode, chooseAction, enabled, key, levels, notifyCustomer, notifyOnly, ownActions, plan, save, scope, startRuleForm, subscribe, threshold } from '../../machines/starters/alert-rule-form';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const rule = ruleWire({ kind: 'account_expiring', usageLevels: null, threshold: 14 });
const savedRule = ruleWire({ kind: 'account_expiring', usageLevels: null, threshold: 30 });

const card = () => within(screen.getByRole('form', { name: 'Account expiring rule' }));
const field = () => card().getByLabelText('Threshold (days before expiry)') as HTMLInputElement;
const toggle = (label: string) => card().getByLabelText(label) as HTMLInputElement;
const emailMe = () => screen.getByLabelText('Email me') as HTMLInputElement;
const saveButton = () => card().getByRole('button', { name: /^(Save|Saving\.\.\.)$/ }) as HTMLButtonElement;

function expectFields({ context }: { context: { enabled: boolean; threshold: number | null; notifyCustomer: boolean; errors: { threshold: string | null } } }) {
  expect(toggle('Enabled').checked).toBe(context.enabled);
  expect(toggle('Also email the customer').checked).toBe(context.notifyCustomer);
  expect(field().value).toBe(context.threshold === null ? '' : String(context.threshold));
  if (context.errors.threshold) expect(card().getByText(context.errors.threshold)).toBeTruthy();
}

const ui: UiModel<typeof alertRuleFormMachine, PageScreen> = {
  open: async (seam) => {
    const page = openPage('/alerts/rules', seam, { 'GET /api/v1/alert-rules': { body: envelope([rule]) } });
    await screen.findByRole('form', { name: 'Account expiring rule' }, { timeout: 5000 });
    return page;
  },
  // The account-expiry card has a threshold, no levels and no override fields; a switch flips.
  drivable: (snapshot, event) => {
    if ((OVERRIDE_ONLY as readonly string[]).includes(event.type)) return false;
    if (event.type === 'user.enabled') return event.value !== snapshot.context.enabled;
    if (event.type === 'user.notifyCustomer') return event.value !== snapshot.context.notifyCustomer;
    if (event.type === 'user.subscribe') return event.value !== snapshot.context.subscribed;
    return true;
  },
  events: {
    'user.enabled': async ({ user }) => user.click(toggle('Enabled')),
    'user.levels': async () => {},
    'user.threshold': async ({ user }, event) => {
      await user.clear(field());
      if (event.value !== null) await user.type(field(), String(event.value));
    },
    'user.notifyCustomer': async ({ user }) => user.click(toggle('Also email the customer')),
    'user.scope': async () => {},
    'user.key': async () => {},
    'user.ownActions': async () => {},
    'user.notifyOnly': async () => {},
    'user.action': async () => {},
    'user.mode': async () => {},
    'user.plan': async () => {},
    'user.save': async ({ user }) => user.click(saveButton()),
    'user.subscribe': async ({ user }) => user.click(emailMe()),
  },
  states: {
    'form.editing': (snapshot) => {
      expectFields(snapshot);
      expect(saveButton().textContent).toBe('Save');
      expect(card().queryByText(ALERT_MESSAGES.ruleSaved)).toBeNull();
    },
    'form.saving': () => {
      expect(saveButton().textContent).toBe(SAVING_TEXT);
      expect(saveButton().disabled).toBe(true);
      expect(toggle('Enabled').disabled).toBe(true);
    },
    'form.saved': (snapshot) => {
      expectFields(snapshot);
      expect(card().getByText(ALERT_MESSAGES.ruleSaved)).toBeTruthy();
    },
    'form.failed': (snapshot) => {
      expectFields(snapshot);
      expect(card().getByText(snapshot.context.failure!)).toBeTruthy();
    },
    'subscription.idle': ({ context }) => {
      expect(emailMe().checked).toBe(context.subscribed);
      expect(emailMe().disabled).toBe(false);
    },
    'subscription.switching': () => expect(emailMe().disabled).toBe(true),
  },
};

// A saved or refused form held no problem when it was sent, and nothing changes it but an edit
// (which leaves for editing): the guard's other branch cannot be taken there.
const unreachable = {
  'alertRuleForm.form.saved: user.save #2': 'a saved form has no problem until an edit, which leaves saved',
  'alertRuleForm.form.failed: user.save #2': 'a refused form had no problem when sent, and an edit leaves failed',
};
const noSuchField = (field: string) => `the account-expiry card has no ${field} field (the data-use card and the override form: tests/ui/AlertRules.test.tsx)`;
/** The fields the account-expiry card lacks, and what each is called in the exclusions. */
const OVERRIDE_ONLY = ['user.levels', 'user.scope', 'user.key', 'user.ownActions', 'user.notifyOnly', 'user.action', 'user.mode', 'user.plan'] as const;
const FIELD_NAMES: Record<(typeof OVERRIDE_ONLY)[number], string> = {
  'user.levels': 'levels',
  'user.scope': 'scope',
  'user.key': 'key',
  'user.ownActions': 'actions choice',
  'user.notifyOnly': '"Notify only"',
  'user.action': 'action',
  'user.mode': 'action mode',
  'user.plan': 'plan',
};

export const alertRuleFormModel = defineModel<typeof alertRuleFormMachine, PageScreen>({
  name: 'alert-rule-form',
  machine: alertRuleFormMachine,
  input: { rule, canEdit: true },
  events: {
    'user.enabled': [enabled(false)],
    // The values the account-expiry form already holds: these fields are not on its card, and
    // values of their own would only multiply the paths (the data-use and override tests type them).
    'user.levels': [levels('')],
    'user.threshold': [threshold(30), threshold(0)],
    'user.notifyCustomer': [notifyCustomer(true)],
    'user.scope': [scope('line')],
    'user.key': [key('')],
    // Likewise the rule's actions: the form holds none of its own, and these change nothing.
    'user.ownActions': [ownActions(false)],
    'user.notifyOnly': [notifyOnly(0)],
    'user.action': [chooseAction(0, 'opt_out', false)],
    'user.mode': [actionMode(0, 'opt_out', 'act')],
    'user.plan': [plan(0, 'SUB-METERED-1TB')],
    'user.save': [save],
    'user.subscribe': [subscribe(true)],
  },
  actorResults: [
    done('saveRule', ok(savedRule)),
    done('saveRule', refused('Refused')),
    failed('saveRule', new Error('boom')),
    done('saveSubscription', ok(ruleWire({ kind: 'account_expiring', subscribed: true }))),
    done('saveSubscription', refused('Refused')),
    failed('saveSubscription', new Error('boom')),
  ],
  states: {
    'form.editing': (s) => expect(s.hasTag('busy')).toBe(false),
    'form.saving': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(ruleFormProblems(s.context)).toEqual({ levels: null, threshold: null, key: null, actions: null });
      expect(s.context.failure).toBeNull();
    },
    'form.saved': (s) => expect(s.context.failure).toBeNull(),
    'form.failed': (s) => expect(s.context.failure).not.toBeNull(),
    'subscription.idle': (s) => expect(s.hasTag('switching')).toBe(false),
    'subscription.switching': (s) => expect(s.hasTag('switching')).toBe(true),
  },
  ui,
  exclude: {
    machine: { transitions: unreachable },
    ui: {
      transitions: {
        ...unreachable,
        ...Object.fromEntries(
          ['editing', 'saved', 'failed'].flatMap((state) => OVERRIDE_ONLY.map((type) => [`alertRuleForm.form.${state}: ${type} #1`, noSuchField(FIELD_NAMES[type])])),
        ),
      },
    },
  },
});

modelSuite(alertRuleFormModel);

describe('alert rule form machine (pinned journeys)', () => {
  it('a refused save, a fixed threshold and a second save: one saved rule, one toast', async () => {
    const { actor, calls, notifySuccess, notifyFailure } = startRuleForm({ rule, canEdit: true }, [refused('Busy'), ok(savedRule)]);
    actor.send(threshold(0));
    actor.send(save);
    expect(actor.getSnapshot().context.errors.threshold).toBe(ALERT_MESSAGES.thresholdOutOfRange('account_expiring'));
    actor.send(threshold(30));
    actor.send(save);
    await waitFor(actor, (s) => s.matches({ form: 'failed' }));
    actor.send(save);
    const snapshot = await waitFor(actor, (s) => s.matches({ form: 'saved' }));
    expect(snapshot.context).toMatchObject({ threshold: 30, notifyCustomer: false, failure: null });
    expect(calls.map((c) => c.input)).toEqual([
      { kind: 'account_expiring', target: 'rule', payload: { enabled: true, usageLevels: null, threshold: 30, notifyCustomer: false } },
      { kind: 'account_expiring', target: 'rule', payload: { enabled: true, usageLevels: null, threshold: 30, notifyCustomer: false } },
    ]);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith('Busy');
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(ALERT_MESSAGES.ruleSaved);
  });
});
