// A customer's account on their page (/customer/terminals/{uuid}, billing:read): a resource machine
// over GET /customers/{uuid}/account, and for those who manage billing the payment terms form (the
// billing terms form machine, whose effects are provided here: the API call, the toasts, and
// reading the account again once the terms are saved). The form's actor starts once the account
// is known, from the terms in force.
import { useRouter } from '@tanstack/react-router';
import { shallowEqual, useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import type { SnapshotFrom } from 'xstate';
import { createCustomerAccountActors } from '../api/ledger-actors';
import type { BillingTermsWire, CustomerAccountWire } from '../domain/ledger';
import { billingTermsFormMachine, billingTermsFormState } from '../machines/billing-terms-form';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { BillingTermsForm } from '../ui/billing/account/BillingTermsForm';
import { CustomerAccountCard } from '../ui/billing/account/CustomerAccountCard';
import { useAppServices, useCan, usePageActor } from './services';

export const customerAccountMachine = createResourceMachine<CustomerAccountWire>('customerAccount');

type AccountSnapshot = SnapshotFrom<typeof customerAccountMachine>;

/** What the section shows, read from the account's snapshot. */
export function customerAccountState(snapshot: AccountSnapshot) {
  return {
    account: snapshot.context.data,
    // A failed refresh keeps the account on screen and says why beside it.
    error: snapshot.matches('failed') || snapshot.context.data !== null ? snapshot.context.error : null,
    refreshing: snapshot.hasTag('refreshing'),
  };
}

export function CustomerAccountSection({ customerUuid }: { customerUuid: string }) {
  const { api } = useAppServices();
  const router = useRouter();
  const canManage = useCan('billing:manage');
  const actors = createCustomerAccountActors(api, customerUuid);
  const page = usePageActor(customerAccountMachine.provide({ actors: { load: actors.load } }));
  const { account, error, refreshing } = useSelector(page, customerAccountState, shallowEqual);
  const terms = account?.terms ?? null;
  return (
    <CustomerAccountCard
      account={account}
      error={error}
      refreshing={refreshing}
      onRetry={() => page.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: url })}
      {...(canManage && terms
        ? { termsForm: <TermsForm customerId={customerUuid} terms={terms} saveTerms={actors.saveTerms} onSaved={() => page.send(reloadEvent(page.getSnapshot()))} /> }
        : {})}
    />
  );
}

function TermsForm({ customerId, terms, saveTerms, onSaved }: { customerId: string; terms: BillingTermsWire; saveTerms: ReturnType<typeof createCustomerAccountActors>['saveTerms']; onSaved(): void }) {
  const form = usePageActor(
    billingTermsFormMachine.provide({
      actors: { saveTerms },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'billing-terms' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'billing-terms' }),
        termsSaved: () => onSaved(),
      },
    }),
    // The terms in force when the form first shows; after a save the form holds what the server stored.
    { input: { customerId, terms } },
  );
  const state = useSelector(form, billingTermsFormState, shallowEqual);
  return (
    <BillingTermsForm
      form={state.form}
      errors={state.errors}
      failure={state.failure}
      busy={state.busy}
      canReset={state.canReset}
      onDays={(days) => form.send({ type: 'user.days', days })}
      onField={(field, value) => form.send({ type: 'user.field', field, value })}
      onSubmit={() => form.send({ type: 'user.submit' })}
      onReset={() => form.send({ type: 'user.reset' })}
    />
  );
}
