// Subscriptions → Change Plan (subscriptionPlan machine): its generated paths walked on the machine
// and through the /subscription page (one terminal on the 50 GB plan), plus journeys pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { SUBSCRIPTION_MESSAGES } from '../../../src/domain/subscriptions';
import { FALLBACK_LOAD_ERROR } from '../../../src/machines/resource';
import { subscriptionPlanMachine } from '../../../src/machines/subscription-plan';
import { CHANGING_TEXT, PLANS_LOADING_TEXT } from '../../../src/ui/subscriptions/ChangePlanDialog';
import { plan1TB, plan50, SL, subscriptionPage } from '../../fixtures/subscriptions-client';
import { ok, refused } from '../../machines/scripted-actors';
import { back, cancel, changed, choose, confirm, current, next, open, startDialog } from '../../machines/starters/subscription-plan';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const PLAN_LABELS: Record<string, RegExp> = { [plan50.productReferenceId]: /^Standard 50 GB/, [plan1TB.productReferenceId]: /^Priority 1 TB/ };

const dialog = () => within(screen.getByRole('dialog', { name: SUBSCRIPTION_MESSAGES.changePlan }));
const button = (name: string) => dialog().getByRole('button', { name }) as HTMLButtonElement;
const expectNoDialog = () => expect(screen.queryByRole('dialog', { name: SUBSCRIPTION_MESSAGES.changePlan })).toBeNull();
/** The dialog names the terminal it is for, and shows an error only when the machine holds one. */
function expectDialogFor(error: string | null) {
  expect(dialog().getByText(`${current.terminalId} · ${SL}`)).toBeTruthy();
  if (error) expect(dialog().getByText(error)).toBeTruthy();
  else expect(dialog().queryByText(FALLBACK_LOAD_ERROR)).toBeNull();
}

export const subscriptionPlanModel = defineModel<typeof subscriptionPlanMachine, PageScreen>({
  name: 'subscription-plan',
  machine: subscriptionPlanMachine,
  events: {
    'user.open': [open],
    // The current plan is never choosable: its fixture is there to prove the guard holds it back.
    'user.choose': [choose(plan50.productReferenceId), choose(plan1TB.productReferenceId)],
    'user.next': [next],
    'user.back': [back],
    'user.confirm': [confirm],
    'user.cancel': [cancel],
  },
  // One answer per guarded branch of each invoke.
  actorResults: [
    done('loadPlans', ok([plan50, plan1TB])),
    done('loadPlans', refused('')),
    failed('loadPlans', new Error('boom')),
    done('changePlan', ok(changed)),
    done('changePlan', refused('Refused')),
    failed('changePlan', new Error('boom')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    loadingPlans: (s) => {
      expect(s.hasTag('open')).toBe(true);
      // Opening forgets the last dialog.
      expect(s.context).toMatchObject({ subscription: current, plans: [], chosen: null, error: null });
    },
    choosing: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      // Either the offered plans, or the reason there are none.
      expect(s.context.plans.length > 0).toBe(s.context.error === null);
      expect(s.context.chosen).not.toBe(current.productReferenceId);
      expect(s.can(choose(plan50.productReferenceId))).toBe(false);
    },
    confirming: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.chosen).toBe(plan1TB.productReferenceId);
    },
    changing: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
      expect(s.context).toMatchObject({ chosen: plan1TB.productReferenceId, error: null });
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/subscription', seam, {
        'GET /api/v1/subscriptions': { body: { success: true, message: 'ok', data: subscriptionPage([current]) } },
      });
      await screen.findByRole('button', { name: `${SUBSCRIPTION_MESSAGES.changePlan} ${SL}` }, { timeout: 5000 });
      return page;
    },
    events: {
      'user.open': async ({ user }, event) => user.click(screen.getByRole('button', { name: `${SUBSCRIPTION_MESSAGES.changePlan} ${event.subscription.serviceLineNumber}` })),
      'user.choose': async ({ user }, event) => user.click(dialog().getByRole('radio', { name: PLAN_LABELS[event.productReferenceId]! })),
      'user.next': async ({ user }) => user.click(button('Next')),
      'user.back': async ({ user }) => user.click(button('Back')),
      'user.confirm': async ({ user }) => user.click(button('Confirm')),
      'user.cancel': async ({ user }) => user.click(button('Cancel')),
    },
    states: {
      closed: () => {
        expectNoDialog();
        expect(screen.getByRole('button', { name: `${SUBSCRIPTION_MESSAGES.changePlan} ${SL}` })).toHaveProperty('disabled', false);
      },
      loadingPlans: () => {
        expectDialogFor(null);
        expect(dialog().getByRole('status').textContent).toContain(PLANS_LOADING_TEXT);
        expect(dialog().queryByRole('radio')).toBeNull();
        expect(button('Next').disabled).toBe(true);
        expect(button('Cancel').disabled).toBe(false);
      },
      choosing: ({ context }) => {
        expectDialogFor(context.error);
        expect(dialog().queryByText(PLANS_LOADING_TEXT)).toBeNull();
        const radios = dialog().queryAllByRole('radio') as HTMLInputElement[];
        expect(radios).toHaveLength(context.plans.length);
        if (context.plans.length > 0) {
          expect(dialog().getByRole('radio', { name: PLAN_LABELS[plan50.productReferenceId]! })).toHaveProperty('disabled', true);
          expect(dialog().getByRole('radio', { name: PLAN_LABELS[plan1TB.productReferenceId]! })).toHaveProperty('checked', context.chosen === plan1TB.productReferenceId);
        }
        expect(button('Next').disabled).toBe(context.chosen === null);
        expect(dialog().queryByRole('button', { name: 'Confirm' })).toBeNull();
      },
      confirming: ({ context }) => {
        expectDialogFor(context.error);
        expect(dialog().getByText(`Change ${SL} from 50 GB to Priority 1 TB: monthly data 1 TB, price 250.00 USD.`)).toBeTruthy();
        expect(dialog().queryByRole('radio')).toBeNull();
        for (const name of ['Confirm', 'Back', 'Cancel']) expect(button(name).disabled).toBe(false);
      },
      changing: () => {
        expectDialogFor(null);
        for (const name of [CHANGING_TEXT, 'Back', 'Cancel']) expect(button(name).disabled).toBe(true);
        // Not closable while the provider may be changing the line.
        expect(dialog().queryByRole('button', { name: 'Close' })).toBeNull();
      },
    },
  },
});

modelSuite(subscriptionPlanModel);

describe('subscription plan machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('choose, back, choose again, a refusal, then success: one change toast and one reload', async () => {
    const { actor, calls, notifySuccess, planChanged } = startDialog({ change: [refused('Busy'), ok(changed)] });
    actor.send(open);
    await waitFor(actor, (s) => s.matches('choosing'));
    actor.send(choose(plan1TB.productReferenceId));
    actor.send(next);
    actor.send(back);
    actor.send(next);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming') && s.context.error !== null);
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches('closed'));
    expect(snapshot.context).toMatchObject({ subscription: current, chosen: plan1TB.productReferenceId, error: null });
    expect(calls.map((c) => c.name)).toEqual(['loadPlans', 'changePlan', 'changePlan']);
    expect(notifySuccess).toHaveBeenCalledOnce();
    expect(planChanged).toHaveBeenCalledExactlyOnceWith(changed);
  });
});
