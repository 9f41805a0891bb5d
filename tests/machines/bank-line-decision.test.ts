import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../src/domain/ledger';
import { BANK_LINE_TEXTS, bankLineDecisionView, openInCurrency, toggled } from '../../src/machines/bank-line-decision';
import {
  ACME_ID,
  EUR_STATEMENT_ID,
  NEW_STATEMENT_ID,
  OLD_STATEMENT_ID,
  cancel,
  ignoreLine,
  matchLine,
  matchedLine,
  pickCustomer,
  startBankLineDecision,
  submit,
  tickStatement,
  twoCurrencyAccount,
  typeReason,
  waitingLine,
} from '../fixtures/ledger';
import { ok, refused } from './scripted-actors';

describe('bank line decision rules', () => {
  it('offers the open statements in the line’s currency only, oldest first', () => {
    expect(openInCurrency(twoCurrencyAccount, 'USD').map((s) => s.statementId)).toEqual([OLD_STATEMENT_ID, NEW_STATEMENT_ID]);
    expect(openInCurrency(twoCurrencyAccount, 'EUR').map((s) => s.statementId)).toEqual([EUR_STATEMENT_ID]);
  });

  it('checks and unchecks a statement once', () => {
    expect(toggled(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggled(['a', 'b'], 'b', true)).toEqual(['a', 'b']);
    expect(toggled(['a', 'b'], 'a', false)).toEqual(['b']);
  });
});

describe('bank line decision machine: match', () => {
  it('asks for a customer first, then matches to the statements checked and tells the page', async () => {
    const { actor, called, notifySuccess, lineDecided } = startBankLineDecision({ account: [ok(twoCurrencyAccount)] });
    actor.send(matchLine());
    actor.send(submit);
    expect(actor.getSnapshot().context.errors.customer).toBe(BANK_LINE_TEXTS.customerRequired);
    actor.send(pickCustomer());
    expect(bankLineDecisionView(actor.getSnapshot())).toMatchObject({ dialog: 'match', loadingStatements: true });
    const choosing = await waitFor(actor, (s) => s.matches({ matching: 'choosing' }));
    expect(called('loadAccount').map((c) => c.input)).toEqual([{ customerId: ACME_ID }]);
    expect(choosing.context.statements.map((s) => s.number)).toEqual(['S-2026-0001', 'S-2026-0002']);
    actor.send(tickStatement(NEW_STATEMENT_ID));
    actor.send(submit);
    expect(actor.getSnapshot().can(cancel)).toBe(false);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('matchLine').map((c) => c.input)).toEqual([{ lineId: waitingLine.id, body: { customerId: ACME_ID, statementIds: [NEW_STATEMENT_ID] } }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.lineMatched);
    expect(lineDecided).toHaveBeenCalledOnce();
  });

  it('sends no statements when none is checked (the oldest first), and comes back with the server’s words when another person matched it first', async () => {
    const { actor, called, lineDecided } = startBankLineDecision({ match: [refused(LEDGER_MESSAGES.lineNotWaiting)] });
    actor.send(matchLine());
    actor.send(pickCustomer());
    await waitFor(actor, (s) => s.matches({ matching: 'choosing' }));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches({ matching: 'choosing' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(LEDGER_MESSAGES.lineNotWaiting);
    expect(called('matchLine')[0]!.input).toMatchObject({ body: { statementIds: null } });
    expect(lineDecided).not.toHaveBeenCalled();
  });

  it('puts a failed read of the customer’s statements under the customer, and aborts a read another pick replaced', async () => {
    const { actor, called } = startBankLineDecision({ account: ['hang', refused('Customer not found')] });
    actor.send(matchLine());
    actor.send(pickCustomer());
    actor.send(pickCustomer({ id: 'c1000000-0000-4000-8000-000000000002', name: 'Borealis Fisheries' }));
    expect(called('loadAccount')[0]!.signal.aborted).toBe(true);
    const picking = await waitFor(actor, (s) => s.matches({ matching: 'picking' }));
    expect(picking.context.errors.customer).toBe('Customer not found');
  });

  it('offers nothing for a line that is no longer waiting', () => {
    const { actor } = startBankLineDecision();
    actor.send(matchLine(matchedLine));
    expect(actor.getSnapshot().value).toBe('closed');
  });
});

describe('bank line decision machine: ignore', () => {
  it('asks for a reason, sends it trimmed and tells the page', async () => {
    const { actor, called, notifySuccess, lineDecided } = startBankLineDecision();
    actor.send(ignoreLine());
    actor.send(submit);
    expect(actor.getSnapshot().context.errors.reason).toBe(BANK_LINE_TEXTS.reasonRequired);
    actor.send(typeReason('  Transfer between our own accounts '));
    expect(actor.getSnapshot().context.errors.reason).toBeUndefined();
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('ignoreLine').map((c) => c.input)).toEqual([{ lineId: waitingLine.id, note: 'Transfer between our own accounts' }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.lineIgnored);
    expect(lineDecided).toHaveBeenCalledOnce();
  });

  it('keeps the dialog with the fallback words when the request fails', async () => {
    const { actor } = startBankLineDecision({ ignore: [new TypeError('fetch failed')] });
    actor.send(ignoreLine());
    actor.send(typeReason('Supplier refund'));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('ignoring') && s.context.failure !== null);
    expect(back.context.failure).toBe(BANK_LINE_TEXTS.ignoreFailed);
  });
});
