// A statement → "Add credit or charge" (adjustmentForm machine): its generated paths walked on the
// machine and through the /billing/statements/{id} page of a closed USD statement, plus a journey
// pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { adjustmentFormMachine, validateAdjustmentForm } from '../../../src/machines/adjustment-form';
import { ADJUSTMENT_DIALOG_TEXTS as T, amountLabel } from '../../../src/ui/billing/statements/AdjustmentDialog';
import { STATEMENT_TEXTS } from '../../../src/ui/billing/statements/parts';
import { adjustmentWire, cancel, closedStatement, direction, envelope, field, open, refusal, startAdjustmentForm, submit, usdTarget } from '../../fixtures/statements';
import { ok } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const statement = closedStatement();
const AMOUNT_REFUSED = 'Amount is above the limit for one correction';

const dialog = () => within(screen.getByRole('dialog', { name: T.title }));
const button = (name: string) => dialog().getByRole('button', { name }) as HTMLButtonElement;
const amount = () => dialog().getByLabelText(amountLabel('USD')) as HTMLInputElement;
const reason = () => dialog().getByLabelText(T.reason) as HTMLTextAreaElement;
const radio = (value: 'credit' | 'charge') => dialog().getByLabelText(T[value]) as HTMLInputElement;

export const adjustmentFormModel = defineModel<typeof adjustmentFormMachine, PageScreen>({
  name: 'adjustment-form',
  machine: adjustmentFormMachine,
  events: {
    'user.open': [open(usdTarget)],
    'user.direction': [direction('charge'), direction('credit')],
    // Too many decimals is refused on the client; two decimals and a reason go to the server.
    'user.field': [field('amount', '12.50'), field('amount', '12.345'), field('reason', 'Goodwill')],
    'user.submit': [submit],
    'user.cancel': [cancel],
  },
  actorResults: [
    done('saveAdjustment', ok(adjustmentWire())),
    done('saveAdjustment', refusal(400, 'Invalid body', [{ path: 'body.amount', message: AMOUNT_REFUSED }])),
    failed('saveAdjustment', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    editing: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.target).toEqual(usdTarget);
    },
    submitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
      // Only a form the client finds right is ever sent.
      expect(validateAdjustmentForm(s.context.form, 'USD')).toEqual({});
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage(`/billing/statements/${statement.id}`, seam, { [`GET /api/v1/billing/statements/${statement.id}`]: { body: envelope(statement) } });
      await screen.findByRole('article', { name: `Statement ${statement.number}` }, { timeout: 5000 });
      return page;
    },
    // A radio already chosen sends nothing when clicked.
    drivable: (snapshot, event) => event.type !== 'user.direction' || event.value !== snapshot.context.form.direction,
    events: {
      'user.open': async ({ user }) => user.click(screen.getByRole('button', { name: STATEMENT_TEXTS.addAdjustment })),
      'user.direction': async ({ user }, event) => user.click(radio(event.value)),
      'user.field': async ({ user }, event) => {
        const target = event.field === 'amount' ? amount() : reason();
        await user.clear(target);
        await user.paste(event.value);
      },
      'user.submit': async ({ user }) => user.click(button(T.save)),
      'user.cancel': async ({ user }) => user.click(button('Cancel')),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog', { name: T.title })).toBeNull();
        expect((screen.getByRole('button', { name: STATEMENT_TEXTS.addAdjustment }) as HTMLButtonElement).disabled).toBe(false);
      },
      editing: ({ context }) => {
        expect(amount().value).toBe(context.form.amount);
        expect(reason().value).toBe(context.form.reason);
        expect(radio('credit').checked).toBe(context.form.direction === 'credit');
        expect(radio('charge').checked).toBe(context.form.direction === 'charge');
        for (const message of Object.values(context.errors)) if (message) expect(dialog().getByText(message)).toBeTruthy();
        expect(amount().getAttribute('aria-invalid')).toBe(context.errors.amount ? 'true' : 'false');
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
        expect(button(T.save).disabled).toBe(false);
        expect(button('Cancel').disabled).toBe(false);
      },
      submitting: () => {
        expect(button(T.saving).disabled).toBe(true);
        expect(button('Cancel').disabled).toBe(true);
        expect(amount().disabled).toBe(true);
      },
    },
  },
});

modelSuite(adjustmentFormModel);

describe('adjustment form machine (pinned journeys)', () => {
  it('too many decimals stopped on the client, the server refuses the amount, a smaller one saved: one correction, the statement read again once', async () => {
    const { actor, called, adjustmentSaved } = startAdjustmentForm([refusal(400, 'Invalid body', [{ path: 'amount', message: AMOUNT_REFUSED }]), ok(adjustmentWire())]);
    actor.send(open());
    actor.send(field('amount', '12.345'));
    actor.send(field('reason', 'Goodwill'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(called('saveAdjustment')).toHaveLength(0);
    actor.send(field('amount', '90000'));
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches('editing') && s.context.errors.amount !== undefined)).context.errors.amount).toBe(AMOUNT_REFUSED);
    actor.send(field('amount', '12.50'));
    actor.send(submit);
    const end = await waitFor(actor, (s) => s.matches('closed'));
    expect(end.value).toBe('closed');
    expect(called('saveAdjustment').map((c) => (c.input as { amount: string }).amount)).toEqual(['90000', '12.50']);
    expect(adjustmentSaved).toHaveBeenCalledOnce();
  });
});
