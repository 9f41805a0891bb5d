// Subscriptions → Provider Billing: what the provider bills the reseller, read live. A card per
// currency with the amount due, the invoices newest first, and one invoice's lines in a dialog,
// each service line linked to its terminal in the inventory (or marked as not in it). Read-only.
// Renders props and calls callbacks; the flags come from the providerBilling machine.
import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { Dialog } from 'primereact/dialog';
import { Message } from 'primereact/message';
import { Skeleton } from 'primereact/skeleton';
import { Tag } from 'primereact/tag';
import { PAGE_TITLES } from '../../domain/navigation';
import {
  PROVIDER_BILLING_TEXTS as T,
  invoiceStatusLabel,
  type ProviderBillingWire,
  type ProviderInvoiceLineWire,
  type ProviderInvoiceSummaryWire,
  type ProviderInvoiceWire,
} from '../../domain/provider-billing';
import { DASH } from '../common/format';
import { ErrorCard } from '../common/ErrorCard';
import { useColumnFolding } from '../common/useColumnFolding';
import { NavLink } from '../common/NavLink';
import { PageHeader } from '../common/PageHeader';
import { StatCard } from '../common/StatCard';
import { calendarDay } from '../terminals/format';
import { money } from './format';
import './provider-billing.css';

export interface ProviderBillingViewProps {
  /** Whose bill the page reads (absent: the portal has one provider account, and nothing to choose). */
  accountPicker?: ReactNode;
  /** null until the first answer. */
  billing: ProviderBillingWire | null;
  /** The first load (or Try Again): skeletons. */
  loading: boolean;
  /** Refresh runs: the data stays, Refresh is disabled. */
  refreshing: boolean;
  /** The load failed: the error card with Try Again instead of the page. */
  error: string | null;
  /** The last refresh failed: the data stays, with this beside it. */
  refreshError: string | null;
  /** The invoice dialog is open (for `invoiceId`). */
  invoiceOpen: boolean;
  invoiceId: string | null;
  /** The invoice's lines; null while they load or when they could not be loaded. */
  invoice: ProviderInvoiceWire | null;
  invoiceLoading: boolean;
  invoiceError: string | null;
  /** Where a service line's terminal is listed (the terminals page searched for the line). */
  terminalUrl(serviceLineNumber: string): string;
  onRetry(): void;
  onRefresh(): void;
  onOpenInvoice(invoiceId: string): void;
  onRetryInvoice(): void;
  onCloseInvoice(): void;
  onNavigate(url: string): void;
}

const STATUS_SEVERITY: Record<string, 'success' | 'info' | 'warning' | 'danger' | 'secondary'> = {
  Paid: 'success',
  Outstanding: 'info',
  DueSoon: 'warning',
  Overdue: 'danger',
  Cancelled: 'secondary',
};

function StatusTag({ status }: { status: string }) {
  return <Tag value={invoiceStatusLabel(status)} severity={STATUS_SEVERITY[status] ?? 'secondary'} rounded className="billing-nowrap" />;
}

function period(line: ProviderInvoiceLineWire): string {
  if (!line.periodStart && !line.periodEnd) return DASH;
  return `${calendarDay(line.periodStart)} – ${calendarDay(line.periodEnd)}`;
}

function Balances({ billing, loading }: Pick<ProviderBillingViewProps, 'billing' | 'loading'>) {
  if (!billing || loading) {
    return (
      <div className="stat-grid" role="group" aria-label="Balances">
        <StatCard title={T.amountDue} icon="pi pi-wallet" loading value={null} />
      </div>
    );
  }
  return (
    <div className="stat-grid" role="group" aria-label="Balances">
      {billing.balances.length === 0 ? (
        <StatCard title={T.amountDue} icon="pi pi-wallet" loading={false} value={DASH} />
      ) : (
        billing.balances.map((b) => (
          <StatCard key={b.currency} title={`${T.amountDue} (${b.currency})`} icon="pi pi-wallet" loading={false} value={money(b.dueAmount, b.currency)} />
        ))
      )}
    </div>
  );
}

/** Rows of skeleton, named for what loads (the page's invoices, or the dialog's invoice lines). */
function TableSkeleton({ label }: { label: string }) {
  return (
    <div className="billing-skeleton" role="status" aria-label={label}>
      {[0, 1, 2, 3, 4].map((row) => (
        <Skeleton key={row} height="2rem" />
      ))}
    </div>
  );
}

function Invoices({ billing, refreshing, onOpenInvoice }: Pick<ProviderBillingViewProps, 'refreshing' | 'onOpenInvoice'> & { billing: ProviderBillingWire }) {
  const folding = useColumnFolding<ProviderInvoiceSummaryWire>({ rowKey: (i) => i.invoiceId, rowName: (i) => i.invoiceId });
  return (
    <DataTable
      value={billing.invoices}
      dataKey="invoiceId"
      loading={refreshing}
      paginator={billing.invoices.length > 12}
      rows={12}
      emptyMessage={T.noInvoices}
      pt={{ table: { 'aria-label': T.invoicesTable } }}
      {...folding.table([
        { priority: 'fold', header: 'Date', body: (i) => <span className="billing-nowrap">{calendarDay(i.invoiceDate)}</span> },
        { priority: 'always', header: 'Invoice', body: (i) => <span className="cell-mono billing-nowrap">{i.invoiceId}</span> },
        { priority: 'fold', header: 'Description', body: (i) => i.description ?? DASH },
        { priority: 'fold', header: 'Amount', align: 'right', className: 'billing-number', body: (i) => money(i.amount, i.currency) },
        { priority: 'fold', header: 'Due Amount', align: 'right', className: 'billing-number', body: (i) => money(i.dueAmount, i.currency) },
        { priority: 'fold', header: 'Due Date', body: (i) => <span className="billing-nowrap">{calendarDay(i.dueDate)}</span> },
        { priority: 'always', header: 'Status', body: (i) => <StatusTag status={i.status} /> },
        {
          priority: 'always',
          header: 'Actions',
          body: (i) => (
            <Button
              type="button"
              label={T.view}
              icon="pi pi-eye"
              size="small"
              outlined
              aria-label={`${T.view} ${i.invoiceId}`}
              onClick={() => onOpenInvoice(i.invoiceId)}
            />
          ),
        },
      ])}
    />
  );
}

function ServiceLines({ line, terminalUrl, onNavigate }: { line: ProviderInvoiceLineWire } & Pick<ProviderBillingViewProps, 'terminalUrl' | 'onNavigate'>) {
  if (line.serviceLines.length === 0) return <>{DASH}</>;
  return (
    <ul className="billing-service-lines">
      {line.serviceLines.map((sl) => (
        <li key={sl.serviceLineNumber}>
          {sl.userTerminalId !== null ? (
            <NavLink url={terminalUrl(sl.serviceLineNumber)} onNavigate={onNavigate} title={`Terminal ${sl.userTerminalId}`}>
              {sl.serviceLineNumber}
            </NavLink>
          ) : (
            <span className="billing-unknown-line">
              <span className="cell-mono">{sl.serviceLineNumber}</span>
              <span>
                <i className="pi pi-exclamation-triangle" aria-hidden="true" /> {T.notInInventory}
              </span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

function InvoiceLines({ invoice, terminalUrl, onNavigate }: { invoice: ProviderInvoiceWire } & Pick<ProviderBillingViewProps, 'terminalUrl' | 'onNavigate'>) {
  const m = (n: number) => money(n, invoice.currency);
  return (
    <>
      <dl className="billing-facts">
        <div>
          <dt>Invoice Date</dt>
          <dd>{calendarDay(invoice.invoiceDate)}</dd>
        </div>
        <div>
          <dt>Due Date</dt>
          <dd>{calendarDay(invoice.dueDate)}</dd>
        </div>
        <div>
          <dt>Due Amount</dt>
          <dd>{m(invoice.dueAmount)}</dd>
        </div>
        <div>
          <dt>Paid Amount</dt>
          <dd>{m(invoice.paidAmount)}</dd>
        </div>
      </dl>
      {invoice.unmatched.lines > 0 && <Message severity="warn" className="billing-unmatched" text={T.unmatched(invoice.unmatched.lines, m(invoice.unmatched.amount))} />}
      <DataTable
        value={invoice.lines}
        paginator={invoice.lines.length > 10}
        rows={10}
        emptyMessage={T.noLines}
        pt={{ table: { 'aria-label': T.linesTable } }}
      >
        <Column header="Product" body={(l: ProviderInvoiceLineWire) => <span className="cell-mono">{l.productReferenceId ?? DASH}</span>} />
        <Column header="Description" body={(l: ProviderInvoiceLineWire) => l.description ?? DASH} />
        <Column header="Period" body={period} />
        <Column header="Quantity" align="right" className="billing-number" body={(l: ProviderInvoiceLineWire) => l.quantity.toLocaleString('en-US')} />
        <Column header="Unit Price" align="right" className="billing-number" body={(l: ProviderInvoiceLineWire) => m(l.unitPrice)} />
        <Column header="Tax" align="right" className="billing-number" body={(l: ProviderInvoiceLineWire) => m(l.taxAmount)} />
        <Column header="Subtotal" align="right" className="billing-number" body={(l: ProviderInvoiceLineWire) => m(l.subTotal)} />
        <Column header="Service Lines" body={(l: ProviderInvoiceLineWire) => <ServiceLines line={l} terminalUrl={terminalUrl} onNavigate={onNavigate} />} />
      </DataTable>
    </>
  );
}

function InvoiceDialog(props: ProviderBillingViewProps) {
  const { invoiceId, invoice } = props;
  // Newer and Older step through the invoices of the table without closing the dialog.
  const invoices = props.billing?.invoices ?? [];
  const at = invoices.findIndex((i) => i.invoiceId === invoiceId);
  const newer = at > 0 ? invoices[at - 1]! : null;
  const older = at >= 0 && at < invoices.length - 1 ? invoices[at + 1]! : null;
  return (
    <Dialog
      header={invoiceId ? T.invoiceHeader(invoiceId) : ''}
      visible={props.invoiceOpen}
      onHide={props.onCloseInvoice}
      className="billing-dialog"
      modal
      blockScroll
      footer={
        <div className="billing-dialog-footer">
          {newer && <Button type="button" label={T.newer} icon="pi pi-angle-left" outlined onClick={() => props.onOpenInvoice(newer.invoiceId)} />}
          {older && <Button type="button" label={T.older} icon="pi pi-angle-right" iconPos="right" outlined className="billing-older" onClick={() => props.onOpenInvoice(older.invoiceId)} />}
        </div>
      }
    >
      {props.invoiceError !== null ? (
        <ErrorCard title={T.invoiceFailedTitle} message={props.invoiceError} onRetry={props.onRetryInvoice} headingLevel={3} />
      ) : props.invoiceLoading || invoice === null ? (
        <TableSkeleton label="Loading invoice lines" />
      ) : (
        <InvoiceLines invoice={invoice} terminalUrl={props.terminalUrl} onNavigate={props.onNavigate} />
      )}
    </Dialog>
  );
}

export function ProviderBillingView(props: ProviderBillingViewProps) {
  const meta = PAGE_TITLES['/subscription/provider-billing'];
  const { billing } = props;
  return (
    <div className="page provider-billing-page">
      <PageHeader
        title={meta.title}
        subtitle={T.subtitle}
        breadcrumb={meta.breadcrumb}
        onNavigate={props.onNavigate}
        actions={
          <>
            {props.accountPicker && <div className="account-picker">{props.accountPicker}</div>}
            <Button type="button" label="Refresh" icon="pi pi-refresh" outlined disabled={props.loading || props.refreshing || props.error !== null} onClick={props.onRefresh} />
          </>
        }
      />
      {props.error !== null ? (
        <ErrorCard title={T.loadFailedTitle} message={props.error} onRetry={props.onRetry} />
      ) : (
        <>
          {props.refreshError !== null && <Message severity="warn" className="billing-refresh-error" text={`${T.refreshFailed}${props.refreshError}`} />}
          <Balances billing={billing} loading={props.loading} />
          <section className="list-card" aria-label={T.invoicesTable} aria-busy={props.loading || props.refreshing || undefined}>
            {billing && !props.loading ? <Invoices billing={billing} refreshing={props.refreshing} onOpenInvoice={props.onOpenInvoice} /> : <TableSkeleton label="Loading invoices" />}
          </section>
          <InvoiceDialog {...props} />
        </>
      )}
    </div>
  );
}
