import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { BILLING_MESSAGES } from '../../src/domain/billing';
import { CUSTOMER_PRICE_TEXTS, customerPriceRefusalPlacement, isDiscountPercent, validateCustomerPriceForm } from '../../src/machines/customer-price-form';
import {
  CUSTOMER_ID,
  NEXT_MONTH,
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
  startCustomerPriceForm,
  submit,
} from '../fixtures/prices';
import { refused } from './scripted-actors';

describe('customer price form rules', () => {
  it('takes a discount above 0 and at most 100 with at most 2 decimals', () => {
    for (const good of ['0.01', '12.5', '100', '100.00']) expect(isDiscountPercent(good), good).toBe(true);
    for (const bad of ['0', '100.01', '12.345', '-5', 'ten', '']) expect(isDiscountPercent(bad), bad).toBe(false);
  });

  it('asks for a customer and for a discount or at least one negotiated price', () => {
    const errors = validateCustomerPriceForm(blankCustomerPriceForm);
    expect(errors.customer).toBe(CUSTOMER_PRICE_TEXTS.customerRequired);
    expect(errors.figures).toBe(BILLING_MESSAGES.customerPriceEmpty);
    expect(validateCustomerPriceForm({ ...blankCustomerPriceForm, customer: acme, monthly: '70' })).toEqual({});
  });

  it('reads negotiated figures in the currency, and wants Until after From', () => {
    const errors = validateCustomerPriceForm({ ...blankCustomerPriceForm, customer: acme, currency: 'JPY', monthly: '70.5', effectiveUntil: NEXT_MONTH });
    expect(errors.monthly).toBe('Monthly price: JPY amounts have at most 0 decimals');
    expect(errors.effectiveUntil).toBe(CUSTOMER_PRICE_TEXTS.untilBeforeFrom);
  });

  it("puts the server's words on the customer when it names the customer, else above the form", () => {
    expect(customerPriceRefusalPlacement(refusal(400, 'Invalid body', [{ path: 'body.customerId', message: 'Invalid uuid' }]))).toEqual({ errors: { customer: 'Invalid uuid' }, failure: null });
    expect(customerPriceRefusalPlacement(refusal(404, BILLING_MESSAGES.customerNotFound))).toEqual({ errors: { customer: BILLING_MESSAGES.customerNotFound }, failure: null });
    expect(customerPriceRefusalPlacement(refusal(500, ''))).toEqual({ errors: {}, failure: CUSTOMER_PRICE_TEXTS.saveFailed });
  });
});

describe('customer price form machine: new customer price', () => {
  it('sends nothing without a customer or a figure, and a figure typed clears "give a discount or a price"', () => {
    const { actor, called } = startCustomerPriceForm();
    actor.send(createCustomerPrice());
    actor.send(submit);
    expect(actor.getSnapshot().context.errors).toMatchObject({ customer: CUSTOMER_PRICE_TEXTS.customerRequired, figures: BILLING_MESSAGES.customerPriceEmpty });
    actor.send(customerField('discountPercent', '12.5'));
    expect(actor.getSnapshot().context.errors.figures).toBeUndefined();
    actor.send(pickCustomer());
    expect(actor.getSnapshot().context.errors.customer).toBeUndefined();
    expect(called('saveCustomerPrice')).toHaveLength(0);
  });

  it('sends the customer, the product with its currency, blanks as null, and closes on success', async () => {
    const { actor, called, notifySuccess, customerPricesChanged } = startCustomerPriceForm();
    actor.send(createCustomerPrice());
    actor.send(pickCustomer());
    actor.send(pickProduct('ref-standard', 'EUR'));
    actor.send(customerField('monthly', ' 70.00 '));
    actor.send(customerField('discountPercent', '5'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('saveCustomerPrice').map((c) => c.input)).toEqual([
      {
        customerId: CUSTOMER_ID,
        productReferenceId: 'ref-standard',
        effectiveFrom: NEXT_MONTH,
        effectiveUntil: null,
        discountPercent: '5',
        monthly: '70.00',
        overagePerGb: null,
        topUp: null,
        currency: 'EUR',
        note: null,
      },
    ]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.customerPriceSaved);
    expect(customerPricesChanged).toHaveBeenCalledOnce();
  });

  it('choosing every product keeps the currency typed', () => {
    const { actor } = startCustomerPriceForm();
    actor.send(createCustomerPrice());
    actor.send(customerField('currency', 'GBP'));
    actor.send(pickProduct(null));
    expect(actor.getSnapshot().context.form).toMatchObject({ productReferenceId: null, currency: 'GBP' });
  });

  it("a refusal comes back to the form with the server's words and what was typed", async () => {
    const { actor, customerPricesChanged } = startCustomerPriceForm({ save: [refusal(409, 'This customer already has a price from that date')] });
    actor.send(createCustomerPrice({ ...blankCustomerPriceForm, customer: acme, discountPercent: '10' }));
    actor.send(submit);
    const back = await waitFor(actor, (s) => s.matches('editing') && s.context.failure !== null);
    expect(back.context.failure).toBe('This customer already has a price from that date');
    expect(back.context.form.discountPercent).toBe('10');
    expect(customerPricesChanged).not.toHaveBeenCalled();
  });
});

describe('customer price form machine: end', () => {
  it('asks first, then ends the row it was given', async () => {
    const { actor, called, notifySuccess, customerPricesChanged } = startCustomerPriceForm();
    actor.send(endRow());
    expect(actor.getSnapshot().matches({ ending: 'confirming' })).toBe(true);
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(called('endCustomerPrice').map((c) => c.input)).toEqual([{ id: runningCustomerPrice.id }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(BILLING_MESSAGES.customerPriceEnded);
    expect(customerPricesChanged).toHaveBeenCalledOnce();
  });

  it("a refused end stays on the question with the server's words", async () => {
    const { actor } = startCustomerPriceForm({ end: [refused(BILLING_MESSAGES.customerPriceNotFound)] });
    actor.send(endRow());
    actor.send(confirm);
    const back = await waitFor(actor, (s) => s.matches({ ending: 'confirming' }) && s.context.failure !== null);
    expect(back.context.failure).toBe(BILLING_MESSAGES.customerPriceNotFound);
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('closed');
  });
});
