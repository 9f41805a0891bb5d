/**
 * Subscriptions → Provider Billing: what the provider bills the reseller, read live (read-only),
 * and one invoice's lines at a time in a dialog.
 *
 *   loading                  balance cards and the invoices table as skeletons         (tag: loading)
 *   failed                   the error card (`error`) with Try Again
 *   ready.overview.idle      the balances and invoices; a failed refresh keeps them and says why (`error`)
 *   ready.overview.refreshing  the same, reloading in place; Refresh is disabled       (tag: refreshing)
 *   ready.invoice.none       no invoice dialog
 *   ready.invoice.loading    the invoice dialog for `invoiceId`, its lines as skeletons (tag: loadingInvoice)
 *   ready.invoice.shown      the dialog with the invoice's lines (`invoice`)
 *   ready.invoice.failed     the dialog with why (`invoiceError`) and Try Again
 *
 * The two regions are independent: a refresh leaves the open invoice alone.
 */
import { assign, fromPromise, setup } from 'xstate';
import { PROVIDER_BILLING_MESSAGES, PROVIDER_BILLING_TEXTS, type ProviderBillingWire, type ProviderInvoiceWire } from '../domain/provider-billing';
import type { LoadOutcome } from './resource';

export type BillingOutcome = LoadOutcome<ProviderBillingWire>;
export type InvoiceOutcome = LoadOutcome<ProviderInvoiceWire>;

export interface ProviderBillingContext {
  billing: ProviderBillingWire | null;
  /** Why the last load or refresh of the balances and invoices failed; null after a success. */
  error: string | null;
  /** The invoice the dialog is for (kept after it closes, so the closing dialog keeps its words). */
  invoiceId: string | null;
  invoice: ProviderInvoiceWire | null;
  invoiceError: string | null;
}

export type ProviderBillingEvent =
  | { type: 'user.retry' }
  | { type: 'user.refresh' }
  | { type: 'user.openInvoice'; invoiceId: string }
  | { type: 'user.retryInvoice' }
  | { type: 'user.closeInvoice' };

const closeInvoice = { 'user.closeInvoice': 'none' } as const;

export const providerBillingMachine = setup({
  types: {
    context: {} as ProviderBillingContext,
    events: {} as ProviderBillingEvent,
  },
  actors: {
    loadBilling: fromPromise<BillingOutcome>(async () => {
      throw new Error('loadBilling is provided by the app');
    }),
    loadInvoice: fromPromise<InvoiceOutcome, string>(async () => {
      throw new Error('loadInvoice is provided by the app');
    }),
  },
  actions: {
    storeBilling: assign((_, outcome: BillingOutcome) => (outcome.ok ? { billing: outcome.data, error: null } : {})),
    storeError: assign((_, message: string) => ({ error: message.trim() || PROVIDER_BILLING_MESSAGES.loadFailed })),
    takeInvoiceId: assign((_, invoiceId: string) => ({ invoiceId, invoice: null })),
    clearInvoiceError: assign({ invoiceError: null }),
    storeInvoice: assign((_, outcome: InvoiceOutcome) => (outcome.ok ? { invoice: outcome.data, invoiceError: null } : {})),
    storeInvoiceError: assign((_, message: string) => ({ invoiceError: message.trim() || PROVIDER_BILLING_TEXTS.invoiceLoadFailed })),
  },
  guards: {
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
  },
}).createMachine({
  id: 'providerBilling',
  context: { billing: null, error: null, invoiceId: null, invoice: null, invoiceError: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'loadBilling',
        src: 'loadBilling',
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'ready',
            actions: { type: 'storeBilling', params: ({ event }) => event.output },
          },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
        ],
        onError: { target: 'failed', actions: { type: 'storeError', params: PROVIDER_BILLING_MESSAGES.loadFailed } },
      },
    },

    failed: { on: { 'user.retry': 'loading' } },

    ready: {
      type: 'parallel',
      states: {
        overview: {
          initial: 'idle',
          states: {
            idle: { on: { 'user.refresh': 'refreshing' } },
            refreshing: {
              tags: ['refreshing'],
              invoke: {
                id: 'reloadBilling',
                src: 'loadBilling',
                onDone: [
                  {
                    guard: { type: 'isLoaded', params: ({ event }) => event.output },
                    target: 'idle',
                    actions: { type: 'storeBilling', params: ({ event }) => event.output },
                  },
                  // A failed refresh keeps the balances and invoices on screen and says why.
                  { target: 'idle', actions: { type: 'storeError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
                ],
                onError: { target: 'idle', actions: { type: 'storeError', params: PROVIDER_BILLING_MESSAGES.loadFailed } },
              },
            },
          },
        },

        invoice: {
          initial: 'none',
          on: {
            // From any step, another invoice included: re-entering `loading` stops the request
            // under way, so the first invoice's answer never lands in the second one's dialog.
            'user.openInvoice': {
              target: '.loading',
              reenter: true,
              actions: { type: 'takeInvoiceId', params: ({ event }) => event.invoiceId },
            },
          },
          states: {
            none: {},
            loading: {
              tags: ['loadingInvoice'],
              entry: 'clearInvoiceError',
              invoke: {
                id: 'loadInvoice',
                src: 'loadInvoice',
                input: ({ context }) => context.invoiceId ?? '',
                onDone: [
                  {
                    guard: { type: 'isLoaded', params: ({ event }) => event.output },
                    target: 'shown',
                    actions: { type: 'storeInvoice', params: ({ event }) => event.output },
                  },
                  { target: 'failed', actions: { type: 'storeInvoiceError', params: ({ event }) => (event.output.ok ? '' : event.output.message) } },
                ],
                onError: { target: 'failed', actions: { type: 'storeInvoiceError', params: PROVIDER_BILLING_TEXTS.invoiceLoadFailed } },
              },
              on: closeInvoice,
            },
            shown: { on: closeInvoice },
            failed: { on: { 'user.retryInvoice': 'loading', ...closeInvoice } },
          },
        },
      },
    },
  },
});
