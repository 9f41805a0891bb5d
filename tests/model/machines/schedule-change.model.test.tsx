// Schedule a change (scheduleChange machine): its generated paths walked on the machine and through
// the /schedule page's "Schedule a change" dialog (no target given: a line typed, or a customer
// found), plus journeys pinned by hand.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { SCHEDULE_FORM_TEXTS, scheduleChangeMachine, scheduleFormProblems } from '../../../src/machines/schedule-change';
import { SCHEDULE_CUSTOMER, SCHEDULE_LINE, schedulePlans, upcomingChange } from '../../fixtures/schedule';
import { ok, refused } from '../../machines/scripted-actors';
import { close, customerTarget, lineTarget, open, operation, retryPlans, startScheduleChange, submit, timing } from '../../machines/starters/schedule';
import { defineModel } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { scheduleChangeEvents } from './schedule-change.events';
import { MODEL_NOW, scheduleChangeResults } from './schedule-fixtures';
import { scheduleChangeUi } from './schedule-page';

export const scheduleChangeModel = defineModel<typeof scheduleChangeMachine, PageScreen>({
  name: 'schedule-change',
  machine: scheduleChangeMachine,
  events: scheduleChangeEvents,
  actorResults: scheduleChangeResults,
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    'open.editing.idle': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
    },
    'open.editing.debouncing': (s) => {
      expect(s.context.form.targetType).toBe('customer');
      expect(s.context.customerQuery.trim()).not.toBe('');
    },
    'open.editing.searching': (s) => {
      expect(s.hasTag('searching')).toBe(true);
      expect(s.context.form.targetType).toBe('customer');
    },
    'open.editing.loadingPlans': (s) => {
      expect(s.hasTag('loadingPlans')).toBe(true);
      expect(s.context.form.operation).toBe('change_plan');
      expect(s.context.plans).toBeNull();
    },
    'open.submitting': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.failure).toBeNull();
      expect(scheduleFormProblems(s.context.form, new Date(MODEL_NOW))).toEqual({});
    },
  },
  ui: scheduleChangeUi,
});

modelSuite(scheduleChangeModel);

describe('schedule change machine (pinned journeys)', () => {
  it("a line's plan change after a failed plan load: retried, chosen, refused once at the next cycle, then scheduled", async () => {
    const { actor, called, changeScheduled } = startScheduleChange({
      plans: [refused(''), ok(schedulePlans)],
      schedule: [{ ok: false, status: 400, message: 'Validation failed', errors: [{ path: 'atNextCycle', message: 'The line has no billing cycle yet' }] }, ok(upcomingChange)],
    });
    actor.send(open(lineTarget));
    actor.send(operation('change_plan'));
    await waitFor(actor, (s) => s.context.plansError === SCHEDULE_FORM_TEXTS.plansFailed);
    actor.send(retryPlans);
    await waitFor(actor, (s) => s.context.plans !== null);
    actor.send({ type: 'user.parameter', field: 'productReferenceId', value: 'prod-50gb' });
    actor.send(timing('nextCycle'));
    actor.send(submit(MODEL_NOW));
    const back = await waitFor(actor, (s) => s.matches({ open: 'editing' }) && s.context.errors.at !== undefined);
    expect(back.context.errors.at).toBe('The line has no billing cycle yet');
    actor.send(submit(MODEL_NOW));
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('scheduleChange').map((c) => c.input)).toEqual([
      { operation: 'change_plan', target: SCHEDULE_LINE, parameters: { productReferenceId: 'prod-50gb' }, atNextCycle: true },
      { operation: 'change_plan', target: SCHEDULE_LINE, parameters: { productReferenceId: 'prod-50gb' }, atNextCycle: true },
    ]);
    expect(changeScheduled).toHaveBeenCalledOnce();
  });

  it("closing forgets the form: a customer's dialog opened next starts empty with that customer", () => {
    const { actor } = startScheduleChange();
    actor.send(open(lineTarget));
    actor.send(operation('opt_in'));
    actor.send(submit(MODEL_NOW));
    actor.send(close);
    actor.send(open(customerTarget));
    expect(actor.getSnapshot().context).toMatchObject({
      preset: true,
      form: { targetType: 'customer', target: SCHEDULE_CUSTOMER.uuid, operation: '', timing: 'at', at: '' },
      errors: {},
      failure: null,
    });
  });
});
