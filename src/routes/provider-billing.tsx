// Subscriptions → Provider Billing (/subscription/provider-billing): the providerBilling machine,
// its two loads provided here over the API, and its view. A service line's terminal is the
// terminals page searched for the line, so the link lands on the row whatever page it is on. With
// several provider accounts the header asks whose bill to read; choosing another starts the machine
// afresh for it, so no invoice of the last account stays open.
import type { ReactNode } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { providerBillingMachine } from '../machines/provider-billing';
import { ProviderBillingView } from '../ui/subscriptions/ProviderBillingView';
import { outcome } from './outcome';
import { useChosenAccount } from './account-refs';
import { useAppServices, usePageActor } from './services';

export function ProviderBillingRoute() {
  const { accountId, picker } = useChosenAccount();
  return <ProviderBillingPage key={accountId ?? 'one-account'} accountId={accountId} accountPicker={picker} />;
}

function ProviderBillingPage({ accountId, accountPicker }: { accountId: number | null; accountPicker: ReactNode }) {
  const { api } = useAppServices();
  const router = useRouter();

  const billingActor = usePageActor(
    providerBillingMachine.provide({
      actors: {
        loadBilling: fromPromise(({ signal }) => outcome(() => api.providerBilling.overview(signal, accountId))),
        loadInvoice: fromPromise(({ input, signal }) => outcome(() => api.providerBilling.invoice(input, signal, accountId))),
      },
    }),
  );

  const billing = useSelector(billingActor, (s) => s.context.billing);
  const loading = useSelector(billingActor, (s) => s.hasTag('loading'));
  const refreshing = useSelector(billingActor, (s) => s.hasTag('refreshing'));
  const error = useSelector(billingActor, (s) => (s.matches('failed') ? s.context.error : null));
  const refreshError = useSelector(billingActor, (s) => (s.matches('ready') ? s.context.error : null));
  const invoiceOpen = useSelector(billingActor, (s) => s.matches('ready') && !s.matches({ ready: { invoice: 'none' } }));
  const invoiceId = useSelector(billingActor, (s) => s.context.invoiceId);
  const invoice = useSelector(billingActor, (s) => s.context.invoice);
  const invoiceLoading = useSelector(billingActor, (s) => s.hasTag('loadingInvoice'));
  const invoiceError = useSelector(billingActor, (s) => (s.matches({ ready: { invoice: 'failed' } }) ? s.context.invoiceError : null));

  return (
    <ProviderBillingView
      accountPicker={accountPicker}
      billing={billing}
      loading={loading}
      refreshing={refreshing}
      error={error}
      refreshError={refreshError}
      invoiceOpen={invoiceOpen}
      invoiceId={invoiceId}
      invoice={invoice}
      invoiceLoading={invoiceLoading}
      invoiceError={invoiceError}
      terminalUrl={(serviceLineNumber) => router.buildLocation({ to: '/terminals', search: { search: serviceLineNumber } }).href}
      onRetry={() => billingActor.send({ type: 'user.retry' })}
      onRefresh={() => billingActor.send({ type: 'user.refresh' })}
      onOpenInvoice={(invoiceId) => billingActor.send({ type: 'user.openInvoice', invoiceId })}
      onRetryInvoice={() => billingActor.send({ type: 'user.retryInvoice' })}
      onCloseInvoice={() => billingActor.send({ type: 'user.closeInvoice' })}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
