import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { REQUEST_MESSAGES } from '../../src/domain/requests';
import { FALLBACK_LOAD_ERROR } from '../../src/machines/resource';
import { SEND_FAILED, requestPayload } from '../../src/machines/customer-request';
import { LINE_A, LINE_B, customerRequest, lineOptions } from '../fixtures/requests-client';
import { ok, refused } from './scripted-actors';
import { cancelRequest, confirm, count, kind, line, note, open, plan, startRequests, submit } from './starters/customer-request';

const editing = async (answers: Parameters<typeof startRequests>[0] = {}) => {
  const started = startRequests(answers);
  started.actor.send(open);
  started.actor.send(line(LINE_A));
  await waitFor(started.actor, (s) => s.matches('editing'));
  return started;
};

describe('customer request machine: a new request', () => {
  it("loads the chosen line's options, then sends a plan change once, toasts and reloads the list", async () => {
    const { actor, called, notifySuccess, requestsChanged } = await editing();
    expect(called('loadOptions').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE_A }]);
    expect(actor.getSnapshot().can(submit)).toBe(false);
    actor.send(plan('SUB-METERED-1TB'));
    actor.send(note('  Harvest  '));
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('sendRequest').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE_A, kind: 'plan_change', productId: 'SUB-METERED-1TB', note: 'Harvest' }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(REQUEST_MESSAGES.created);
    expect(requestsChanged).toHaveBeenCalledOnce();
  });

  it('sends a top-up of the blocks chosen, never more than the cycle allows', async () => {
    const { actor, called } = await editing();
    actor.send(kind('top_up'));
    expect(actor.getSnapshot().can(count(3))).toBe(false);
    actor.send(count(3));
    actor.send(count(2));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('sendRequest').map((c) => c.input)).toEqual([{ serviceLineNumber: LINE_A, kind: 'top_up', productId: 'DATA-TOPUP-50GB', count: 2, note: undefined }]);
  });

  it("offers no top-up when the line's plan sells none, and no plan that is not offered", async () => {
    const { actor } = await editing({ options: [ok({ ...lineOptions, topUp: null })] });
    expect(actor.getSnapshot().can(kind('top_up'))).toBe(false);
    expect(actor.getSnapshot().can(plan('SUB-METERED-50GB'))).toBe(false);
  });

  it("stays on the form with the server's words when it refuses, the choices kept", async () => {
    const { actor, notifyFailure, requestsChanged } = await editing({ send: [refused(REQUEST_MESSAGES.pendingExists('plan_change')), new Error('down')] });
    actor.send(plan('SUB-METERED-1TB'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(back.context).toMatchObject({ planId: 'SUB-METERED-1TB', failure: REQUEST_MESSAGES.pendingExists('plan_change') });
    expect(notifyFailure).toHaveBeenCalledWith(REQUEST_MESSAGES.pendingExists('plan_change'));
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null)).context.failure).toBe(SEND_FAILED);
    expect(requestsChanged).not.toHaveBeenCalled();
  });

  it("goes back to the line select with the server's words when the options cannot be loaded", async () => {
    const { actor } = startRequests({ options: [refused(REQUEST_MESSAGES.lineEnding), new Error('down')] });
    actor.send(open);
    actor.send(line(LINE_A));
    expect((await waitFor(actor, (s) => s.matches('choosingLine') && s.context.error !== null)).context.error).toBe(REQUEST_MESSAGES.lineEnding);
    actor.send(line(LINE_B));
    expect((await waitFor(actor, (s) => s.matches('choosingLine') && s.context.error === FALLBACK_LOAD_ERROR)).context.serviceLineNumber).toBe(LINE_B);
  });

  it('takes only the lines it was opened with, and another line forgets the choices made', async () => {
    const { actor } = await editing();
    expect(actor.getSnapshot().can(line('AST-999999-99999-99'))).toBe(false);
    actor.send(plan('SUB-METERED-1TB'));
    actor.send(line(LINE_B));
    expect(actor.getSnapshot().context).toMatchObject({ serviceLineNumber: LINE_B, planId: null, options: null });
  });

  it('requestPayload refuses a note over the limit', () => {
    const context = { lines: [], serviceLineNumber: LINE_A, options: lineOptions, kind: 'plan_change' as const, planId: 'SUB-METERED-1TB', count: 1, note: 'x'.repeat(501), request: null, error: null, failure: null };
    expect(requestPayload(context)).toBeNull();
    expect(requestPayload({ ...context, note: 'ok' })).toMatchObject({ productId: 'SUB-METERED-1TB' });
  });
});

describe('customer request machine: cancelling', () => {
  it('asks first, cancels once, and reloads', async () => {
    const request = customerRequest();
    const { actor, called, notifySuccess, requestsChanged } = startRequests();
    actor.send(cancelRequest(request));
    expect(actor.getSnapshot().value).toBe('confirmingCancel');
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('cancelRequest').map((c) => c.input)).toEqual([{ id: request.id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(REQUEST_MESSAGES.cancelled);
    expect(requestsChanged).toHaveBeenCalledOnce();
  });

  it('offers no cancel for a decided request, and a refusal comes back to the question', async () => {
    const { actor } = startRequests({ cancel: [refused(REQUEST_MESSAGES.alreadyDecided('approved'))] });
    expect(actor.getSnapshot().can(cancelRequest(customerRequest({ status: 'approved' })))).toBe(false);
    actor.send(cancelRequest());
    actor.send(confirm);
    expect((await waitFor(actor, (s) => s.matches('confirmingCancel') && s.context.failure !== null)).context.failure).toBe(REQUEST_MESSAGES.alreadyDecided('approved'));
  });
});
