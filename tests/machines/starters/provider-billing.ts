// Starts the providerBilling machine with scripted answers for the balances-and-invoices load and
// each invoice: shared by its actor tests and the pinned journeys of its model.
import { createActor, type SnapshotFrom } from 'xstate';
import { providerBillingMachine, type BillingOutcome, type InvoiceOutcome } from '../../../src/machines/provider-billing';
import { billingFixture, invoiceFixture } from '../../fixtures/provider-billing';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const billing = billingFixture();
export const invoice = invoiceFixture();

export interface Answers {
  billing?: ReadonlyArray<Answer<BillingOutcome>>;
  invoice?: ReadonlyArray<Answer<InvoiceOutcome>>;
}

/** Every load answers the fixtures unless told otherwise. */
export function startProviderBilling(answers: Answers = {}) {
  const { calls, called, answer } = scriptedActors();
  const actor = createActor(
    providerBillingMachine.provide({
      actors: {
        loadBilling: answer<BillingOutcome, unknown>('loadBilling', answers.billing ?? [ok(billing)]),
        loadInvoice: answer<InvoiceOutcome, string>('loadInvoice', answers.invoice ?? [ok(invoice)]),
      },
    }),
  ).start();
  return { actor, calls, called };
}

export type Snapshot = SnapshotFrom<typeof providerBillingMachine>;

export const retry = { type: 'user.retry' } as const;
export const refresh = { type: 'user.refresh' } as const;
export const openInvoice = (invoiceId: string) => ({ type: 'user.openInvoice', invoiceId }) as const;
export const retryInvoice = { type: 'user.retryInvoice' } as const;
export const closeInvoice = { type: 'user.closeInvoice' } as const;
