import { describe, expect, it } from 'vitest';
import { SimulatedClock, waitFor } from 'xstate';
import { AUTOMATION_MESSAGES } from '../../src/domain/automation';
import { SCHEDULE_FORM_TEXTS, scheduleChangeView } from '../../src/machines/schedule-change';
import { SEARCH_DEBOUNCE_MS } from '../../src/machines/list';
import { SCHEDULE_CUSTOMER, SCHEDULE_LINE, schedulePlans } from '../fixtures/schedule';
import { ok, refused } from './scripted-actors';
import {
  IN_A_WEEK,
  YESTERDAY,
  at,
  chooseCustomer,
  close,
  customerSearch,
  customerTarget,
  line,
  lineTarget,
  open,
  operation,
  parameter,
  retryPlans,
  startScheduleChange,
  submit,
  targetType,
  timing,
} from './starters/schedule';

describe('schedule change machine: scheduling', () => {
  it("loads the plans when Change plan is chosen, then sends the line's plan change once, toasts and tells the page", async () => {
    const { actor, called, notifySuccess, changeScheduled } = startScheduleChange();
    actor.send(open());
    actor.send(line(` ${SCHEDULE_LINE} `));
    actor.send(operation('change_plan'));
    expect(scheduleChangeView(actor.getSnapshot()).plansLoading).toBe(true);
    await waitFor(actor, (s) => s.context.plans !== null);
    actor.send(parameter('productReferenceId', schedulePlans[1]!.productReferenceId));
    actor.send(at(IN_A_WEEK));
    actor.send(submit());
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().can(close)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('scheduleChange').map((c) => c.input)).toEqual([
      { operation: 'change_plan', target: SCHEDULE_LINE, parameters: { productReferenceId: 'prod-1tb' }, at: IN_A_WEEK },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(AUTOMATION_MESSAGES.scheduled);
    expect(changeScheduled).toHaveBeenCalledOnce();
  });

  it('sends nothing while the form has problems: each sits under its field, and editing a field clears its own', () => {
    const { actor, called } = startScheduleChange();
    actor.send(open());
    actor.send(submit());
    expect(actor.getSnapshot().context.errors).toEqual({
      target: SCHEDULE_FORM_TEXTS.lineRequired,
      operation: SCHEDULE_FORM_TEXTS.operationRequired,
      at: AUTOMATION_MESSAGES.timeInvalid,
    });
    actor.send(line(SCHEDULE_LINE));
    actor.send(operation('recurring_blocks'));
    actor.send(parameter('productId', 'DATA-BLOCK-PRIORITY-50GB'));
    actor.send(parameter('count', '25'));
    actor.send(at(YESTERDAY));
    actor.send(submit());
    expect(actor.getSnapshot().context.errors).toEqual({ count: AUTOMATION_MESSAGES.blockCount, at: AUTOMATION_MESSAGES.timeInPast });
    actor.send(parameter('count', '0'));
    expect(actor.getSnapshot().context.errors).toEqual({ count: undefined, at: AUTOMATION_MESSAGES.timeInPast });
    expect(called('scheduleChange')).toHaveLength(0);
  });

  it("waits for a line's next cycle when asked; a customer's change offers only a time", async () => {
    const { actor, called } = startScheduleChange();
    actor.send(open(lineTarget));
    actor.send(operation('opt_out'));
    actor.send(timing('nextCycle'));
    actor.send(submit());
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('scheduleChange')[0]!.input).toEqual({ operation: 'opt_out', target: SCHEDULE_LINE, parameters: {}, atNextCycle: true });

    actor.send(open(customerTarget));
    expect(actor.getSnapshot().can(timing('nextCycle'))).toBe(false);
    expect(scheduleChangeView(actor.getSnapshot())).toMatchObject({ operations: ['block', 'unblock', 'extend'], nextCycleOffered: false });
    expect(actor.getSnapshot().can(operation('change_plan'))).toBe(false);
  });

  it("puts the server's field errors under their fields with the form as typed, and other refusals above it", async () => {
    const { actor, notifyFailure } = startScheduleChange({
      schedule: [
        { ok: false, status: 400, message: 'Validation failed', errors: [{ path: 'parameters.count', message: 'Too many blocks for this plan' }, { path: 'atNextCycle', message: AUTOMATION_MESSAGES.noNextCycle }] },
        { ok: false, status: 404, message: AUTOMATION_MESSAGES.targetNotFound },
        refused('Provider unavailable'),
        new Error('network'),
      ],
    });
    actor.send(open(lineTarget));
    actor.send(operation('recurring_blocks'));
    actor.send(parameter('count', '3'));
    actor.send(timing('nextCycle'));
    actor.send(submit());
    let back = await waitFor(actor, (s) => s.matches({ open: 'editing' }) && Object.keys(s.context.errors).length > 0);
    expect(back.context.errors).toEqual({ count: 'Too many blocks for this plan', at: AUTOMATION_MESSAGES.noNextCycle });
    expect(back.context.form).toMatchObject({ productId: 'DATA-BLOCK-PRIORITY-50GB', count: '3', timing: 'nextCycle' });
    expect(back.context.failure).toBeNull();
    expect(notifyFailure).toHaveBeenLastCalledWith('Validation failed');

    actor.send(submit());
    back = await waitFor(actor, (s) => s.matches({ open: 'editing' }) && s.context.errors.target !== undefined);
    expect(back.context.errors).toEqual({ target: AUTOMATION_MESSAGES.targetNotFound });

    actor.send(submit());
    back = await waitFor(actor, (s) => s.matches({ open: 'editing' }) && s.context.failure !== null);
    expect(back.context.failure).toBe('Provider unavailable');

    actor.send(submit());
    await waitFor(actor, (s) => s.matches({ open: 'editing' }) && s.context.failure === SCHEDULE_FORM_TEXTS.failed);
    expect(notifyFailure).toHaveBeenLastCalledWith(SCHEDULE_FORM_TEXTS.failed);
  });

  it('keeps a given target: it cannot be retyped, and its block products are the choice', () => {
    const { actor } = startScheduleChange();
    actor.send(open(lineTarget));
    expect(actor.getSnapshot().can(line('OTHER-LINE'))).toBe(false);
    expect(actor.getSnapshot().can(targetType('customer'))).toBe(false);
    actor.send(operation('recurring_blocks'));
    expect(actor.getSnapshot().context.form).toMatchObject({ target: SCHEDULE_LINE, productId: 'DATA-BLOCK-PRIORITY-50GB', count: '1' });
  });

  it('plans that fail to load say so and are tried again on request', async () => {
    const { actor, called } = startScheduleChange({ plans: [refused(''), ok(schedulePlans)] });
    actor.send(open(lineTarget));
    actor.send(operation('change_plan'));
    await waitFor(actor, (s) => s.context.plansError !== null);
    expect(actor.getSnapshot().context.plansError).toBe(SCHEDULE_FORM_TEXTS.plansFailed);
    actor.send(retryPlans);
    await waitFor(actor, (s) => s.context.plans !== null);
    expect(called('loadPlans')).toHaveLength(2);
    // Loaded plans serve the next opening too.
    actor.send(close);
    actor.send(open(lineTarget));
    actor.send(operation('change_plan'));
    expect(called('loadPlans')).toHaveLength(2);
  });
});

describe('schedule change machine: choosing a customer', () => {
  it('searches once the typing pauses, and the customer chosen becomes the target', async () => {
    const clock = new SimulatedClock();
    const { actor, called } = startScheduleChange({}, clock);
    actor.send(open());
    actor.send(targetType('customer'));
    actor.send(customerSearch('Har'));
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    actor.send(customerSearch('Harbour'));
    clock.increment(SEARCH_DEBOUNCE_MS);
    await waitFor(actor, (s) => s.context.customers.length > 0);
    expect(called('findCustomers').map((c) => c.input)).toEqual(['Harbour']);
    actor.send(chooseCustomer());
    actor.send(operation('extend'));
    expect(actor.getSnapshot().context.form).toMatchObject({ targetType: 'customer', target: SCHEDULE_CUSTOMER.uuid, targetLabel: SCHEDULE_CUSTOMER.name, days: '30' });
    // Back to a line: the customer and the operation go, the time stays.
    actor.send(at(IN_A_WEEK));
    actor.send(targetType('line'));
    expect(actor.getSnapshot().context.form).toMatchObject({ targetType: 'line', target: '', operation: '', at: IN_A_WEEK });
  });

  it('an emptied search box searches nothing and clears the matches', async () => {
    const clock = new SimulatedClock();
    const { actor, called } = startScheduleChange({}, clock);
    actor.send(open());
    actor.send(targetType('customer'));
    actor.send(customerSearch('Harbour'));
    clock.increment(SEARCH_DEBOUNCE_MS);
    await waitFor(actor, (s) => s.context.customers.length > 0);
    actor.send(customerSearch('  '));
    clock.increment(SEARCH_DEBOUNCE_MS);
    expect(actor.getSnapshot().context.customers).toEqual([]);
    expect(called('findCustomers')).toHaveLength(1);
  });
});
