// "Add Terminal" as a page offers it (the terminals list, a customer's terminals page): the
// activationWizard actor, started when the dialog opens (with the customer when the page has one)
// and dropped when it reaches `closed`, with its API calls and toasts provided here. `onActivated`
// is the page's "refresh your list". With several provider accounts the first step asks which one
// to activate under, starting from the first the portal lists.
import { useEffect } from 'react';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { ActivationWire } from '../domain/activations';
import { activationWizardMachine, type ActivationCustomer } from '../machines/activation-wizard';
import { ActivationWizard, type ActivationWizardProps, type WizardStepName } from '../ui/terminals/ActivationWizard';
import { useAccountChoices } from './account-refs';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

type Snapshot = SnapshotFrom<typeof activationWizardMachine>;

const STEPS: readonly WizardStepName[] = ['device', 'customer', 'address', 'product', 'nickname', 'review', 'running', 'done', 'stopped'];
const stepOf = (s: Snapshot): WizardStepName => STEPS.find((step) => s.matches(step)) ?? 'device';
const addressStepOf = (s: Snapshot): ActivationWizardProps['addressStep'] =>
  s.matches({ address: 'loading' }) ? 'loading' : s.matches({ address: 'failed' }) ? 'failed' : s.matches({ address: 'existing' }) ? 'existing' : s.matches({ address: 'new' }) ? 'new' : null;
const loadErrorOf = (s: Snapshot) =>
  s.matches({ customer: 'failed' }) ? s.context.customersError : s.matches({ address: 'failed' }) ? s.context.addressesError : s.matches({ product: 'failed' }) ? s.context.plansError : null;

const offeredOf = (s: Snapshot): ActivationWizardProps['offered'] => ({
  back: s.can({ type: 'user.back' }),
  next: s.can({ type: 'user.next' }),
  confirm: s.can({ type: 'user.confirm' }),
  resume: s.can({ type: 'user.resume' }),
  close: s.can({ type: 'user.close' }),
  newAddress: s.can({ type: 'user.newAddress' }),
  existingAddress: s.can({ type: 'user.existingAddress' }),
  retry: s.can({ type: 'user.retry' }),
});
const sameOffer = (a: ActivationWizardProps['offered'], b: ActivationWizardProps['offered']) =>
  (Object.keys(a) as (keyof typeof a)[]).every((k) => a[k] === b[k]);

export function ActivationWizardPanel(props: { customer: ActivationCustomer | null; onClosed: () => void; onActivated: (activation: ActivationWire) => void }) {
  const { api } = useAppServices();
  const actor = usePageActor(
    activationWizardMachine.provide({
      actors: {
        loadCustomers: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.customers.list({ page: 1, limit: 50, search: input }, signal);
            return result.ok ? { ok: true as const, data: result.data.customers.map((c) => ({ uuid: c.uuid, name: c.name })) } : result;
          }),
        ),
        loadAddresses: fromPromise(({ input, signal }) => outcome(() => api.activations.addresses(input.search, signal, input.accountId))),
        loadPlans: fromPromise(({ input, signal }) => outcome(() => api.subscriptions.plansOf(input, signal))),
        startActivation: fromPromise(({ input, signal }) => outcome(() => api.activations.start(input, signal))),
        resumeActivation: fromPromise(({ input, signal }) => outcome(() => api.activations.resume(input, signal))),
      },
      actions: {
        activated: (_, activation) => props.onActivated(activation),
        notifySuccess: (_, message) => void toast.success(message, { id: 'activation' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'activation' }),
      },
    }),
    { input: { customer: props.customer } },
  );

  const closed = useSelector(actor, (s) => s.status === 'done');
  const { onClosed } = props;
  useEffect(() => {
    if (closed) onClosed();
  }, [closed, onClosed]);

  const accounts = useAccountChoices();
  // The picker shows the first account until another is chosen: the wizard is told it too, so the
  // activation goes under the account shown rather than the server's first enabled one.
  useEffect(() => {
    const snapshot = actor.getSnapshot();
    if (accounts && snapshot.context.accountId === null) actor.send({ type: 'user.deviceId', value: snapshot.context.deviceId, accountId: accounts[0]!.id });
  }, [actor, accounts]);

  const step = useSelector(actor, stepOf);
  const addressStep = useSelector(actor, addressStepOf);
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const loadError = useSelector(actor, loadErrorOf);
  const offered = useSelector(actor, offeredOf, sameOffer);
  const c = useSelector(actor, (s) => s.context);
  const send = actor.send;
  if (closed) return null;
  return (
    <ActivationWizard
      step={step}
      customerPreset={c.presetCustomer !== null}
      deviceId={c.deviceId}
      deviceError={c.deviceError}
      {...(accounts ? { accounts } : {})}
      accountId={c.accountId}
      customerSearch={c.customerSearch}
      customers={c.customers}
      customer={c.customer}
      loading={loading}
      loadError={loadError}
      addressMode={c.addressMode}
      addressStep={addressStep}
      addressSearch={c.addressSearch}
      addresses={c.addresses}
      addressReferenceId={c.addressReferenceId}
      addressError={c.addressError}
      addressForm={c.addressForm}
      addressErrors={c.addressErrors}
      plans={c.plans}
      productReferenceId={c.productReferenceId}
      productError={c.productError}
      nickname={c.nickname}
      nicknameError={c.nicknameError}
      activation={c.activation}
      failure={c.failure}
      offered={offered}
      onDeviceId={(value) => send({ type: 'user.deviceId', value })}
      onAccount={(accountId) => send({ type: 'user.deviceId', value: c.deviceId, accountId })}
      onCustomerSearch={(value) => send({ type: 'user.customerSearch', value })}
      onCustomer={(customer) => send({ type: 'user.customer', customer })}
      onAddressSearch={(value) => send({ type: 'user.addressSearch', value })}
      onAddress={(addressReferenceId) => send({ type: 'user.address', addressReferenceId })}
      onNewAddress={() => send({ type: 'user.newAddress' })}
      onExistingAddress={() => send({ type: 'user.existingAddress' })}
      onAddressField={(field, value) => send({ type: 'user.addressField', field, value })}
      onProduct={(productReferenceId) => send({ type: 'user.product', productReferenceId })}
      onNickname={(value) => send({ type: 'user.nickname', value })}
      onRetry={() => send({ type: 'user.retry' })}
      onNext={() => send({ type: 'user.next' })}
      onBack={() => send({ type: 'user.back' })}
      onConfirm={() => send({ type: 'user.confirm' })}
      onResume={() => send({ type: 'user.resume' })}
      onClose={() => send({ type: 'user.close' })}
    />
  );
}
