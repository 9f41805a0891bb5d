// Billing → Reconciliation: one cycle's provider cost beside what the customers were
// billed, and the leaks between them, a section per kind, each leak with the fixes it offers (or,
// once handled, who handled it, when and how). Administrators fix leaks and import the provider's
// invoices; everyone else reads. Renders props and calls callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Message } from 'primereact/message';
import { Tag } from 'primereact/tag';
import { FIX_LABELS, LEAK_KINDS, LEAK_LABELS, shiftCycle, type FixAction, type LeakKind, type LeakWire, type ReconciliationWire } from '../../../domain/billing';
import { formatMoney } from '../../../domain/money';
import { PAGE_TITLES } from '../../../domain/navigation';
import { ErrorCard } from '../../common/ErrorCard';
import { DASH, formatDateTime } from '../../common/format';
import { PageHeader } from '../../common/PageHeader';
import { useColumnFolding } from '../../common/useColumnFolding';
import { StatCard } from '../../common/StatCard';
import { LabelledSelect } from '../../requests/LabelledSelect';
import { AccountPicker } from '../../common/AccountPicker';
import type { ProviderAccountRef } from '../../../domain/provider-accounts';
import { LeakChart } from './LeakChart';
import { RECONCILIATION_TEXTS as T, cycleOptions, leakId, leakOrder } from './parts';
import './reconciliation.css';
import { monthLabel } from '../../../domain/my-area';

export interface ReconciliationViewProps {
  cycle: string;
  /** The cycle today is in: nothing later is offered. */
  current: string;
  /** null before the first answer. */
  board: ReconciliationWire | null;
  error: string | null;
  refreshing: boolean;
  /** Only those who manage billing fix leaks and import invoices; the others see no such buttons. */
  canChange: boolean;
  importing: boolean;
  /** A fix is under way: every fix button waits. */
  fixBusy: boolean;
  /** The fix under way, to say so on its button. */
  fixing: { leak: string; action: FixAction } | null;
  /** The last fix's refusal, beside its leak. */
  fixFailure: { leak: string; message: string } | null;
  onCycle(cycle: string): void;
  onImport(): void;
  onRetry(): void;
  onFix(leak: LeakWire, action: FixAction): void;
  onNavigate(url: string): void;
  /**
   * The provider accounts, given when the portal holds more than one: the board is one account's,
   * in its currency, and the picker says which (absent: no picker, as with one account).
   */
  accounts?: readonly ProviderAccountRef[];
  onAccount?(id: number): void;
}

function Totals({ board }: { board: ReconciliationWire }) {
  const money = (minor: number) => formatMoney(minor, board.currency);
  const open = board.byKind.reduce((sum, k) => sum + k.count, 0);
  return (
    <div className="stat-grid" role="group" aria-label="Totals">
      <StatCard title={T.providerCost} icon="pi pi-building" loading={false} value={money(board.totals.providerCostMinor)}>
        <small className="cell-secondary">{board.invoice ? T.invoice(board.invoice.invoiceId, board.invoice.status) : T.estimate}</small>
      </StatCard>
      <StatCard title={T.billed} icon="pi pi-file" loading={false} value={money(board.totals.billedMinor)}>
        <small className="cell-secondary">{T.statements(board.totals.statements)}</small>
      </StatCard>
      <StatCard
        title={T.margin}
        icon="pi pi-percentage"
        loading={false}
        value={money(board.totals.marginMinor)}
        {...(board.totals.marginMinor < 0 ? { valueClassName: 'amount-negative' } : {})}
      />
      <StatCard title={T.atStake} icon="pi pi-exclamation-triangle" loading={false} value={money(board.openLeakMinor)}>
        <small className="cell-secondary">{T.openLeaks(open)}</small>
      </StatCard>
    </div>
  );
}

function Resolution({ leak }: { leak: LeakWire }) {
  const r = leak.resolution!;
  return (
    <span className="cell-stack leak-resolution">
      <span>
        <Tag value={T.handled} severity="success" /> {FIX_LABELS[r.action]}
      </span>
      <small className="cell-secondary">{T.by(r.by, formatDateTime(r.at))}</small>
      {r.note && <small className="cell-secondary">{r.note}</small>}
    </span>
  );
}

function Fixes({ leak, props }: { leak: LeakWire; props: ReconciliationViewProps }) {
  if (leak.resolution) return <Resolution leak={leak} />;
  if (!props.canChange) return <>{DASH}</>;
  const id = leakId(leak);
  const failure = props.fixFailure?.leak === id ? props.fixFailure.message : null;
  const subject = leak.serviceLineNumber ?? leak.key;
  return (
    <span className="cell-stack">
      <span className="leak-fixes">
        {leak.fixes.map((action) => {
          const running = props.fixing?.leak === id && props.fixing.action === action;
          return (
            <Button
              key={action}
              type="button"
              size="small"
              outlined
              severity={action === 'cancel_line' ? 'danger' : undefined}
              label={running ? T.working : FIX_LABELS[action]}
              aria-label={`${FIX_LABELS[action]}: ${subject}`}
              disabled={props.fixBusy}
              onClick={() => props.onFix(leak, action)}
            />
          );
        })}
      </span>
      {failure && (
        <small className="p-error" role="alert">
          {failure}
        </small>
      )}
    </span>
  );
}

function KindSection({ kind, board, props }: { kind: LeakKind; board: ReconciliationWire; props: ReconciliationViewProps }) {
  const leaks = board.leaks.filter((leak) => leak.kind === kind).sort(leakOrder);
  const figures = board.byKind.find((k) => k.kind === kind) ?? { count: 0, amountMinor: 0 };
  const headingId = `leak-kind-${kind}`;
  const folding = useColumnFolding<LeakWire>({ rowKey: (l) => l.key, rowName: (l) => `${LEAK_LABELS[kind]} ${l.serviceLineNumber ?? l.key}` });
  return (
    <section className="list-card leak-section" aria-labelledby={headingId}>
      <div className="section-head">
        <h2 id={headingId}>{LEAK_LABELS[kind]}</h2>
        <span className="leak-kind-summary">{T.kindSummary(figures.count, formatMoney(figures.amountMinor, board.currency))}</span>
      </div>
      {leaks.length === 0 ? (
        <p className="cell-secondary">{T.noLeaks}</p>
      ) : (
        // cellMemo off: the fix buttons follow `fixBusy` and the failure, which are not in the row.
        <DataTable
          value={leaks}
          dataKey="key"
          cellMemo={false}
          rowClassName={(leak: LeakWire) => (leak.resolution ? 'leak-resolved' : '')}
          pt={{ table: { 'aria-label': LEAK_LABELS[kind] } }}
          {...folding.table([
            { priority: 'always', header: 'Service line', body: (l) => <span className="cell-mono">{l.serviceLineNumber ?? DASH}</span> },
            { priority: 'fold', header: 'Customer', body: (l) => l.customerName ?? DASH },
            { priority: 'fold', header: 'Detail', body: (l) => l.detail },
            { priority: 'always', header: 'Amount', align: 'right', className: 'leak-amount', body: (l) => formatMoney(l.amountMinor, board.currency) },
            { priority: 'always', header: 'Fix', body: (l) => <Fixes leak={l} props={props} /> },
          ])}
        />
      )}
    </section>
  );
}

function CycleBar(props: ReconciliationViewProps) {
  const later = props.cycle < props.current;
  const { accounts, onAccount } = props;
  return (
    <div className="cycle-bar">
      {accounts && onAccount && (
        <AccountPicker accounts={accounts} value={props.board?.account?.id ?? accounts[0]?.id ?? null} onChange={(id) => id !== null && onAccount(id)} />
      )}
      <LabelledSelect label={T.cycle} value={props.cycle} options={cycleOptions(props.current, props.cycle)} onChange={props.onCycle} />
      <Button type="button" icon="pi pi-chevron-left" label={T.previousCycle} text onClick={() => props.onCycle(shiftCycle(props.cycle, -1))} />
      {later && <Button type="button" icon="pi pi-chevron-right" iconPos="right" label={T.nextCycle} text onClick={() => props.onCycle(shiftCycle(props.cycle, 1))} />}
      {later && <Button type="button" label={T.currentCycle} text onClick={() => props.onCycle(props.current)} />}
    </div>
  );
}

export function ReconciliationView(props: ReconciliationViewProps) {
  const meta = PAGE_TITLES['/billing/reconciliation'];
  const { board } = props;
  return (
    <section className="page billing-reconciliation-page">
      <PageHeader
        title={meta.title}
        subtitle={props.canChange ? monthLabel(props.cycle) : `${monthLabel(props.cycle)} \u00b7 ${T.readOnly}`}
        breadcrumb={meta.breadcrumb}
        onNavigate={props.onNavigate}
        actions={
          props.canChange ? (
            <Button type="button" icon="pi pi-download" label={props.importing ? T.importing : T.importInvoices} disabled={props.importing} onClick={props.onImport} />
          ) : undefined
        }
      />
      <CycleBar {...props} />
      {props.error ? (
        <ErrorCard title={T.loadFailed} message={props.error} onRetry={props.onRetry} />
      ) : board === null ? (
        <p role="status">{T.loading}</p>
      ) : (
        <>
          {board.costEstimated && <Message severity="warn" text={T.estimateBanner} className="estimate-banner" />}
          <Totals board={board} />
          {board.otherCurrencies.length > 0 && <Message severity="info" text={T.otherCurrencies(board.currency, board.otherCurrencies)} className="estimate-banner" />}
          {board.leaks.length > 0 && <LeakChart board={board} />}
          {LEAK_KINDS.map((kind) => (
            <KindSection key={kind} kind={kind} board={board} props={props} />
          ))}
        </>
      )}
    </section>
  );
}
