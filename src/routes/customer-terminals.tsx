// A customer's terminals and their usage by month (/customer/terminals/{customerUuid}): the page's
// customerUsage actor, the Assign Terminals dialog, and the Terminal Details dialog of a row. The
// month and the open terminal live in the URL (`?month=2025-3&terminal=<id>`), so a reload or a
// link keeps them; the machine follows the URL. With more than one provider account the table has
// an Account filter (`&account=2`, read by the usage load and the export) and an Account column.
import { useCallback, useEffect, useRef, useState } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import type { TerminalUsageRecord } from '../domain/customer-terminals';
import { monthRange } from '../domain/terminals';
import { LIST_EXPORT_FAILED, listExportFileName } from '../domain/list-exports';
import { customerUsageMachine, usageRequestOf } from '../machines/customer-usage';
import { useCsvExport } from '../ui/common/ExportButton';
import { CustomerTerminalsView } from '../ui/customer-terminals/CustomerTerminalsView';
import { useAccountChoices } from './account-refs';
import { ActivationWizardPanel } from './activation-wizard-panel';
import { CustomerAccountSection } from './customer-account';
import { useAssignTerminalsDialog } from './assign-terminals-dialog';
import { CustomerStatementsSection } from './statements';
import { CustomerMembersSection } from './team';
import { outcome } from './outcome';
import { validateCustomerTerminalsSearch, type CustomerTerminalsSearch } from './search-params';
import { useAppServices, useCan, usePageActor } from './services';
import { placeholderTerminal, TerminalDetailPanel } from './terminal-detail-panel';

const routeApi = getRouteApi('/app/customer/terminals/$customerUuid');

export function CustomerTerminalsRoute() {
  const { customerUuid } = routeApi.useParams();
  const uuid = customerUuid.trim();
  // A new customer is a new page: its own actor from the start.
  return uuid ? <CustomerTerminalsPage key={uuid} customerUuid={uuid} /> : <MissingCustomer />;
}

/** Spec 2: without a customer UUID the page is only the error card. */
function MissingCustomer() {
  const router = useRouter();
  const none = () => {};
  return (
    <CustomerTerminalsView
      customerUuid={null}
      customer={null}
      customerLoading={false}
      customerError={null}
      months={[]}
      month=""
      records={[]}
      pagination={null}
      summary={null}
      daily={[]}
      usageLoading={false}
      refreshing={false}
      search=""
      status="all"
      sort={null}
      unassign={null}
      onMonth={none}
      onSearch={none}
      onPage={none}
      onStatus={none}
      onSort={none}
      onRefresh={none}
      onAssign={none}
      onOpen={none}
      onUnassign={none}
      onConfirmUnassign={none}
      onCancelUnassign={none}
      onRetry={none}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}

function CustomerTerminalsPage({ customerUuid }: { customerUuid: string }) {
  const { api } = useAppServices();
  const router = useRouter();
  const search = routeApi.useSearch();

  const navigateTo = (next: CustomerTerminalsSearch) =>
    void router.navigate({
      to: '/customer/terminals/$customerUuid',
      params: { customerUuid },
      search: validateCustomerTerminalsSearch(next as Record<string, unknown>),
    });
  const currentSearch = () => validateCustomerTerminalsSearch(router.state.location.search as Record<string, unknown>);
  const account = search.account ?? null;
  const accounts = useAccountChoices();
  /** The Account filter of the address, as the usage page and its export take it. */
  const accountQuery = () => {
    const shown = currentSearch().account;
    return shown !== undefined ? { accountId: shown } : {};
  };

  const page = usePageActor(
    customerUsageMachine.provide({
      actors: {
        loadCustomer: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.customers.get(input, signal);
            return result.ok
              ? { ok: true as const, data: { uuid: result.data.uuid, name: result.data.name, company: result.data.company, email: result.data.email } }
              : result;
          }),
        ),
        loadUsage: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const { start, end } = monthRange(input.year, input.month);
            const { customerUuid: uuid, ...query } = input;
            const [page, daily] = await Promise.all([
              api.customerTerminals.customerUsagePage(uuid, { ...query, ...accountQuery() }, signal),
              api.customerTerminals.customerDailyUsage(uuid, { startDate: start, endDate: end }, signal),
            ]);
            if (!page.ok) return page;
            // The chart is worth losing before the table: a failed daily call draws no bars.
            return { ok: true as const, data: { page: page.data, daily: daily.ok ? daily.data : [] } };
          }),
        ),
        unassignTerminal: fromPromise(({ input, signal }) =>
          outcome(() => api.customerTerminals.unassignTerminal(input.customerUuid, input.serviceLineNumber, signal)),
        ),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'customer-terminals' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'customer-terminals' }),
        terminalsChanged: () => {},
        // Spec 8: usage failures read as an empty list with no error shown.
        logUsageFailure: (_, { reason }) => console.warn('Failed to load customer usage:', reason),
      },
    }),
    { input: { customerUuid, ...(search.month ? { month: search.month } : {}) } },
  );

  // The month, search, status and sort the table shows, read when the button is pressed.
  const csv = useCsvExport(
    () => {
      const { customerUuid: uuid, ...query } = usageRequestOf(page.getSnapshot().context);
      return api.customerTerminals.exportUsageCsv(uuid, { ...query, ...accountQuery() });
    },
    listExportFileName('customer-usage', new Date()),
    LIST_EXPORT_FAILED['customer-usage'],
  );

  const months = useSelector(page, (s) => s.context.months);
  const month = useSelector(page, (s) => s.context.month);
  // The URL is the month's source of truth: back, forward and links move the machine.
  const wanted = search.month ?? months[0]!.value;
  useEffect(() => {
    if (page.getSnapshot().context.month !== wanted) page.send({ type: 'user.selectMonth', value: wanted });
  }, [page, wanted]);

  // The account: when the address changes it, the table loads again from its first page (the
  // machine's own filter change does both; its load reads the account from the address).
  const loadedAccount = useRef(account);
  useEffect(() => {
    if (loadedAccount.current === account) return;
    loadedAccount.current = account;
    page.send({ type: 'user.status', status: page.getSnapshot().context.status });
  }, [page, account]);

  const assign = useAssignTerminalsDialog({ onAssigned: () => page.send({ type: 'terminals.changed' }) });

  const customer = useSelector(page, (s) => s.context.customer);
  // "Add Terminal": the activation wizard for this customer, for those who manage the lifecycle.
  const canActivate = useCan('lifecycle:manage');
  const canAssign = useCan('terminals:manage');
  const readsBilling = useCan('billing:read');
  const managesCustomers = useCan('customers:manage');
  const [adding, setAdding] = useState(false);
  const closeWizard = useCallback(() => setAdding(false), []);
  const customerLoading = useSelector(page, (s) => s.hasTag('loadingCustomer'));
  const customerError = useSelector(page, (s) => (s.matches({ customer: 'failed' }) ? s.context.customerError : null));
  const records = useSelector(page, (s) => s.context.records);
  const daily = useSelector(page, (s) => s.context.daily);
  const usageLoading = useSelector(page, (s) => s.hasTag('loadingUsage'));
  const refreshing = useSelector(page, (s) => s.hasTag('refreshingUsage'));
  const tableSearch = useSelector(page, (s) => s.context.searchInput);
  const pagination = useSelector(page, (s) => s.context.pagination);
  const summary = useSelector(page, (s) => s.context.summary);
  const status = useSelector(page, (s) => s.context.status);
  const sort = useSelector(page, (s) => s.context.sort);
  const unassignTarget = useSelector(page, (s) => (s.matches({ unassign: 'idle' }) ? null : s.context.unassignTarget));
  const unassignBusy = useSelector(page, (s) => s.hasTag('busy'));

  const openId = search.terminal;
  const openRecord = openId === undefined ? undefined : records.find((r) => r.terminalId === openId);
  const basic =
    openId === undefined
      ? null
      : placeholderTerminal({
          userTerminalId: openId,
          ...(openRecord ? basicOf(openRecord) : {}),
          ...(customer ? { assignedTo: customer.uuid, assignedToCustomer: customer.name } : {}),
        });

  return (
    <>
      <CustomerTerminalsView
        customerUuid={customerUuid}
        customer={customer}
        customerLoading={customerLoading}
        customerError={customerError}
        months={months}
        month={month}
        records={records}
        pagination={pagination}
        summary={summary}
        daily={daily}
        usageLoading={usageLoading}
        refreshing={refreshing}
        search={tableSearch}
        status={status}
        sort={sort}
        unassign={unassignTarget ? { serviceLineNumber: unassignTarget, busy: unassignBusy } : null}
        onMonth={(value) => navigateTo({ ...currentSearch(), month: value })}
        onSearch={(value) => page.send({ type: 'user.searchInput', value })}
        onPage={(value) => page.send({ type: 'user.page', page: value })}
        onStatus={(value) => page.send({ type: 'user.status', status: value })}
        {...(accounts ? { accounts } : {})}
        account={account}
        onAccount={(id) => navigateTo({ ...currentSearch(), account: id ?? undefined })}
        onSort={(value) => page.send({ type: 'user.sort', sort: value })}
        onRefresh={() => page.send({ type: 'user.refresh' })}
        exporting={csv.exporting}
        onExport={() => void csv.exportCsv()}
        canAssign={canAssign}
        onAssign={() => customer && assign.open(customer)}
        onOpen={(record) => navigateTo({ ...currentSearch(), terminal: record.terminalId })}
        onUnassign={(serviceLineNumber) => page.send({ type: 'user.unassign', serviceLineNumber })}
        onConfirmUnassign={() => page.send({ type: 'user.confirm' })}
        onCancelUnassign={() => page.send({ type: 'user.cancel' })}
        onRetry={() => page.send({ type: 'user.retry' })}
        onNavigate={(url) => void router.navigate({ href: url })}
        {...(canActivate ? { onAddTerminal: () => setAdding(true) } : {})}
      />
      {/* The customer's statements and account (what they owe, what they paid, their terms), once the customer is known. */}
      {customer && readsBilling && <CustomerStatementsSection customerUuid={customerUuid} />}
      {customer && readsBilling && <CustomerAccountSection customerUuid={customerUuid} />}
      {/* The customer organisation's people: its own login, its members and their invitations. */}
      {customer && <CustomerMembersSection customerUuid={customerUuid} canManage={managesCustomers} />}
      {assign.dialog}
      {adding && customer && (
        <ActivationWizardPanel
          customer={{ uuid: customer.uuid, name: customer.name }}
          onClosed={closeWizard}
          onActivated={() => page.send({ type: 'terminals.changed' })}
        />
      )}
      {basic && (
        <TerminalDetailPanel
          key={basic.userTerminalId}
          terminal={basic}
          initialTab={undefined}
          onClose={() => navigateTo({ ...currentSearch(), terminal: undefined })}
          onChanged={() => page.send({ type: 'user.refresh' })}
        />
      )}
    </>
  );
}

/** What a usage row already tells about its terminal, shown while the details load. */
function basicOf(record: TerminalUsageRecord) {
  return {
    serviceLineNumber: record.serviceLineNumber,
    active: record.status === 'Active',
    terminalType: record.terminalType,
    plan: record.plan,
    location: record.location,
  };
}
