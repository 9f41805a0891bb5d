// Payments → Ledger: payments, credit notes, refunds and reversals of every customer, newest first
// and paged, by kind (statements too, on asking), each amount as money in or out; Reverse… on
// the entries that can be taken back, for those who manage billing. Renders props and calls
// callbacks; a reversal's steps are the ledger reverse machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import type { Pagination } from '../../../domain/customers';
import { LEDGER_KIND_LABELS, PAYMENT_METHOD_LABELS, POSTED_KINDS, type LedgerEntryWire } from '../../../domain/ledger';
import { ErrorCard } from '../../common/ErrorCard';
import { DASH } from '../../common/format';
import { ListPaginator } from '../../common/ListPaginator';
import { NavLink } from '../../common/NavLink';
import { useColumnFolding } from '../../common/useColumnFolding';
import { LabelledSelect } from '../../requests/LabelledSelect';
import { EntryAmount, PAYMENTS_TEXTS as T, customerUrl, entryName, kindText, statementsPaid, type LedgerKindFilter } from './parts';

export const KIND_FILTER_OPTIONS: readonly { value: LedgerKindFilter; label: string }[] = [
  { value: 'all', label: 'Payments, credit notes, refunds and reversals' },
  { value: 'payment', label: LEDGER_KIND_LABELS.payment },
  { value: 'credit_note', label: LEDGER_KIND_LABELS.credit_note },
  { value: 'refund', label: LEDGER_KIND_LABELS.refund },
  { value: 'reversal', label: LEDGER_KIND_LABELS.reversal },
  { value: 'charge', label: 'Statements charged' },
];

/** Payments, credit notes and refunds not yet reversed (the ledger reverse machine's rule too). */
const reversible = (entry: LedgerEntryWire) => (POSTED_KINDS as readonly string[]).includes(entry.kind) && entry.reversedById === null;

export interface LedgerSectionProps {
  entries: readonly LedgerEntryWire[];
  pagination: Pagination | null;
  kind: LedgerKindFilter;
  loading: boolean;
  error: string | null;
  /** Reverse… is offered (billing:manage). */
  canManage: boolean;
  busy: boolean;
  onKind(kind: LedgerKindFilter): void;
  onPage(page: number): void;
  onRetry(): void;
  onReverse(entry: LedgerEntryWire): void;
  onNavigate(url: string): void;
}

export function LedgerSection(props: LedgerSectionProps) {
  const id = useId();
  const { pagination } = props;
  const folding = useColumnFolding<LedgerEntryWire>({ rowKey: (entry) => entry.id, rowName: entryName });
  return (
    <section className="list-card" aria-labelledby={`${id}-title`}>
      <div className="payments-section-head">
        <h2 id={`${id}-title`}>{T.ledgerTitle}</h2>
        <LabelledSelect label={T.kindFilter} value={props.kind} options={KIND_FILTER_OPTIONS} onChange={props.onKind} />
      </div>
      {props.error ? (
        <ErrorCard title={T.ledgerFailed} message={props.error} onRetry={props.onRetry} headingLevel={3} />
      ) : pagination === null ? (
        <p role="status">{T.ledgerLoading}</p>
      ) : (
        <>
          <DataTable
            value={[...props.entries]}
            dataKey="id"
            loading={props.loading}
            emptyMessage={T.noEntries}
            cellMemo={false}
            pt={{ table: { 'aria-label': T.ledgerTable } }}
            {...folding.table([
              { priority: 'always', header: 'Date', body: (entry) => <span className="price-nowrap">{entry.occurredOn}</span> },
              {
                priority: 'always',
                header: 'Customer',
                body: (entry) => (
                  <NavLink url={customerUrl(entry.customerId)} onNavigate={props.onNavigate}>
                    {entry.customerName}
                  </NavLink>
                ),
              },
              {
                priority: 'always',
                header: 'Kind',
                body: (entry) => (
                  <span>
                    {kindText(entry)}
                    {entry.method && (
                      <>
                        <br />
                        <small className="cell-secondary">{PAYMENT_METHOD_LABELS[entry.method]}</small>
                      </>
                    )}
                  </span>
                ),
              },
              { priority: 'always', header: 'Amount', body: (entry) => <EntryAmount entry={entry} />, className: 'price-number' },
              { priority: 'fold', header: 'Reference', body: (entry) => entry.reference ?? DASH },
              { priority: 'fold', header: 'Statements paid', body: (entry) => statementsPaid(entry) },
              { priority: 'fold', header: 'By', body: (entry) => entry.createdBy ?? (entry.bankLineId ? 'Bank import' : DASH) },
              props.canManage && {
                priority: 'always',
                header: 'Actions',
                body: (entry) =>
                  reversible(entry) ? (
                    <Button type="button" label={T.reverse} size="small" outlined severity="danger" aria-label={`Reverse ${entryName(entry)}`} disabled={props.busy} onClick={() => props.onReverse(entry)} />
                  ) : null,
              },
            ])}
          />
          <ListPaginator pagination={pagination} onPage={props.onPage} />
        </>
      )}
    </section>
  );
}
