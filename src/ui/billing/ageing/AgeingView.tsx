// Ageing (/billing/ageing): what customers owe by how overdue it is — the totals per currency,
// then a row per customer and currency with the buckets, total, credit, oldest due date and the
// customer's dunning tags; search and a currency filter; Export CSV of the same choice; and below,
// the dunning policy the page composes. Renders props and calls callbacks.
import type { ReactNode } from 'react';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import type { AgeingRowWire, AgeingWire } from '../../../domain/ledger';
import { formatMoney } from '../../../domain/money';
import { PAGE_TITLES } from '../../../domain/navigation';
import { ErrorCard } from '../../common/ErrorCard';
import { ExportButton } from '../../common/ExportButton';
import { DASH } from '../../common/format';
import { NavLink } from '../../common/NavLink';
import { PageHeader } from '../../common/PageHeader';
import { SearchFilterBar } from '../../common/SearchFilterBar';
import { useColumnFolding } from '../../common/useColumnFolding';
import { AGEING_TEXTS as T, BUCKET_COLUMNS, CustomerTags } from './parts';
import './ageing.css';

export const AGEING_SEARCH_MAX_LENGTH = 100;

type Total = AgeingWire['totals'][number];

export interface AgeingViewProps {
  asOf: string | null;
  totals: readonly Total[] | null;
  rows: readonly AgeingRowWire[];
  /** Rows have been read at least once. */
  loaded: boolean;
  loading: boolean;
  error: string | null;
  /** The search box as typed. */
  search: string;
  /** 'all' or a currency code. */
  currency: string;
  /** The currencies the filter offers. */
  currencies: readonly string[];
  exporting: boolean;
  onSearch(text: string): void;
  onCurrency(currency: string): void;
  onRetry(): void;
  onExport(): void;
  onNavigate(url: string): void;
  /** The dunning policy panel, under the table. */
  children?: ReactNode;
}

/** A customer owes in each currency apart: the row is the pair. */
type Row = AgeingRowWire & { key: string };
const rowKey = (row: AgeingRowWire) => `${row.customerId}/${row.currency}`;
const numberColumn = 'price-number';

export function AgeingView(props: AgeingViewProps) {
  const meta = PAGE_TITLES['/billing/ageing'];
  const filtered = props.search.trim() !== '' || props.currency !== 'all';
  const folding = useColumnFolding<Row>({ rowKey, rowName: (row) => `${row.customerName} in ${row.currency}` });
  const money = (minor: number, currency: string) => formatMoney(minor, currency);
  return (
    <div className="page ageing-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle={props.asOf ? T.asOf(props.asOf) : undefined}
        actions={<ExportButton exporting={props.exporting} disabled={!props.loaded} onExport={props.onExport} />}
        onNavigate={props.onNavigate}
      />

      {props.totals && props.totals.length > 0 && (
        <section className="list-card" aria-label={T.totalsTable}>
          <DataTable value={[...props.totals]} dataKey="currency" pt={{ table: { 'aria-label': T.totalsTable } }}>
            {[
              { key: 'currency', header: 'Currency', body: (t: Total) => <strong>{t.currency}</strong> },
              ...BUCKET_COLUMNS.map(({ bucket, header }) => ({ key: bucket, header, body: (t: Total) => money(t[bucket], t.currency), className: numberColumn })),
              { key: 'total', header: 'Total', body: (t: Total) => <strong>{money(t.totalMinor, t.currency)}</strong>, className: numberColumn },
              { key: 'customers', header: 'Customers', body: (t: Total) => t.customers, className: numberColumn },
            ].map(({ key, ...column }) => (
              <Column key={key} {...column} />
            ))}
          </DataTable>
        </section>
      )}

      <section className="list-card" aria-label={T.rowsTable}>
        <SearchFilterBar
          searchLabel={T.searchLabel}
          placeholder={T.searchPlaceholder}
          maxLength={AGEING_SEARCH_MAX_LENGTH}
          search={props.search}
          onSearch={props.onSearch}
          status={props.currency}
          statusLabel={T.currencyFilter}
          options={[{ value: 'all', label: T.allCurrencies }, ...props.currencies.map((c) => ({ value: c, label: c }))]}
          onStatus={props.onCurrency}
        />
        {props.error ? (
          <ErrorCard title={T.loadFailed} message={props.error} onRetry={props.onRetry} headingLevel={3} />
        ) : !props.loaded ? (
          <p role="status">{T.loading}</p>
        ) : (
          <DataTable
            value={props.rows.map((row) => ({ ...row, key: rowKey(row) }))}
            dataKey="key"
            loading={props.loading}
            emptyMessage={filtered ? T.noMatch : T.nothingOwed}
            pt={{ table: { 'aria-label': T.rowsTable } }}
            {...folding.table([
              {
                priority: 'always',
                header: 'Customer',
                body: (row) => (
                  <span>
                    <NavLink url={`/customer/terminals/${encodeURIComponent(row.customerId)}`} onNavigate={props.onNavigate}>
                      {row.customerName}
                    </NavLink>
                    <CustomerTags row={row} />
                  </span>
                ),
              },
              { priority: 'always', header: 'Currency', body: (row) => row.currency },
              ...BUCKET_COLUMNS.map(({ bucket, header }) => ({ priority: 'fold' as const, header, body: (row: Row) => money(row[bucket], row.currency), className: numberColumn })),
              { priority: 'always', header: 'Total', body: (row) => <strong>{money(row.totalMinor, row.currency)}</strong>, className: numberColumn },
              { priority: 'fold', header: 'Credit', body: (row) => (row.creditMinor > 0 ? money(row.creditMinor, row.currency) : DASH), className: numberColumn },
              { priority: 'fold', header: 'Oldest due', body: (row) => <span className="price-nowrap">{row.oldestDueOn ?? DASH}</span> },
            ])}
          />
        )}
      </section>

      {props.children}
    </div>
  );
}
