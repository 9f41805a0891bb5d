// Billing → Prices: New price and Withdraw (priceForm machine), walked on the machine and through
// the /billing/prices page (the form opened from Standard's row, which fills it with Standard's
// prices from next month; Withdraw on the row not yet in effect), plus a journey pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BILLING_MESSAGES } from '../../../src/domain/billing';
import { PRICE_FORM_TEXTS, priceFormMachine, validatePriceForm, type PriceFormValues } from '../../../src/machines/price-form';
import { PRICES_TEXTS as T } from '../../../src/ui/billing/prices/parts';
import { ok, refused } from '../../machines/scripted-actors';
import {
  NEXT_MONTH,
  cancel,
  confirm,
  createPrice,
  priceExists,
  priceField,
  savedPrice,
  startPriceForm,
  submit,
  upcomingPrice,
  withdraw,
} from '../../fixtures/prices';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { openPricesPage, pricesTable } from './prices-page';

/** What the page fills the form with from Standard's row: its prices in effect, from next month. */
const standardForm: PriceFormValues = { productReferenceId: 'ref-standard', currency: 'USD', monthly: '79.00', overagePerGb: '1.00', topUp: '25.00', effectiveFrom: NEXT_MONTH, note: '' };

const formDialog = () => within(screen.getByRole('dialog', { name: T.newPriceTitle }));
const withdrawDialog = () => within(screen.getByRole('dialog', { name: T.withdrawTitle }));
const button = (dialog: ReturnType<typeof within>, name: string) => dialog.getByRole('button', { name }) as HTMLButtonElement;
const monthly = () => formDialog().getByLabelText('Monthly price') as HTMLInputElement;
const withdrawName = `${T.withdraw}: Standard from ${NEXT_MONTH}`;

export const priceFormModel = defineModel<typeof priceFormMachine, PageScreen>({
  name: 'price-form',
  machine: priceFormMachine,
  events: {
    'user.create': [createPrice(standardForm)],
    // Three decimals in USD are refused on the client; two go to the server.
    'user.field': [priceField('monthly', '89.00'), priceField('monthly', '89.005')],
    'user.submit': [submit],
    'user.cancel': [cancel],
    'user.withdraw': [withdraw(upcomingPrice)],
    'user.confirm': [confirm],
  },
  actorResults: [
    done('savePrice', ok(savedPrice)),
    done('savePrice', priceExists),
    failed('savePrice', new TypeError('fetch failed')),
    done('withdrawPrice', ok(null)),
    done('withdrawPrice', refused(BILLING_MESSAGES.priceInEffect)),
    failed('withdrawPrice', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    editing: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.context.form.productReferenceId).toBe('ref-standard');
    },
    saving: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(cancel)).toBe(false);
      expect(validatePriceForm(s.context.form)).toEqual({});
    },
    'withdrawal.confirming': (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.price?.id).toBe(upcomingPrice.id);
    },
    'withdrawal.withdrawing': (s) => {
      expect(s.can(cancel)).toBe(false);
      expect(s.context.price?.id).toBe(upcomingPrice.id);
    },
  },
  ui: {
    open: (seam) => openPricesPage(seam),
    events: {
      'user.create': async ({ user }) => user.click(pricesTable(T.listTable).getByRole('button', { name: `${T.newPrice}: Standard` })),
      'user.field': async ({ user }, event) => {
        const input = formDialog().getByLabelText('Monthly price');
        await user.clear(input);
        await user.paste(event.value);
      },
      'user.submit': async ({ user }) => user.click(button(formDialog(), 'Save')),
      'user.cancel': async ({ user }) =>
        screen.queryByRole('dialog', { name: T.withdrawTitle }) ? user.click(button(withdrawDialog(), 'Cancel')) : user.click(button(formDialog(), 'Cancel')),
      'user.withdraw': async ({ user }) => user.click(pricesTable(T.historyTable).getByRole('button', { name: withdrawName })),
      'user.confirm': async ({ user }) => user.click(button(withdrawDialog(), T.withdraw)),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog')).toBeNull();
        expect((pricesTable(T.historyTable).getByRole('button', { name: withdrawName }) as HTMLButtonElement).disabled).toBe(false);
      },
      editing: ({ context }) => {
        expect(monthly().value).toBe(context.form.monthly);
        expect((formDialog().getByLabelText('Effective from') as HTMLInputElement).value).toBe(context.form.effectiveFrom);
        for (const message of Object.values(context.errors)) if (message) expect(formDialog().getByText(message)).toBeTruthy();
        expect(monthly().getAttribute('aria-invalid')).toBe(context.errors.monthly ? 'true' : 'false');
        if (context.failure) expect(formDialog().getByText(context.failure)).toBeTruthy();
        expect(button(formDialog(), 'Save').disabled).toBe(false);
      },
      saving: () => {
        expect(button(formDialog(), T.saving).disabled).toBe(true);
        expect(button(formDialog(), 'Cancel').disabled).toBe(true);
        expect(monthly().disabled).toBe(true);
      },
      'withdrawal.confirming': ({ context }) => {
        expect(withdrawDialog().getByText(PRICE_FORM_TEXTS.withdrawQuestion('Standard', NEXT_MONTH))).toBeTruthy();
        if (context.failure) expect(withdrawDialog().getByText(context.failure)).toBeTruthy();
        expect(button(withdrawDialog(), T.withdraw).disabled).toBe(false);
      },
      'withdrawal.withdrawing': () => {
        expect(button(withdrawDialog(), T.working).disabled).toBe(true);
        expect(button(withdrawDialog(), 'Cancel').disabled).toBe(true);
      },
    },
  },
});

modelSuite(priceFormModel);

describe('price form machine (pinned journeys)', () => {
  it('three decimals refused, a 409 on the date, then saved from a later date: one price, one reload', async () => {
    const { actor, called, pricesChanged } = startPriceForm({ save: [priceExists, ok(savedPrice)] });
    actor.send(createPrice(standardForm));
    actor.send(priceField('monthly', '89.005'));
    actor.send(submit);
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send(priceField('monthly', '89.00'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('editing') && s.context.errors.effectiveFrom === BILLING_MESSAGES.priceExists);
    actor.send(priceField('effectiveFrom', '2099-01-01'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('savePrice').map((c) => [(c.input as { monthly: string }).monthly, (c.input as { effectiveFrom: string }).effectiveFrom])).toEqual([
      ['89.00', NEXT_MONTH],
      ['89.00', '2099-01-01'],
    ]);
    expect(pricesChanged).toHaveBeenCalledOnce();
  });
});
