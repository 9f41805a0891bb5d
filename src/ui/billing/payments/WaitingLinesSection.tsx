// Payments → Waiting to be matched: the imported bank lines no rule could give a customer, newest
// first and paged, with Match… and Ignore… for those who manage billing. Renders props and calls
// callbacks; a decision's steps are the bank line decision machine's states.
import { useId } from 'react';
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import type { Pagination } from '../../../domain/customers';
import type { BankLineWire } from '../../../domain/ledger';
import { ErrorCard } from '../../common/ErrorCard';
import { DASH } from '../../common/format';
import { ListPaginator } from '../../common/ListPaginator';
import { useColumnFolding } from '../../common/useColumnFolding';
import { PAYMENTS_TEXTS as T, lineAmount, lineName } from './parts';

export interface WaitingLinesSectionProps {
  lines: readonly BankLineWire[];
  pagination: Pagination | null;
  loading: boolean;
  error: string | null;
  /** Match… and Ignore… are offered (billing:manage). */
  canManage: boolean;
  /** A decision is under way: the row buttons wait. */
  busy: boolean;
  onMatch(line: BankLineWire): void;
  onIgnore(line: BankLineWire): void;
  onPage(page: number): void;
  onRetry(): void;
}

export function WaitingLinesSection(props: WaitingLinesSectionProps) {
  const id = useId();
  const { pagination, busy } = props;
  const folding = useColumnFolding<BankLineWire>({ rowKey: (line) => line.id, rowName: lineName });
  return (
    <section className="list-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {T.waitingTitle}
        {pagination && pagination.total > 0 ? ` (${pagination.total})` : ''}
      </h2>
      {props.error ? (
        <ErrorCard title={T.waitingFailed} message={props.error} onRetry={props.onRetry} headingLevel={3} />
      ) : pagination === null ? (
        <p role="status">{T.waitingLoading}</p>
      ) : (
        <>
          <DataTable
            value={[...props.lines]}
            dataKey="id"
            loading={props.loading}
            emptyMessage={T.noneWaiting}
            // The row buttons read `busy` from these props: PrimeReact's cell memo would keep them enabled.
            cellMemo={false}
            pt={{ table: { 'aria-label': T.waitingTable } }}
            {...folding.table([
              { priority: 'always', header: 'Booked on', body: (line) => <span className="price-nowrap">{line.bookedOn}</span> },
              { priority: 'always', header: 'Payer', body: (line) => line.payer ?? DASH },
              { priority: 'fold', header: 'Remittance', body: (line) => line.remittance ?? DASH },
              { priority: 'always', header: 'Amount', body: (line) => lineAmount(line), className: 'price-number' },
              props.canManage && {
                priority: 'always',
                header: 'Actions',
                body: (line) => (
                  <span className="row-actions">
                    <Button type="button" label={T.match} size="small" aria-label={`Match ${lineName(line)}`} disabled={busy} onClick={() => props.onMatch(line)} />
                    <Button type="button" label={T.ignore} size="small" outlined severity="secondary" aria-label={`Ignore ${lineName(line)}`} disabled={busy} onClick={() => props.onIgnore(line)} />
                  </span>
                ),
              },
            ])}
          />
          <ListPaginator pagination={pagination} onPage={props.onPage} />
        </>
      )}
    </section>
  );
}
