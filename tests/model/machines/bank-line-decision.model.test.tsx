// Payments → Waiting to be matched → Match… / Ignore… (bankLineDecision machine): its generated
// paths walked on the machine and through the /billing/payments page (Acme picked from the
// customers the picker lists, their newer statement ticked; a reason typed), plus a journey
// pinned by hand.
import { screen, waitFor as waitForDom, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { LEDGER_MESSAGES } from '../../../src/domain/ledger';
import { bankLineDecisionMachine } from '../../../src/machines/bank-line-decision';
import { PAYMENTS_TEXTS as T, lineName } from '../../../src/ui/billing/payments/parts';
import {
  ACME_ID,
  ACME_OPTION,
  NEW_STATEMENT_ID,
  OLD_STATEMENT_ID,
  acme,
  cancel,
  customerAccount,
  ignoreLine,
  ignoredLine,
  matchLine,
  matchedLine,
  paymentsAnswers,
  pickCustomer,
  startBankLineDecision,
  submit,
  tickStatement,
  typeReason,
  waitingLine,
} from '../../fixtures/ledger';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const rowButton = (verb: 'Match' | 'Ignore') => screen.getByRole('button', { name: `${verb} ${lineName(waitingLine)}` }) as HTMLButtonElement;
const matchDialog = () => within(screen.getByRole('dialog', { name: T.matchTitle }));
const ignoreDialog = () => within(screen.getByRole('dialog', { name: T.ignoreTitle }));
const openDialog = () => (screen.queryByRole('dialog', { name: T.matchTitle }) ? matchDialog() : ignoreDialog());
const button = (dialog: ReturnType<typeof within>, name: string) => dialog.getByRole('button', { name }) as HTMLButtonElement;
const reasonBox = () => ignoreDialog().getByLabelText(T.reasonLabel) as HTMLTextAreaElement;
const statementBox = (number: string) => matchDialog().getByRole('checkbox', { name: new RegExp(number) }) as HTMLInputElement;

export const bankLineDecisionModel = defineModel<typeof bankLineDecisionMachine, PageScreen>({
  name: 'bank-line-decision',
  machine: bankLineDecisionMachine,
  events: {
    // The matched line is there to prove the guard holds it back.
    'user.match': [matchLine(waitingLine), matchLine(matchedLine)],
    'user.ignore': [ignoreLine(waitingLine)],
    'user.customer': [pickCustomer(acme)],
    'user.statement': [tickStatement(NEW_STATEMENT_ID, true)],
    'user.reason': [typeReason('Supplier refund')],
    'user.submit': [submit],
    'user.cancel': [cancel],
  },
  actorResults: [
    done('loadAccount', ok(customerAccount())),
    done('loadAccount', refused(LEDGER_MESSAGES.customerNotFound)),
    failed('loadAccount', new TypeError('fetch failed')),
    done('matchLine', ok(matchedLine)),
    done('matchLine', refused(LEDGER_MESSAGES.lineNotWaiting)),
    failed('matchLine', new TypeError('fetch failed')),
    done('ignoreLine', ok(ignoredLine)),
    done('ignoreLine', refused(LEDGER_MESSAGES.lineNotWaiting)),
    failed('ignoreLine', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    'matching.picking': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.line?.id).toBe(waitingLine.id);
      expect(s.context.statements).toEqual([]);
    },
    'matching.loading': (s) => expect(s.context.customer?.id).toBe(ACME_ID),
    'matching.choosing': (s) => expect(s.context.statements.map((st) => st.statementId)).toEqual([OLD_STATEMENT_ID, NEW_STATEMENT_ID]),
    matchSubmitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
      expect(s.context.customer?.id).toBe(ACME_ID);
    },
    ignoring: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.line?.id).toBe(waitingLine.id);
    },
    ignoreSubmitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.reason).toBe('Supplier refund');
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/billing/payments', seam, paymentsAnswers());
      await screen.findByRole('button', { name: `Match ${lineName(waitingLine)}` }, { timeout: 5000 });
      return page;
    },
    drivable: (snapshot, event) => {
      // Only waiting lines have the buttons; a drop-down gives no change for the customer already
      // chosen; clicking a ticked box unticks it.
      if (event.type === 'user.match' || event.type === 'user.ignore') return event.line.status === 'unmatched';
      if (event.type === 'user.customer') return snapshot.context.customer?.id !== event.customer.id;
      if (event.type === 'user.statement') return snapshot.context.chosen.includes(event.statementId) !== event.checked;
      return true;
    },
    events: {
      'user.match': async ({ user }) => user.click(rowButton('Match')),
      'user.ignore': async ({ user }) => user.click(rowButton('Ignore')),
      'user.customer': async ({ user }) => {
        await waitForDom(() => expect(screen.getByRole('dialog', { name: T.matchTitle }).classList.contains('p-dialog-enter-done')).toBe(true));
        await user.click(matchDialog().getByRole('combobox', { name: T.customerLabel }));
        await user.click(await screen.findByRole('option', { name: ACME_OPTION }, { timeout: 5000 }));
      },
      'user.statement': async ({ user }) => user.click(statementBox('S-2026-0002')),
      'user.reason': async ({ user }, event) => {
        await user.clear(reasonBox());
        await user.click(reasonBox());
        await user.paste(event.value);
      },
      'user.submit': async ({ user }) =>
        screen.queryByRole('dialog', { name: T.matchTitle }) ? user.click(button(matchDialog(), T.matchButton)) : user.click(button(ignoreDialog(), T.ignoreButton)),
      'user.cancel': async ({ user }) => user.click(button(openDialog(), 'Cancel')),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog', { name: T.matchTitle })).toBeNull();
        expect(screen.queryByRole('dialog', { name: T.ignoreTitle })).toBeNull();
        expect(rowButton('Match').disabled).toBe(false);
      },
      'matching.picking': ({ context }) => {
        const dialog = matchDialog();
        expect(dialog.getByText(waitingLine.payer!)).toBeTruthy();
        expect(dialog.getByRole('combobox', { name: T.customerLabel }).textContent).toContain(context.customer ? context.customer.name : T.customerPlaceholder);
        if (context.errors.customer) expect(dialog.getByText(context.errors.customer)).toBeTruthy();
        expect(dialog.queryAllByRole('checkbox')).toHaveLength(0);
        expect(button(dialog, T.matchButton).disabled).toBe(false);
      },
      'matching.loading': () => expect(matchDialog().getByText(T.statementsLoading)).toBeTruthy(),
      'matching.choosing': ({ context }) => {
        expect(statementBox('S-2026-0001').checked).toBe(context.chosen.includes(OLD_STATEMENT_ID));
        expect(statementBox('S-2026-0002').checked).toBe(context.chosen.includes(NEW_STATEMENT_ID));
        if (context.failure) expect(matchDialog().getByText(context.failure)).toBeTruthy();
        expect(button(matchDialog(), T.matchButton).disabled).toBe(false);
      },
      matchSubmitting: () => {
        expect(button(matchDialog(), T.matching).disabled).toBe(true);
        expect(button(matchDialog(), 'Cancel').disabled).toBe(true);
      },
      ignoring: ({ context }) => {
        expect(reasonBox().value).toBe(context.reason);
        if (context.errors.reason) expect(ignoreDialog().getByText(context.errors.reason)).toBeTruthy();
        if (context.failure) expect(ignoreDialog().getByText(context.failure)).toBeTruthy();
        expect(button(ignoreDialog(), T.ignoreButton).disabled).toBe(false);
      },
      ignoreSubmitting: () => {
        expect(button(ignoreDialog(), T.ignoring).disabled).toBe(true);
        expect(reasonBox().disabled).toBe(true);
      },
    },
  },
});

modelSuite(bankLineDecisionModel);

describe('bank line decision machine (pinned journeys)', () => {
  it('a match refused because another person matched it first, then the line ignored instead: one decision, one reload', async () => {
    const { actor, called, lineDecided, notifySuccess } = startBankLineDecision({ match: [refused(LEDGER_MESSAGES.lineNotWaiting)] });
    actor.send(matchLine());
    actor.send(pickCustomer());
    await waitFor(actor, (s) => s.matches({ matching: 'choosing' }));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches({ matching: 'choosing' }) && s.context.failure !== null);
    actor.send(cancel);
    actor.send(ignoreLine());
    expect(actor.getSnapshot().context).toMatchObject({ customer: null, failure: null, reason: '' });
    actor.send(typeReason('Paid twice by the bank'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('ignoreLine').map((c) => c.input)).toEqual([{ lineId: waitingLine.id, note: 'Paid twice by the bank' }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(LEDGER_MESSAGES.lineIgnored);
    expect(lineDecided).toHaveBeenCalledOnce();
  });
});
