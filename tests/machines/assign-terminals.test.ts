import { describe, expect, it } from 'vitest';
import { waitFor, type SnapshotFrom } from 'xstate';
import type { AssignCustomer, assignTerminalsMachine } from '../../src/machines/assign-terminals';
import { ASSIGN_MESSAGES } from '../../src/domain/customer-terminals';
import { NetworkError } from '../../src/api/client';
import { assignedPageOf, CUSTOMER_UUID } from '../fixtures/customer-terminals-client';
import { ok, refused } from './scripted-actors';
import { first, noneAssigned, partial, second, startDialog } from './starters/assign-terminals';

const customer: AssignCustomer = { uuid: CUSTOMER_UUID, name: 'Nina Park', email: 'ops@northwind.example', company: 'Northwind Shipping' };
const other: AssignCustomer = { uuid: '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f', name: 'Omar Reyes', email: 'it@harbour.example', company: 'Harbour Lines' };

type Snapshot = SnapshotFrom<typeof assignTerminalsMachine>;
const settled = (s: Snapshot) => s.hasTag('open') && !s.hasTag('loadingAssigned') && !s.hasTag('busy');
const open = (who: AssignCustomer = customer) => ({ type: 'user.open', customer: who }) as const;
const input = (value: string) => ({ type: 'user.input', value }) as const;
const submit = { type: 'user.submit' } as const;
const close = { type: 'user.close' } as const;

describe('assign terminals machine: opening', () => {
  it('starts closed, and opening shows the customer and fetches its assigned terminals', async () => {
    const { actor, called } = startDialog();
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    actor.send(open());
    const opening = actor.getSnapshot();
    expect(opening.value).toEqual({ open: { assigned: 'loading', form: 'editing' } });
    expect(opening.hasTag('open') && opening.hasTag('loadingAssigned')).toBe(true);
    expect(opening.context).toMatchObject({ customer, text: '', result: null, error: null, assigned: [] });
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.context.assigned).toEqual([first]);
    expect(called('loadAssigned').map((c) => c.input)).toEqual([CUSTOMER_UUID]);
  });

  it('opening again clears the text, the result and the message of the last time', async () => {
    const { actor, called } = startDialog({ assign: [ok(noneAssigned)] });
    actor.send(open());
    actor.send(input('AST-511274-31364-54'));
    actor.send(submit);
    await waitFor(actor, (s) => settled(s) && s.context.result !== null);
    actor.send(input('AST-1,'));
    actor.send(close);
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send(open(other));
    expect(actor.getSnapshot().context).toMatchObject({ customer: other, text: '', result: null, error: null, assigned: [] });
    await waitFor(actor, settled);
    expect(called('loadAssigned').at(-1)?.input).toBe(other.uuid);
  });

  it('a failed fetch of the assigned list is logged only and reads as an empty list', async () => {
    const network = new NetworkError('fetch failed');
    const bug = new TypeError('rows is undefined');
    for (const [failure, logged] of [
      [refused('Customer not found'), 'Customer not found'],
      [network, network],
      [bug, bug],
    ] as const) {
      const { actor, logAssignedFailure, notifyFailure } = startDialog({ assigned: [failure] });
      actor.send(open());
      const snapshot = await waitFor(actor, settled);
      expect(snapshot.value).toEqual({ open: { assigned: 'loaded', form: 'editing' } });
      expect(snapshot.context).toMatchObject({ assigned: [], assignedTotal: 0, error: null });
      expect(logAssignedFailure).toHaveBeenCalledExactlyOnceWith(logged);
      expect(notifyFailure).not.toHaveBeenCalled();
    }
  });
});

describe('assign terminals machine: the client checks', () => {
  it.each([
    ['an empty box', '', ASSIGN_MESSAGES.empty],
    ['a blank box', '  \n\t ', ASSIGN_MESSAGES.empty],
    ['separators only', ', ,\n,', ASSIGN_MESSAGES.noneValid],
    ['501 lines', Array.from({ length: 501 }, (_, i) => `AST-${i}`).join('\n'), ASSIGN_MESSAGES.tooMany(501)],
  ])('%s is refused with its message and nothing is sent', async (_name, text, message) => {
    const { actor, called, notifyFailure } = startDialog();
    actor.send(open());
    await waitFor(actor, settled);
    actor.send(input(text));
    actor.send(submit);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual({ open: { assigned: 'loaded', form: 'editing' } });
    expect(snapshot.context).toMatchObject({ text, error: message });
    expect(called('assignTerminals')).toEqual([]);
    expect(notifyFailure).not.toHaveBeenCalled();
  });

  it('a valid submission clears the message of a refused one', async () => {
    const { actor } = startDialog({ assign: ['hang'] });
    actor.send(open());
    actor.send(submit);
    expect(actor.getSnapshot().context.error).toBe(ASSIGN_MESSAGES.empty);
    actor.send(input('AST-1'));
    expect(actor.getSnapshot().context.error).toBe(ASSIGN_MESSAGES.empty);
    actor.send(submit);
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});

describe('assign terminals machine: assigning', () => {
  it('sends the distinct lines for the customer, shows the partial result, clears the box and refetches the list', async () => {
    const { actor, called, terminalsAssigned, notifyFailure } = startDialog({ assigned: [ok(assignedPageOf([first])), ok(assignedPageOf([first, second], 60))] });
    actor.send(open());
    await waitFor(actor, settled);
    actor.send(input(' AST-622190-48211-07,\nAST-000000-00000-00 AST-622190-48211-07 '));
    actor.send(submit);
    const busy = actor.getSnapshot();
    expect(busy.hasTag('busy')).toBe(true);
    expect(busy.matches({ open: { form: 'submitting' } })).toBe(true);
    expect(called('assignTerminals').map((c) => c.input)).toEqual([
      { customerUuid: CUSTOMER_UUID, serviceLineNumbers: ['AST-622190-48211-07', 'AST-000000-00000-00'] },
    ]);
    await waitFor(actor, (s) => s.context.result !== null);
    const answered = await waitFor(actor, settled);
    expect(answered.context).toMatchObject({ text: '', result: partial, error: null, assigned: [first, second], assignedTotal: 60 });
    expect(called('loadAssigned')).toHaveLength(2);
    expect(terminalsAssigned).toHaveBeenCalledExactlyOnceWith(partial);
    expect(notifyFailure).not.toHaveBeenCalled();
  });

  it('keeps the text when no line was assigned, yet still refetches and tells the page', async () => {
    const { actor, called, terminalsAssigned } = startDialog({ assign: [ok(noneAssigned)] });
    actor.send(open());
    await waitFor(actor, settled);
    actor.send(input('AST-511274-31364-54'));
    actor.send(submit);
    await waitFor(actor, (s) => s.context.result !== null);
    const snapshot = await waitFor(actor, settled);
    expect(snapshot.context).toMatchObject({ text: 'AST-511274-31364-54', result: noneAssigned, error: null });
    expect(called('loadAssigned')).toHaveLength(2);
    expect(terminalsAssigned).toHaveBeenCalledExactlyOnceWith(noneAssigned);
  });

  it('typing after an answer keeps the result on screen', async () => {
    const { actor } = startDialog();
    actor.send(open());
    actor.send(input('AST-622190-48211-07'));
    actor.send(submit);
    await waitFor(actor, (s) => s.context.result !== null);
    actor.send(input('AST-7'));
    expect(actor.getSnapshot().context).toMatchObject({ text: 'AST-7', result: partial });
  });

  it('a refusal says "Failed to assign terminals: {message}", or the generic text without one, and drops the result', async () => {
    const { actor, notifyFailure, terminalsAssigned, called } = startDialog({
      assign: [ok(partial), refused('Customer is blocked'), refused('  ')],
    });
    actor.send(open());
    await waitFor(actor, settled);
    const errors: Array<string | null> = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      actor.send(input('AST-622190-48211-07'));
      actor.send(submit);
      errors.push((await waitFor(actor, (s) => settled(s) && !s.matches({ open: { form: 'submitting' } }))).context.error);
    }
    expect(errors).toEqual([null, 'Failed to assign terminals: Customer is blocked', ASSIGN_MESSAGES.failedGeneric]);
    expect(actor.getSnapshot().context).toMatchObject({ result: null, text: 'AST-622190-48211-07' });
    expect(notifyFailure.mock.calls.map(([m]) => m)).toEqual(errors.slice(1));
    expect(terminalsAssigned).toHaveBeenCalledOnce();
    // Only the answer refetched the list.
    expect(called('loadAssigned')).toHaveLength(2);
  });

  it.each([
    ['no network', new NetworkError('fetch failed')],
    ['a bug', new TypeError('x is undefined')],
  ])('%s says "An unexpected error occurred. Please try again."', async (_name, error) => {
    const { actor, notifyFailure, terminalsAssigned } = startDialog({ assign: [error] });
    actor.send(open());
    actor.send(input('AST-1'));
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches({ open: { form: 'editing' } }));
    expect(snapshot.context).toMatchObject({ error: ASSIGN_MESSAGES.unexpected, result: null, text: 'AST-1' });
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(ASSIGN_MESSAGES.unexpected);
    expect(terminalsAssigned).not.toHaveBeenCalled();
  });

  it('Close is refused while assigning (the request is not abandoned), and works otherwise', async () => {
    const { actor, called } = startDialog({ assign: ['hang'] });
    actor.send(open());
    await waitFor(actor, settled);
    actor.send(input('AST-1'));
    actor.send(submit);
    expect(actor.getSnapshot().can(close)).toBe(false);
    actor.send(close);
    expect(actor.getSnapshot().matches({ open: { form: 'submitting' } })).toBe(true);
    expect(called('assignTerminals')[0]?.signal.aborted).toBe(false);

    const idle = startDialog();
    idle.actor.send(open());
    expect(idle.actor.getSnapshot().can(close)).toBe(true);
    idle.actor.send(close);
    expect(idle.actor.getSnapshot().value).toBe('closed');
  });

  it('closing while the assigned list loads aborts that request', () => {
    const { actor, called } = startDialog({ assigned: ['hang'] });
    actor.send(open());
    actor.send(close);
    expect(called('loadAssigned')[0]?.signal.aborted).toBe(true);
  });

  it('an answer that arrives while the list still loads asks for the list again, aborting the first request', async () => {
    const { actor, called } = startDialog({ assigned: ['hang', ok(assignedPageOf([first, second]))] });
    actor.send(open());
    actor.send(input('AST-622190-48211-07'));
    actor.send(submit);
    const snapshot = await waitFor(actor, settled);
    const [stale, fresh] = called('loadAssigned');
    expect(stale?.signal.aborted).toBe(true);
    expect(fresh?.signal.aborted).toBe(false);
    expect(snapshot.context.assigned).toEqual([first, second]);
  });
});
