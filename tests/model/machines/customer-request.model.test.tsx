// My Requests → New request / Cancel (customerRequest machine): its generated paths walked on the
// machine and through the /my/requests page, plus journeys pinned by hand.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { REQUEST_MESSAGES } from '../../../src/domain/requests';
import { customerRequestMachine } from '../../../src/machines/customer-request';
import { LINE_A, LINE_B, customerRequest, lineOptions } from '../../fixtures/requests-client';
import { ok, refused } from '../../machines/scripted-actors';
import { cancelRequest, cancelled, close, confirm, count, kind, line, note, open, plan, sent, startRequests, submit } from '../../machines/starters/customer-request';
import { defineModel, done, failed } from '../framework/model';
import { modelSuite } from '../framework/suite';
import { customerRequestUi, type MyRequestsScreen } from './my-requests-page';

export const customerRequestModel = defineModel<typeof customerRequestMachine, MyRequestsScreen>({
  name: 'customer-request',
  machine: customerRequestMachine,
  events: {
    'user.open': [open],
    // 'AST-…-99' is not one of the customer's lines: the guard holds it back.
    'user.line': [line(LINE_A), line(LINE_B), line('AST-999999-99999-99')],
    'user.kind': [kind('top_up'), kind('plan_change')],
    // The current plan is not offered: its fixture proves the guard.
    'user.plan': [plan('SUB-METERED-1TB'), plan('SUB-METERED-50GB')],
    // Three is over the two blocks left.
    'user.count': [count(2), count(3)],
    'user.note': [note('Harvest')],
    'user.submit': [submit],
    'user.cancelRequest': [cancelRequest(), cancelRequest(customerRequest({ status: 'approved' }))],
    'user.confirm': [confirm],
    'user.close': [close],
  },
  actorResults: [
    done('loadOptions', ok(lineOptions)),
    done('loadOptions', refused(REQUEST_MESSAGES.lineEnding)),
    failed('loadOptions', new Error('boom')),
    done('sendRequest', ok(sent)),
    done('sendRequest', refused('Refused')),
    failed('sendRequest', new Error('boom')),
    done('cancelRequest', ok(cancelled)),
    done('cancelRequest', refused('Refused')),
    failed('cancelRequest', new Error('boom')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    choosingLine: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.options).toBeNull();
    },
    loadingOptions: (s) => {
      expect([LINE_A, LINE_B]).toContain(s.context.serviceLineNumber);
      expect(s.context).toMatchObject({ options: null, error: null });
    },
    editing: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.options).toEqual(lineOptions);
      expect(s.context.count).toBeLessThanOrEqual(lineOptions.topUp!.blocksLeft);
    },
    submitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
    },
    confirmingCancel: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.request?.status).toBe('pending');
    },
    cancelling: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
    },
  },
  ui: customerRequestUi,
});

modelSuite(customerRequestModel);

describe('customer request machine (pinned journeys)', () => {
  it('a top-up, a refusal, a switch to a plan change that goes through: one request sent, one reload', async () => {
    const { actor, called, requestsChanged } = startRequests({ send: [refused('Busy'), ok(sent)] });
    actor.send(open);
    actor.send(line(LINE_B));
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send(kind('top_up'));
    actor.send(count(2));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    actor.send(kind('plan_change'));
    actor.send(plan('SUB-METERED-1TB'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('sendRequest').map((c) => c.input)).toEqual([
      { serviceLineNumber: LINE_B, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 2, note: undefined },
      { serviceLineNumber: LINE_B, kind: 'plan_change', productId: 'SUB-METERED-1TB', note: undefined },
    ]);
    expect(requestsChanged).toHaveBeenCalledOnce();
  });
});
