// Billing → Prices: New customer price and End (customerPriceForm machine), walked on the machine
// and through the /billing/prices page (the customer picked from the customers the picker lists,
// Standard or every product, a discount typed; End on Acme's running price), plus a journey
// pinned by hand.
import { screen, waitFor as waitForDom, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BILLING_MESSAGES } from '../../../src/domain/billing';
import { CUSTOMER_PRICE_TEXTS, customerPriceFormMachine, validateCustomerPriceForm } from '../../../src/machines/customer-price-form';
import { PRICES_TEXTS as T } from '../../../src/ui/billing/prices/parts';
import { ok, refused } from '../../machines/scripted-actors';
import {
  CUSTOMER_ID,
  acme,
  blankCustomerPriceForm,
  cancel,
  confirm,
  createCustomerPrice,
  customerField,
  endRow,
  pickCustomer,
  pickProduct,
  refusal,
  runningCustomerPrice,
  savedCustomerPrice,
  startCustomerPriceForm,
  submit,
} from '../../fixtures/prices';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { ACME_OPTION, openPricesPage, pricesTable } from './prices-page';

const STANDARD_OPTION = 'Standard (ref-standard)';
const endName = `${T.end}: Acme Maritime, ${T.everyProduct}`;

const formDialog = () => within(screen.getByRole('dialog', { name: T.newCustomerPriceTitle }));
const endDialog = () => within(screen.getByRole('dialog', { name: T.endTitle }));
const button = (dialog: ReturnType<typeof within>, name: string) => dialog.getByRole('button', { name }) as HTMLButtonElement;
const discount = () => formDialog().getByLabelText('Discount %') as HTMLInputElement;

/** The dialog has finished entering: a PrimeReact Dialog moves focus to itself at the end of it. */
async function entered() {
  await waitForDom(() => expect(screen.getByRole('dialog', { name: T.newCustomerPriceTitle }).classList.contains('p-dialog-enter-done')).toBe(true));
}

async function choose(user: PageScreen['user'], combobox: string, option: string) {
  await entered();
  await user.click(formDialog().getByRole('combobox', { name: combobox }));
  await user.click(await screen.findByRole('option', { name: option }, { timeout: 5000 }));
}

export const customerPriceFormModel = defineModel<typeof customerPriceFormMachine, PageScreen>({
  name: 'customer-price-form',
  machine: customerPriceFormMachine,
  events: {
    'user.create': [createCustomerPrice(blankCustomerPriceForm)],
    // A discount of 250 % is refused on the client.
    'user.field': [customerField('discountPercent', '12.5'), customerField('discountPercent', '250')],
    'user.customer': [pickCustomer(acme)],
    'user.product': [pickProduct('ref-standard', 'USD')],
    'user.submit': [submit],
    'user.cancel': [cancel],
    'user.end': [endRow(runningCustomerPrice)],
    'user.confirm': [confirm],
  },
  actorResults: [
    done('saveCustomerPrice', ok(savedCustomerPrice)),
    done('saveCustomerPrice', refusal(409, 'This customer already has a price from that date')),
    failed('saveCustomerPrice', new TypeError('fetch failed')),
    done('endCustomerPrice', ok(runningCustomerPrice)),
    done('endCustomerPrice', refused(BILLING_MESSAGES.customerPriceNotFound)),
    failed('endCustomerPrice', new TypeError('fetch failed')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    editing: (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
    },
    saving: (s) => {
      expect(s.can(cancel)).toBe(false);
      expect(validateCustomerPriceForm(s.context.form)).toEqual({});
      expect(s.context.form.customer?.id).toBe(CUSTOMER_ID);
    },
    'ending.confirming': (s) => expect(s.context.row?.id).toBe(runningCustomerPrice.id),
    'ending.ending': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.row?.id).toBe(runningCustomerPrice.id);
    },
  },
  ui: {
    open: (seam) => openPricesPage(seam),
    // A drop-down gives no change for the option already chosen.
    drivable: (snapshot, event) => {
      if (event.type === 'user.customer') return snapshot.context.form.customer?.id !== event.customer?.id;
      if (event.type === 'user.product') return snapshot.context.form.productReferenceId !== event.productReferenceId;
      return true;
    },
    events: {
      'user.create': async ({ user }) => user.click(screen.getByRole('button', { name: T.newCustomerPrice })),
      'user.field': async ({ user }, event) => {
        await user.clear(discount());
        await user.paste(event.value);
      },
      'user.customer': async ({ user }) => choose(user, 'Customer', ACME_OPTION),
      'user.product': async ({ user }) => choose(user, 'Product', STANDARD_OPTION),
      'user.submit': async ({ user }) => user.click(button(formDialog(), 'Save')),
      'user.cancel': async ({ user }) =>
        screen.queryByRole('dialog', { name: T.endTitle }) ? user.click(button(endDialog(), 'Cancel')) : user.click(button(formDialog(), 'Cancel')),
      'user.end': async ({ user }) => user.click(pricesTable(T.customerTable).getByRole('button', { name: endName })),
      'user.confirm': async ({ user }) => user.click(button(endDialog(), T.end)),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog')).toBeNull();
        expect((pricesTable(T.customerTable).getByRole('button', { name: endName }) as HTMLButtonElement).disabled).toBe(false);
      },
      editing: ({ context }) => {
        const { form, errors } = context;
        expect(formDialog().getByRole('combobox', { name: 'Customer' }).textContent).toContain(form.customer ? form.customer.name : 'Select a customer');
        expect(formDialog().getByRole('combobox', { name: 'Product' }).textContent).toContain(form.productReferenceId ? STANDARD_OPTION : T.everyProduct);
        expect(discount().value).toBe(form.discountPercent);
        for (const message of Object.values(errors)) if (message) expect(formDialog().getByText(message)).toBeTruthy();
        expect(discount().getAttribute('aria-invalid')).toBe(errors.discountPercent ? 'true' : 'false');
        if (context.failure) expect(formDialog().getByText(context.failure)).toBeTruthy();
        expect(button(formDialog(), 'Save').disabled).toBe(false);
      },
      saving: () => {
        expect(button(formDialog(), T.saving).disabled).toBe(true);
        expect(button(formDialog(), 'Cancel').disabled).toBe(true);
        expect(discount().disabled).toBe(true);
      },
      'ending.confirming': ({ context }) => {
        expect(endDialog().getByText(CUSTOMER_PRICE_TEXTS.endQuestion('Acme Maritime', T.everyProduct))).toBeTruthy();
        if (context.failure) expect(endDialog().getByText(context.failure)).toBeTruthy();
        expect(button(endDialog(), T.end).disabled).toBe(false);
      },
      'ending.ending': () => {
        expect(button(endDialog(), T.working).disabled).toBe(true);
        expect(button(endDialog(), 'Cancel').disabled).toBe(true);
      },
    },
  },
});

modelSuite(customerPriceFormModel);

describe('customer price form machine (pinned journeys)', () => {
  it('a discount of 250 % refused, then 12.5 % for Acme on Standard saved; then Acme’s running price ended', async () => {
    const { actor, called, customerPricesChanged } = startCustomerPriceForm();
    actor.send(createCustomerPrice());
    actor.send(pickCustomer());
    actor.send(customerField('discountPercent', '250'));
    actor.send(submit);
    expect(actor.getSnapshot().context.errors.discountPercent).toBe(CUSTOMER_PRICE_TEXTS.discountInvalid);
    actor.send(customerField('discountPercent', '12.5'));
    actor.send(pickProduct('ref-standard', 'USD'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    actor.send(endRow());
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed') && called('endCustomerPrice').length === 1);
    expect(called('saveCustomerPrice').map((c) => c.input)).toMatchObject([{ customerId: CUSTOMER_ID, productReferenceId: 'ref-standard', discountPercent: '12.5' }]);
    expect(customerPricesChanged).toHaveBeenCalledTimes(2);
  });
});
