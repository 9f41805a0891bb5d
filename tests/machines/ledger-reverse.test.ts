import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../src/domain/ledger';
import { BANK_LINE_TEXTS } from '../../src/machines/bank-line-decision';
import { REVERSE_FAILED, isReversible } from '../../src/machines/ledger-reverse';
import { close, confirm, paymentEntry, refundEntry, reversalEntry, reverseEntry, reversedEntry, startLedgerReverse, typeReason } from '../fixtures/ledger';
import { refused } from './scripted-actors';

describe('ledger reverse machine', () => {
  it('reverses payments, credit notes and refunds not yet reversed; never statements or reversals', () => {
    expect([paymentEntry, refundEntry, reversedEntry, reversalEntry].map(isReversible)).toEqual([true, true, false, false]);
    expect(isReversible({ kind: 'charge', reversedById: null })).toBe(false);
    const { actor } = startLedgerReverse();
    actor.send(reverseEntry(reversedEntry));
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('asks for the reason, sends it trimmed, toasts and tells the page', async () => {
    const { actor, called, notifySuccess, entryReversed } = startLedgerReverse();
    actor.send(reverseEntry());
    actor.send(confirm);
    expect(actor.getSnapshot().context.reasonError).toBe(BANK_LINE_TEXTS.reasonRequired);
    actor.send(typeReason(' Posted twice '));
    actor.send(confirm);
    expect(actor.getSnapshot().can(close)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('reverseEntry').map((c) => c.input)).toEqual([{ id: paymentEntry.id, reason: 'Posted twice' }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.entryReversed);
    expect(entryReversed).toHaveBeenCalledOnce();
  });

  it('keeps the question with the server’s words when it refuses, or the fallback when the request fails', async () => {
    const { actor, entryReversed } = startLedgerReverse({ reverse: [refused(LEDGER_MESSAGES.alreadyReversed), new TypeError('fetch failed')] });
    actor.send(reverseEntry(refundEntry));
    actor.send(typeReason('Wrong customer'));
    actor.send(confirm);
    expect((await waitFor(actor, (s) => s.matches('confirming') && s.context.failure !== null)).context.failure).toBe(LEDGER_MESSAGES.alreadyReversed);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('reversing'));
    expect((await waitFor(actor, (s) => s.matches('confirming'))).context.failure).toBe(REVERSE_FAILED);
    actor.send(close);
    expect(actor.getSnapshot().value).toBe('closed');
    expect(entryReversed).not.toHaveBeenCalled();
  });
});
