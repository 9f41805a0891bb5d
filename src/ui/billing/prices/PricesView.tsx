// Billing → Prices: the provider's products with what the provider charges, the list
// price in effect and the margin between them; the history of the list; and the customers' own
// prices. Administrators add and withdraw prices and add and end customer prices; everyone else
// reads. Renders props and calls callbacks.
import { Button } from 'primereact/button';
import { DataTable } from 'primereact/datatable';
import { Tag } from 'primereact/tag';
import { formatPercent, type CustomerPriceWire, type PriceListWire, type PriceProductWire, type PriceWire } from '../../../domain/billing';
import { formatMoney } from '../../../domain/money';
import { PAGE_TITLES } from '../../../domain/navigation';
import { ErrorCard } from '../../common/ErrorCard';
import { DASH, formatDateTime } from '../../common/format';
import { PageHeader } from '../../common/PageHeader';
import { useColumnFolding } from '../../common/useColumnFolding';
import {
  CustomerPriceStatusTag,
  PRICES_TEXTS as T,
  PriceStatusTag,
  customerPriceStatus,
  figureCurrency,
  marginOf,
  marginText,
  priceRowStatus,
  productName,
  providerMinor,
} from './parts';
import './prices.css';

export interface PricesViewProps {
  /** null before the first answer. */
  list: PriceListWire | null;
  listError: string | null;
  refreshing: boolean;
  customerPrices: readonly CustomerPriceWire[] | null;
  customerPricesError: string | null;
  /** 'YYYY-MM-DD', UTC: which rows are upcoming, running or over. */
  today: string;
  /** Only those who manage billing change prices; the others see no change buttons. */
  canChange: boolean;
  /** A change is under way: the change buttons wait. */
  busy: boolean;
  onRetry(): void;
  onRetryCustomerPrices(): void;
  /** With the product of the row it was asked from, or none from the header. */
  onNewPrice(product: PriceProductWire | null): void;
  onWithdraw(price: PriceWire): void;
  onNewCustomerPrice(): void;
  onEndCustomerPrice(row: CustomerPriceWire): void;
  onNavigate(url: string): void;
}

const money = (minor: number | null, currency: string | null) => (minor === null || currency === null ? DASH : formatMoney(minor, currency));

function ProductCell({ product }: { product: PriceProductWire }) {
  return (
    <span className="cell-stack">
      <span className="cell-primary">{product.name}</span>
      <span className="cell-mono cell-secondary">{product.productReferenceId}</span>
    </span>
  );
}

function ListPriceCell({ product }: { product: PriceProductWire }) {
  const price = product.current;
  if (!price) return <Tag value={T.noPrice} severity="warning" className="price-missing" />;
  return (
    <dl className="price-figures">
      <dt>Monthly</dt>
      <dd>{formatMoney(price.monthlyMinor, price.currency)}</dd>
      <dt>Overage per GB</dt>
      <dd>{formatMoney(price.overagePerGbMinor, price.currency)}</dd>
      <dt>Top-up</dt>
      <dd>{formatMoney(price.topUpMinor, price.currency)}</dd>
    </dl>
  );
}

function MarginCell({ product }: { product: PriceProductWire }) {
  const margin = marginOf(product);
  if (margin === null) return <>{DASH}</>;
  if (margin === 'other-currency') return <span className="cell-secondary">{T.differentCurrency}</span>;
  return <span className={margin.amountMinor < 0 ? 'amount-negative' : 'amount'}>{marginText(margin)}</span>;
}

function Products({ props, list }: { props: PricesViewProps; list: PriceListWire }) {
  const folding = useColumnFolding<PriceProductWire>({ rowKey: (p) => p.productReferenceId, rowName: (p) => p.name });
  return (
    <DataTable
      value={list.products}
      dataKey="productReferenceId"
      cellMemo={false}
      loading={props.refreshing}
      emptyMessage={T.noProducts}
      pt={{ table: { 'aria-label': T.listTable } }}
      {...folding.table([
        { priority: 'always', header: 'Product', body: (p) => <ProductCell product={p} /> },
        { priority: 'fold', header: "Provider's monthly price", align: 'right', className: 'price-number', body: (p) => money(providerMinor(p), p.providerCurrency) },
        { priority: 'fold', header: 'List price in effect', body: (p) => <ListPriceCell product={p} /> },
        { priority: 'fold', header: <span title={T.marginHint}>Margin</span>, align: 'right', className: 'price-number', body: (p) => <MarginCell product={p} /> },
        props.canChange && {
          priority: 'always',
          header: 'Actions',
          body: (p) => (
            <Button
              type="button"
              icon="pi pi-plus"
              size="small"
              text
              label={T.newPrice}
              aria-label={`${T.newPrice}: ${p.name}`}
              disabled={props.busy}
              onClick={() => props.onNewPrice(p)}
            />
          ),
        },
      ])}
    />
  );
}

function History({ props, list }: { props: PricesViewProps; list: PriceListWire }) {
  const name = (price: PriceWire) => price.productName ?? productName(list.products, price.productReferenceId);
  const folding = useColumnFolding<PriceWire>({ rowKey: (p) => p.id, rowName: (p) => `${name(p)} from ${p.effectiveFrom}` });
  return (
    <DataTable
      value={list.history}
      dataKey="id"
      cellMemo={false}
      emptyMessage={T.noHistory}
      pt={{ table: { 'aria-label': T.historyTable } }}
      {...folding.table([
        { priority: 'always', header: 'Product', body: (p) => name(p) },
        { priority: 'fold', header: 'From', body: (p) => <span className="price-nowrap">{p.effectiveFrom}</span> },
        { priority: 'fold', header: 'Monthly', align: 'right', className: 'price-number', body: (p) => formatMoney(p.monthlyMinor, p.currency) },
        { priority: 'fold', header: 'Overage per GB', align: 'right', className: 'price-number', body: (p) => formatMoney(p.overagePerGbMinor, p.currency) },
        { priority: 'fold', header: 'Top-up', align: 'right', className: 'price-number', body: (p) => formatMoney(p.topUpMinor, p.currency) },
        { priority: 'always', header: 'Status', body: (p) => <PriceStatusTag status={priceRowStatus(p, props.today)} /> },
        { priority: 'fold', header: 'Note', body: (p) => p.note ?? DASH },
        {
          priority: 'fold',
          header: 'Added',
          body: (p) => (
            <span className="cell-stack">
              <span>{formatDateTime(p.createdAt)}</span>
              {p.createdBy && <small className="cell-secondary">{p.createdBy}</small>}
            </span>
          ),
        },
        props.canChange && {
          priority: 'always',
          header: 'Actions',
          body: (p) =>
            priceRowStatus(p, props.today) === 'upcoming' ? (
              <Button
                type="button"
                icon="pi pi-undo"
                size="small"
                text
                severity="danger"
                label={T.withdraw}
                aria-label={`${T.withdraw}: ${name(p)} from ${p.effectiveFrom}`}
                disabled={props.busy}
                onClick={() => props.onWithdraw(p)}
              />
            ) : null,
        },
      ])}
    />
  );
}

function CustomerPrices({ props, products }: { props: PricesViewProps; products: readonly PriceProductWire[] }) {
  const rows = props.customerPrices;
  const folding = useColumnFolding<CustomerPriceWire>({
    rowKey: (r) => r.id,
    rowName: (r) => `${r.customerName || r.customerId}, ${productName(products, r.productReferenceId)}`,
  });
  if (props.customerPricesError) return <ErrorCard title={T.customerLoadFailed} message={props.customerPricesError} onRetry={props.onRetryCustomerPrices} headingLevel={3} />;
  if (rows === null) return <p role="status">{T.loading}</p>;
  const figure = (row: CustomerPriceWire, minor: number | null) => {
    if (minor === null) return <span className="cell-secondary">{T.listPrice}</span>;
    const currency = figureCurrency(row, products);
    return currency ? formatMoney(minor, currency) : String(minor);
  };
  return (
    <DataTable
      value={[...rows]}
      dataKey="id"
      cellMemo={false}
      emptyMessage={T.noCustomerPrices}
      pt={{ table: { 'aria-label': T.customerTable } }}
      {...folding.table([
        { priority: 'always', header: 'Customer', body: (r) => <span className="cell-primary">{r.customerName || r.customerId}</span> },
        { priority: 'fold', header: 'Product', body: (r) => productName(products, r.productReferenceId) },
        { priority: 'fold', header: 'Discount', align: 'right', className: 'price-number', body: (r) => (r.discountBp === null ? DASH : formatPercent(r.discountBp)) },
        { priority: 'fold', header: 'Monthly', align: 'right', className: 'price-number', body: (r) => figure(r, r.monthlyMinor) },
        { priority: 'fold', header: 'Overage per GB', align: 'right', className: 'price-number', body: (r) => figure(r, r.overagePerGbMinor) },
        { priority: 'fold', header: 'Top-up', align: 'right', className: 'price-number', body: (r) => figure(r, r.topUpMinor) },
        { priority: 'fold', header: 'From', body: (r) => <span className="price-nowrap">{r.effectiveFrom}</span> },
        { priority: 'fold', header: 'Until', body: (r) => <span className="price-nowrap">{r.effectiveUntil ?? T.openEnded}</span> },
        { priority: 'always', header: 'Status', body: (r) => <CustomerPriceStatusTag status={customerPriceStatus(r, props.today)} /> },
        { priority: 'fold', header: 'Note', body: (r) => r.note ?? DASH },
        props.canChange && {
          priority: 'always',
          header: 'Actions',
          body: (r) =>
            customerPriceStatus(r, props.today) === 'running' ? (
              <Button
                type="button"
                icon="pi pi-stop-circle"
                size="small"
                text
                severity="danger"
                label={T.end}
                aria-label={`${T.end}: ${r.customerName}, ${productName(products, r.productReferenceId)}`}
                disabled={props.busy}
                onClick={() => props.onEndCustomerPrice(r)}
              />
            ) : null,
        },
      ])}
    />
  );
}

export function PricesView(props: PricesViewProps) {
  const meta = PAGE_TITLES['/billing/prices'];
  const { list } = props;
  return (
    <section className="page billing-prices-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        onNavigate={props.onNavigate}
        subtitle={props.canChange ? undefined : T.readOnly}
        actions={
          props.canChange ? (
            <Button type="button" icon="pi pi-plus" label={T.newPrice} disabled={props.busy || list === null} onClick={() => props.onNewPrice(null)} />
          ) : undefined
        }
      />
      {props.listError ? (
        <ErrorCard title={T.loadFailed} message={props.listError} onRetry={props.onRetry} />
      ) : list === null ? (
        <p role="status">{T.loading}</p>
      ) : (
        <>
          <section className="list-card" aria-labelledby="price-list-title">
            <h2 id="price-list-title">{T.listTitle}</h2>
            <Products props={props} list={list} />
          </section>
          <section className="list-card" aria-labelledby="price-history-title">
            <h2 id="price-history-title">{T.historyTitle}</h2>
            <History props={props} list={list} />
          </section>
        </>
      )}
      <section className="list-card" aria-labelledby="customer-prices-title">
        <div className="section-head">
          <h2 id="customer-prices-title">{T.customerTitle}</h2>
          {props.canChange && (
            <Button type="button" icon="pi pi-plus" label={T.newCustomerPrice} outlined disabled={props.busy || list === null} onClick={props.onNewCustomerPrice} />
          )}
        </div>
        <CustomerPrices props={props} products={list?.products ?? []} />
      </section>
    </section>
  );
}
