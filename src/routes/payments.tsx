// Payments (/billing/payments, billing:read; billing:manage acts): the bank statement import (the
// bank import machine), the bank lines waiting to be matched (a list machine over GET
// /billing/bank-lines?status=unmatched) with Match… and Ignore… (the bank line decision machine),
// Record payment (the ledger entry form machine) and the ledger (a list machine over GET
// /billing/ledger, by kind) with Reverse… (the ledger reverse machine). Lists keep their page and
// filter as their own state, as the Automatic actions page does. The machines' effects are the
// page's actors (createPaymentsActors) and the toasts; the customer pickers are a list actor over
// the customers API, alive while their dialog is open.
import { useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import type { ActorRefFrom } from 'xstate';
import { LEDGER_PAGE_SIZE, isoDay, type BankLineWire, type LedgerEntryWire } from '../domain/ledger';
import { bankImportMachine, bankImportView } from '../machines/bank-import';
import { bankLineDecisionMachine, bankLineDecisionView, type CustomerOption } from '../machines/bank-line-decision';
import { ledgerEntryFormMachine, ledgerEntryFormView } from '../machines/ledger-entry-form';
import { ledgerReverseMachine, ledgerReverseView } from '../machines/ledger-reverse';
import { createListMachine, type ListLocation } from '../machines/list';
import { BankImportPanel } from '../ui/billing/payments/BankImportPanel';
import { IgnoreLineDialog, MatchLineDialog } from '../ui/billing/payments/BankLineDialogs';
import { LedgerEntryDialog } from '../ui/billing/payments/LedgerEntryDialog';
import { LedgerSection } from '../ui/billing/payments/LedgerSection';
import { PAYMENTS_TEXTS as T, type LedgerKindFilter } from '../ui/billing/payments/parts';
import { PaymentsView } from '../ui/billing/payments/PaymentsView';
import { ReverseEntryDialog } from '../ui/billing/payments/ReverseEntryDialog';
import { WaitingLinesSection } from '../ui/billing/payments/WaitingLinesSection';
import { useListState } from './list-state';
import { useAppServices, useCan, usePageActor } from './services';
import { createPaymentsActors, type CustomerChoice, type PaymentsActors } from '../api/ledger-actors';

const waitingLinesMachine = createListMachine<BankLineWire, 'unmatched'>({
  id: 'bankLinesWaiting',
  defaultQuery: { page: 1, limit: LEDGER_PAGE_SIZE, search: '', status: 'unmatched' },
});
const ledgerEntriesMachine = createListMachine<LedgerEntryWire, LedgerKindFilter>({
  id: 'ledgerEntries',
  defaultQuery: { page: 1, limit: LEDGER_PAGE_SIZE, search: '', status: 'all' },
});
const customerChoicesMachine = createListMachine<CustomerChoice, 'all'>({
  id: 'paymentCustomerChoices',
  defaultQuery: { page: 1, limit: 20, search: '', status: 'all' },
});


const notify = (id: string) => ({
  notifySuccess: (_: unknown, message: string) => void toast.success(message, { id }),
  notifyFailure: (_: unknown, message: string) => void toast.error(message, { id }),
});

export function PaymentsRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const canManage = useCan('billing:manage');
  const actors = createPaymentsActors(api);
  const [waitingLocation, setWaitingLocation] = useState<ListLocation<'unmatched'>>({ page: 1, search: '', status: 'unmatched' });
  const [ledgerLocation, setLedgerLocation] = useState<ListLocation<LedgerKindFilter>>({ page: 1, search: '', status: 'all' });

  const waiting = usePageActor(
    waitingLinesMachine.provide({
      actors: { load: actors.loadWaiting },
      actions: { publishQuery: (_, query) => setWaitingLocation({ page: query.page, search: '', status: 'unmatched' }), reportLoadFailure: () => {} },
    }),
    { input: { query: waitingLocation } },
  );
  const ledger = usePageActor(
    ledgerEntriesMachine.provide({
      actors: { load: actors.loadLedger },
      actions: { publishQuery: (_, query) => setLedgerLocation({ page: query.page, search: '', status: query.status }), reportLoadFailure: () => {} },
    }),
    { input: { query: ledgerLocation } },
  );
  const reloadWaiting = () => waiting.send({ type: 'user.refresh' });
  const reloadLedger = () => ledger.send({ type: 'user.refresh' });

  const bankImport = usePageActor(
    bankImportMachine.provide({
      actors: { readFile: actors.readFile, importFile: actors.importFile },
      actions: {
        ...notify('bank-import'),
        bankImported: () => {
          reloadWaiting();
          reloadLedger();
        },
      },
    }),
  );
  const decision = usePageActor(
    bankLineDecisionMachine.provide({
      actors: { loadAccount: actors.loadAccount, matchLine: actors.matchLine, ignoreLine: actors.ignoreLine },
      actions: {
        ...notify('bank-line'),
        lineDecided: () => {
          reloadWaiting();
          reloadLedger();
        },
      },
    }),
  );
  const entryForm = usePageActor(
    ledgerEntryFormMachine.provide({
      actors: { loadAccount: actors.loadAccount, postEntry: actors.postEntry },
      actions: { ...notify('ledger-entry'), entryRecorded: reloadLedger },
    }),
  );
  const reverse = usePageActor(
    ledgerReverseMachine.provide({
      actors: { reverseEntry: actors.reverseEntry },
      actions: { ...notify('ledger-reverse'), entryReversed: reloadLedger },
    }),
  );
  const onNavigate = (url: string) => void router.navigate({ href: url });

  return (
    <>
      <PaymentsView canManage={canManage} onRecord={() => entryForm.send({ type: 'user.create', today: isoDay(new Date()) })} onNavigate={onNavigate}>
        {canManage && <ImportSection bankImport={bankImport} />}
        <WaitingSection list={waiting} location={waitingLocation} decision={decision} canManage={canManage} />
        <LedgerEntriesSection list={ledger} location={ledgerLocation} reverse={reverse} canManage={canManage} onNavigate={onNavigate} />
      </PaymentsView>
      <DecisionDialogs decision={decision} actors={actors} />
      <EntryDialog entryForm={entryForm} actors={actors} />
      <ReverseDialog reverse={reverse} />
    </>
  );
}

// Each section and dialog reads its own actor: a key typed in a dialog renders the dialog, not the tables.

function ImportSection({ bankImport }: { bankImport: ActorRefFrom<typeof bankImportMachine> }) {
  const view = useSelector(bankImport, bankImportView);
  return (
    <BankImportPanel
      {...view}
      onFile={(file) => bankImport.send({ type: 'user.file', file })}
      onFormat={(format) => bankImport.send({ type: 'user.format', format })}
      onMapping={(field, value) => bankImport.send({ type: 'user.mapping', field, value })}
      onImport={() => bankImport.send({ type: 'user.import' })}
      onAgain={() => bankImport.send({ type: 'user.again' })}
    />
  );
}

interface WaitingSectionProps {
  list: ActorRefFrom<typeof waitingLinesMachine>;
  location: ListLocation<'unmatched'>;
  decision: ActorRefFrom<typeof bankLineDecisionMachine>;
  canManage: boolean;
}

function WaitingSection({ list, location, decision, canManage }: WaitingSectionProps) {
  const { rows, pagination, loading, error } = useListState(list, location);
  const busy = useSelector(decision, (s) => s.hasTag('busy'));
  return (
    <WaitingLinesSection
      lines={rows}
      pagination={pagination}
      loading={loading}
      error={error}
      canManage={canManage}
      busy={busy}
      onMatch={(line) => decision.send({ type: 'user.match', line })}
      onIgnore={(line) => decision.send({ type: 'user.ignore', line })}
      onPage={(page) => list.send({ type: 'user.page', page })}
      onRetry={() => list.send({ type: 'user.retry' })}
    />
  );
}

interface LedgerEntriesSectionProps {
  list: ActorRefFrom<typeof ledgerEntriesMachine>;
  location: ListLocation<LedgerKindFilter>;
  reverse: ActorRefFrom<typeof ledgerReverseMachine>;
  canManage: boolean;
  onNavigate(url: string): void;
}

function LedgerEntriesSection({ list, location, reverse, canManage, onNavigate }: LedgerEntriesSectionProps) {
  const { rows, pagination, query, loading, error } = useListState(list, location);
  const busy = useSelector(reverse, (s) => s.hasTag('busy'));
  return (
    <LedgerSection
      entries={rows}
      pagination={pagination}
      kind={query.status}
      loading={loading}
      error={error}
      canManage={canManage}
      busy={busy}
      onKind={(status) => list.send({ type: 'user.status', status })}
      onPage={(page) => list.send({ type: 'user.page', page })}
      onRetry={() => list.send({ type: 'user.retry' })}
      onReverse={(entry) => reverse.send({ type: 'user.reverse', entry })}
      onNavigate={onNavigate}
    />
  );
}

/** The customers a picker's search finds: a list actor over the customers API, alive while its dialog is. */
function useCustomerChoices(actors: PaymentsActors, chosen: CustomerOption | null) {
  const choices = usePageActor(customerChoicesMachine.provide({ actors: { load: actors.loadCustomerChoices } }));
  const found = useSelector(choices, (s) => s.context.rows);
  const loading = useSelector(choices, (s) => s.hasTag('loading') || s.matches({ searchBox: 'debouncing' }));
  const error = useSelector(choices, (s) => (s.matches({ data: 'failed' }) ? (s.context.error ?? T.customersFailed) : null));
  // The chosen customer stays in the list whatever the search now finds.
  const options = [
    ...(chosen && !found.some((c) => c.id === chosen.id) ? [{ label: chosen.name, value: chosen.id }] : []),
    ...found.map((c) => ({ label: `${c.name} \u00b7 ${c.email}`, value: c.id })),
  ];
  const pick = (id: string): CustomerOption | null => {
    const customer = found.find((c) => c.id === id) ?? (chosen?.id === id ? chosen : null);
    return customer ? { id: customer.id, name: customer.name } : null;
  };
  return { options, loading, error, pick, search: (value: string) => choices.send({ type: 'user.searchInput', value }) };
}

function DecisionDialogs({ decision, actors }: { decision: ActorRefFrom<typeof bankLineDecisionMachine>; actors: PaymentsActors }) {
  const view = useSelector(decision, bankLineDecisionView);
  return (
    <>
      {view.dialog === 'match' && <MatchPanel decision={decision} actors={actors} />}
      <IgnoreLineDialog
        visible={view.dialog === 'ignore'}
        busy={view.busy}
        line={view.line}
        reason={view.reason}
        reasonError={view.errors.reason}
        failure={view.failure}
        onReason={(value) => decision.send({ type: 'user.reason', value })}
        onSubmit={() => decision.send({ type: 'user.submit' })}
        onCancel={() => decision.send({ type: 'user.cancel' })}
      />
    </>
  );
}

function MatchPanel({ decision, actors }: { decision: ActorRefFrom<typeof bankLineDecisionMachine>; actors: PaymentsActors }) {
  const view = useSelector(decision, bankLineDecisionView);
  const customers = useCustomerChoices(actors, view.customer);
  return (
    <MatchLineDialog
      busy={view.busy}
      line={view.line}
      customerId={view.customer?.id ?? null}
      customers={customers.options}
      customersLoading={customers.loading}
      customersError={customers.error}
      loadingStatements={view.loadingStatements}
      statementsShown={view.statementsShown}
      statements={view.statements}
      chosen={view.chosen}
      customerError={view.errors.customer}
      failure={view.failure}
      onCustomerSearch={customers.search}
      onCustomer={(id) => {
        const customer = customers.pick(id);
        if (customer) decision.send({ type: 'user.customer', customer });
      }}
      onStatement={(statementId, checked) => decision.send({ type: 'user.statement', statementId, checked })}
      onSubmit={() => decision.send({ type: 'user.submit' })}
      onCancel={() => decision.send({ type: 'user.cancel' })}
    />
  );
}

function EntryDialog({ entryForm, actors }: { entryForm: ActorRefFrom<typeof ledgerEntryFormMachine>; actors: PaymentsActors }) {
  const open = useSelector(entryForm, (s) => s.hasTag('open'));
  return open ? <EntryPanel entryForm={entryForm} actors={actors} /> : null;
}

function EntryPanel({ entryForm, actors }: { entryForm: ActorRefFrom<typeof ledgerEntryFormMachine>; actors: PaymentsActors }) {
  const view = useSelector(entryForm, ledgerEntryFormView);
  const customers = useCustomerChoices(actors, view.form.customer);
  return (
    <LedgerEntryDialog
      busy={view.busy}
      form={view.form}
      today={view.today}
      currencies={view.currencies}
      loadingAccount={view.loadingAccount}
      statements={view.statements}
      errors={view.errors}
      failure={view.failure}
      customers={customers.options}
      customersLoading={customers.loading}
      customersError={customers.error}
      onCustomerSearch={customers.search}
      onCustomer={(id) => {
        const customer = customers.pick(id);
        if (customer) entryForm.send({ type: 'user.customer', customer });
      }}
      onField={(field, value) => entryForm.send({ type: 'user.field', field, value })}
      onStatement={(statementId, checked) => entryForm.send({ type: 'user.statement', statementId, checked })}
      onSubmit={() => entryForm.send({ type: 'user.submit' })}
      onCancel={() => entryForm.send({ type: 'user.cancel' })}
    />
  );
}

function ReverseDialog({ reverse }: { reverse: ActorRefFrom<typeof ledgerReverseMachine> }) {
  const view = useSelector(reverse, ledgerReverseView);
  return (
    <ReverseEntryDialog
      visible={view.open}
      busy={view.busy}
      entry={view.entry}
      reason={view.reason}
      reasonError={view.reasonError}
      failure={view.failure}
      onReason={(value) => reverse.send({ type: 'user.reason', value })}
      onConfirm={() => reverse.send({ type: 'user.confirm' })}
      onClose={() => reverse.send({ type: 'user.close' })}
    />
  );
}
