// Payments → Ledger → Reverse… (ledgerReverse machine): its generated paths walked on the machine
// and through the /billing/payments page (Reverse… on Acme's payment; a reversed payment offers
// none), plus a journey pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../../src/domain/ledger';
import { BANK_LINE_TEXTS } from '../../../src/machines/bank-line-decision';
import { isReversible, ledgerReverseMachine } from '../../../src/machines/ledger-reverse';
import { PAYMENTS_TEXTS as T, entryName } from '../../../src/ui/billing/payments/parts';
import { reverseQuestion } from '../../../src/ui/billing/payments/ReverseEntryDialog';
import { close, confirm, paymentEntry, paymentsAnswers, posted, reversalEntry, reverseEntry, reversedEntry, startLedgerReverse, typeReason } from '../../fixtures/ledger';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const REVERSE = `Reverse ${entryName(paymentEntry)}`;
const rowButton = () => screen.getByRole('button', { name: REVERSE }) as HTMLButtonElement;
const dialog = () => within(screen.getByRole('dialog', { name: T.reverseTitle }));
const button = (name: string) => dialog().getByRole('button', { name }) as HTMLButtonElement;
const reasonBox = () => dialog().getByLabelText(T.reasonLabel) as HTMLTextAreaElement;

export const ledgerReverseModel = defineModel<typeof ledgerReverseMachine, PageScreen>({
  name: 'ledger-reverse',
  machine: ledgerReverseMachine,
  events: {
    // The reversed payment is there to prove the guard holds it back.
    'user.reverse': [reverseEntry(paymentEntry), reverseEntry(reversedEntry)],
    'user.reason': [typeReason('Posted twice')],
    'user.confirm': [confirm],
    'user.close': [close],
  },
  actorResults: [done('reverseEntry', ok(posted(reversalEntry))), done('reverseEntry', refused(LEDGER_MESSAGES.alreadyReversed)), failed('reverseEntry', new TypeError('fetch failed'))],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    confirming: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.entry?.id).toBe(paymentEntry.id);
      if (s.context.reasonError) expect(s.context.reasonError).toBe(BANK_LINE_TEXTS.reasonRequired);
    },
    reversing: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      expect(s.context.reason).toBe('Posted twice');
      expect(s.context.failure).toBeNull();
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/billing/payments', seam, paymentsAnswers());
      await screen.findByRole('button', { name: REVERSE }, { timeout: 5000 });
      return page;
    },
    // Only the entries that can be taken back have the button.
    drivable: (_snapshot, event) => (event.type === 'user.reverse' ? isReversible(event.entry) : true),
    events: {
      'user.reverse': async ({ user }) => user.click(rowButton()),
      'user.reason': async ({ user }, event) => {
        await user.clear(reasonBox());
        await user.click(reasonBox());
        await user.paste(event.value);
      },
      'user.confirm': async ({ user }) => user.click(button(T.reverseButton)),
      'user.close': async ({ user }) => user.click(button('Cancel')),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog', { name: T.reverseTitle })).toBeNull();
        expect(rowButton().disabled).toBe(false);
        expect(screen.queryByRole('button', { name: `Reverse ${entryName(reversedEntry)}` })).toBeNull();
      },
      confirming: ({ context }) => {
        expect(dialog().getByText(reverseQuestion(paymentEntry))).toBeTruthy();
        expect(reasonBox().value).toBe(context.reason);
        if (context.reasonError) expect(dialog().getByText(context.reasonError)).toBeTruthy();
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
        expect(button(T.reverseButton).disabled).toBe(false);
      },
      reversing: () => {
        expect(button(T.reversing).disabled).toBe(true);
        expect(button('Cancel').disabled).toBe(true);
        expect(reasonBox().disabled).toBe(true);
      },
    },
  },
});

modelSuite(ledgerReverseModel);

describe('ledger reverse machine (pinned journeys)', () => {
  it('Reverse without a reason sends nothing; with one, a refusal keeps the question, and the next try reverses', async () => {
    const { actor, called, entryReversed } = startLedgerReverse({ reverse: [refused(LEDGER_MESSAGES.alreadyReversed), ok(posted(reversalEntry))] });
    actor.send(reverseEntry());
    actor.send(confirm);
    expect(actor.getSnapshot().value).toBe('confirming');
    actor.send(typeReason('Posted twice'));
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('confirming') && s.context.failure === LEDGER_MESSAGES.alreadyReversed);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('reverseEntry')).toHaveLength(2);
    expect(entryReversed).toHaveBeenCalledOnce();
  });
});
