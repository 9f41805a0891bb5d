// A customer's page → Balance and payments → Payment terms (billingTermsForm machine): its
// generated paths walked on the machine and through the /customer/terminals/{uuid} page of a
// customer on net 30, plus a journey pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { billingTermsFormMachine, validateTermsForm } from '../../../src/machines/billing-terms-form';
import { ACCOUNT_TEXTS, termsLabel } from '../../../src/ui/billing/account/parts';
import { TERMS_FORM_TEXTS as T } from '../../../src/ui/billing/account/BillingTermsForm';
import { CUSTOMER_UUID } from '../../fixtures/customer-terminals-client';
import { PAST_DAY_REFUSED, customerAccountWire, days, resetTerms, startTermsForm, submitTerms, termsField, termsRefused, termsWire } from '../../fixtures/ledger-account';
import { envelope } from '../../fixtures/statements';
import { ok } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { PAGE_PATH, customerPageAnswers } from './customer-terminals-page';

const input = { customerId: CUSTOMER_UUID, terms: termsWire() };
const stored = termsWire({ paymentTermsDays: 45, promiseToPayUntil: '2099-01-15', promiseNote: null });

const form = () => within(screen.getByRole('form', { name: T.title }));
const button = (name: string) => form().getByRole('button', { name }) as HTMLButtonElement;
const dayInput = () => form().getByLabelText(T.promise) as HTMLInputElement;
const noteInput = () => form().getByLabelText(T.note) as HTMLInputElement;
const daysBox = () => form().getByRole('combobox', { name: T.days });

export const billingTermsFormModel = defineModel<typeof billingTermsFormMachine, PageScreen>({
  name: 'billing-terms-form',
  machine: billingTermsFormMachine,
  input,
  events: {
    'user.days': [days(45)],
    // A day and a note go to the server; a note without a day is refused on the client.
    'user.field': [termsField('promiseToPayUntil', '2099-01-15'), termsField('promiseNote', 'After the holidays')],
    'user.submit': [submitTerms],
    'user.reset': [resetTerms],
  },
  actorResults: [
    done('saveTerms', ok(stored)),
    done('saveTerms', termsRefused([{ path: 'body.promiseToPayUntil', message: PAST_DAY_REFUSED }])),
    failed('saveTerms', new TypeError('fetch failed')),
  ],
  states: {
    editing: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      // A field error and a failure that is no field's never show together.
      if (Object.values(s.context.errors).some(Boolean)) expect(s.context.failure).toBeNull();
      expect(s.context.customerId).toBe(CUSTOMER_UUID);
    },
    submitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(resetTerms)).toBe(false);
      // Only a form the client finds right is ever sent.
      expect(validateTermsForm(s.context.form)).toEqual({});
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage(PAGE_PATH, seam, {
        ...customerPageAnswers(),
        [`GET /api/v1/customers/${CUSTOMER_UUID}/statements`]: { body: envelope([]) },
        [`GET /api/v1/customers/${CUSTOMER_UUID}/account`]: { body: envelope(customerAccountWire({ customerId: CUSTOMER_UUID, terms: input.terms })) },
      });
      await screen.findByRole('region', { name: ACCOUNT_TEXTS.title }, { timeout: 5000 });
      await screen.findByRole('form', { name: T.title }, { timeout: 5000 });
      return page;
    },
    // Choosing the terms already shown, or Undo while it is disabled, sends nothing.
    drivable: (snapshot, event) =>
      (event.type !== 'user.days' || event.days !== snapshot.context.form.paymentTermsDays) && (event.type !== 'user.reset' || snapshot.can(event)),
    events: {
      'user.days': async ({ user }, event) => {
        await user.click(daysBox());
        await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: termsLabel(event.days) }));
      },
      'user.field': async ({ user }, event) => {
        const target = event.field === 'promiseToPayUntil' ? dayInput() : noteInput();
        await user.clear(target);
        if (event.value) await user.paste(event.value);
      },
      'user.submit': async ({ user }) => user.click(button(T.save)),
      'user.reset': async ({ user }) => user.click(button(T.reset)),
    },
    states: {
      editing: (snapshot) => {
        const { form: values, errors, failure } = snapshot.context;
        expect(daysBox().textContent).toContain(termsLabel(values.paymentTermsDays));
        expect(dayInput().value).toBe(values.promiseToPayUntil);
        expect(noteInput().value).toBe(values.promiseNote);
        for (const message of Object.values(errors)) if (message) expect(form().getByText(message)).toBeTruthy();
        expect(dayInput().getAttribute('aria-invalid')).toBe(errors.promiseToPayUntil ? 'true' : 'false');
        if (failure) expect(form().getByRole('alert').textContent).toContain(failure);
        else expect(form().queryByRole('alert')).toBeNull();
        expect(button(T.save).disabled).toBe(false);
        expect(button(T.reset).disabled).toBe(!snapshot.can(resetTerms));
        expect(dayInput().disabled).toBe(false);
      },
      submitting: () => {
        expect(button(T.saving).disabled).toBe(true);
        expect(button(T.reset).disabled).toBe(true);
        expect(dayInput().disabled).toBe(true);
        expect(noteInput().disabled).toBe(true);
      },
    },
  },
});

modelSuite(billingTermsFormModel);

describe('billing terms form machine (pinned journeys)', () => {
  it('a note without a day stopped on the client, a past day refused by the server, then a later day saved: the page told once', async () => {
    const { actor, called, termsSaved } = startTermsForm([termsRefused([{ path: 'promiseToPayUntil', message: PAST_DAY_REFUSED }]), ok(stored)]);
    actor.send(termsField('promiseNote', 'After the holidays'));
    actor.send(submitTerms);
    expect(actor.getSnapshot().value).toBe('editing');
    expect(called('saveTerms')).toHaveLength(0);
    actor.send(termsField('promiseToPayUntil', '2026-01-02'));
    actor.send(submitTerms);
    const refused = await waitFor(actor, (s) => s.matches('editing') && s.context.errors.promiseToPayUntil !== undefined);
    expect(refused.context.errors.promiseToPayUntil).toBe(PAST_DAY_REFUSED);
    actor.send(termsField('promiseToPayUntil', '2099-01-15'));
    actor.send(submitTerms);
    const end = await waitFor(actor, (s) => s.matches('editing') && termsSaved.mock.calls.length === 1);
    expect(end.context.saved).toEqual(stored);
    expect(called('saveTerms').map((c) => (c.input as { body: { promiseToPayUntil: string } }).body.promiseToPayUntil)).toEqual(['2026-01-02', '2099-01-15']);
  });
});
