// Billing → Prices (/billing/prices): the price list (a resource over GET
// /billing/prices) and the customers' own prices (GET /billing/customer-prices), with the price
// form machine (New price, Withdraw) and the customer price form machine (New customer price,
// End) whose effects are provided here: the API calls and the toasts. The customer picker of the
// customer price dialog is a list actor over the customers API, started while the dialog is open.
// Only those who manage billing change prices; the session knows their permissions.
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { cycleBounds, cycleOf, shiftCycle, type CustomerPriceWire, type PriceListWire, type PriceProductWire, type PriceWire } from '../domain/billing';
import { formatMinor } from '../domain/money';
import { CUSTOMER_PRICE_TEXTS, EMPTY_CUSTOMER_PRICE_FORM, customerPriceFormMachine, type CustomerPriceFormValues } from '../machines/customer-price-form';
import { createListMachine } from '../machines/list';
import { EMPTY_PRICE_FORM, PRICE_FORM_TEXTS, priceFormMachine, type PriceFormValues } from '../machines/price-form';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { CUSTOMER_SEARCH_TEXTS, CustomerPriceDialog } from '../ui/billing/prices/CustomerPriceDialog';
import { ConfirmPriceChange, PriceDialog } from '../ui/billing/prices/PriceDialog';
import { PRICES_TEXTS as T, figureCurrency, productName } from '../ui/billing/prices/parts';
import { PricesView } from '../ui/billing/prices/PricesView';
import { outcome } from './outcome';
import { useAppServices, useCan, usePageActor } from './services';

const priceListMachine = createResourceMachine<PriceListWire>('priceList');
const customerPricesMachine = createResourceMachine<CustomerPriceWire[]>('customerPrices');

interface CustomerChoice {
  id: string;
  name: string;
  email: string;
}

const customerChoicesMachine = createListMachine<CustomerChoice, 'all'>({
  id: 'billingCustomerChoices',
  defaultQuery: { page: 1, limit: 20, search: '', status: 'all' },
});

/** Today and the first day of next month, as UTC days: cycles are UTC months. */
function days(now = new Date()) {
  return { today: now.toISOString().slice(0, 10), nextMonth: cycleBounds(shiftCycle(cycleOf(now), 1)).start };
}

const notify = (id: string) => ({
  notifySuccess: (_: unknown, message: string) => void toast.success(message, { id }),
  notifyFailure: (_: unknown, message: string) => void toast.error(message, { id }),
});

/** One empty list, so the dialogs see the same products until the price list loads. */
const NO_PRODUCTS: readonly PriceProductWire[] = [];
const productOptions = (products: readonly PriceProductWire[]) => products.map((p) => ({ label: `${p.name} (${p.productReferenceId})`, value: p.productReferenceId }));

/** The currency a new price starts in: the product's, else the one the whole list uses, else USD. */
function startingCurrency(list: PriceListWire | null, product: PriceProductWire | null): string {
  const own = product?.current?.currency ?? product?.providerCurrency;
  if (own) return own;
  return (list && figureCurrency({ productReferenceId: null }, list.products)) ?? 'USD';
}

/** A new price for a product starts from its price in effect, from the first day of next month. */
function newPriceForm(list: PriceListWire | null, product: PriceProductWire | null): PriceFormValues {
  const current = product?.current ?? null;
  const figure = (minor: number | undefined) => (current && minor !== undefined ? formatMinor(minor, current.currency) : '');
  return {
    ...EMPTY_PRICE_FORM,
    productReferenceId: product?.productReferenceId ?? '',
    currency: startingCurrency(list, product),
    monthly: figure(current?.monthlyMinor),
    overagePerGb: figure(current?.overagePerGbMinor),
    topUp: figure(current?.topUpMinor),
    effectiveFrom: days().nextMonth,
  };
}

const newCustomerPriceForm = (list: PriceListWire | null): CustomerPriceFormValues => ({
  ...EMPTY_CUSTOMER_PRICE_FORM,
  currency: startingCurrency(list, null),
  effectiveFrom: days().nextMonth,
});

export function PricesRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const canChange = useCan('billing:manage');
  const { today } = days();

  const prices = usePageActor(priceListMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.prices.list(signal))) } }));
  const customerPrices = usePageActor(
    customerPricesMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => api.prices.customerPrices({}, signal))) } }),
  );
  const reloadPrices = () => prices.send(reloadEvent(prices.getSnapshot()));
  const reloadCustomerPrices = () => customerPrices.send(reloadEvent(customerPrices.getSnapshot()));

  const priceForm = usePageActor(
    priceFormMachine.provide({
      actors: {
        savePrice: fromPromise(({ input, signal }) => api.prices.create(input, signal)),
        withdrawPrice: fromPromise(({ input, signal }) => outcome(() => api.prices.withdraw(input.id, signal))),
      },
      actions: { ...notify('price-form'), pricesChanged: () => reloadPrices() },
    }),
  );
  const customerPriceForm = usePageActor(
    customerPriceFormMachine.provide({
      actors: {
        saveCustomerPrice: fromPromise(({ input, signal }) => api.prices.createCustomerPrice(input, signal)),
        endCustomerPrice: fromPromise(({ input, signal }) => outcome(() => api.prices.endCustomerPrice(input.id, undefined, signal))),
      },
      actions: { ...notify('customer-price-form'), customerPricesChanged: () => reloadCustomerPrices() },
    }),
  );

  const list = useSelector(prices, (s) => s.context.data);
  const listError = useSelector(prices, (s) => (s.matches('failed') ? s.context.error : null));
  const refreshing = useSelector(prices, (s) => s.hasTag('refreshing'));
  const rows = useSelector(customerPrices, (s) => s.context.data);
  const rowsError = useSelector(customerPrices, (s) => (s.matches('failed') ? s.context.error : null));

  const priceBusy = useSelector(priceForm, (s) => s.hasTag('busy'));
  const customerBusy = useSelector(customerPriceForm, (s) => s.hasTag('busy'));
  const products = list?.products ?? NO_PRODUCTS;

  return (
    <>
      <PricesView
        list={list}
        listError={listError}
        refreshing={refreshing}
        customerPrices={rows}
        customerPricesError={rowsError}
        today={today}
        canChange={canChange}
        busy={priceBusy || customerBusy}
        onRetry={() => prices.send({ type: 'user.retry' })}
        onRetryCustomerPrices={() => customerPrices.send({ type: 'user.retry' })}
        onNewPrice={(product) => priceForm.send({ type: 'user.create', form: newPriceForm(list, product) })}
        onWithdraw={(price) => priceForm.send({ type: 'user.withdraw', price })}
        onNewCustomerPrice={() => customerPriceForm.send({ type: 'user.create', form: newCustomerPriceForm(list) })}
        onEndCustomerPrice={(row) => customerPriceForm.send({ type: 'user.end', row })}
        onNavigate={(url) => void router.navigate({ href: url })}
      />
      <PriceForm priceForm={priceForm} products={products} />
      <CustomerPriceForm customerPriceForm={customerPriceForm} products={products} />
    </>
  );
}

// The dialogs read their own actors: a key typed in one renders the dialog, not the page's tables.

function PriceForm({ priceForm, products }: { priceForm: ActorRefFrom<typeof priceFormMachine>; products: readonly PriceProductWire[] }) {
  const priceEditing = useSelector(priceForm, (s) => s.matches('editing') || s.matches('saving'));
  const priceWithdrawal = useSelector(priceForm, (s) => s.matches('withdrawal'));
  const priceBusy = useSelector(priceForm, (s) => s.hasTag('busy'));
  const priceContext = useSelector(priceForm, (s) => s.context);
  const withdrawn: PriceWire | null = priceContext.price;
  return (
    <>
      <PriceDialog
        visible={priceEditing}
        form={priceContext.form}
        errors={priceContext.errors}
        failure={priceContext.failure}
        busy={priceBusy}
        products={productOptions(products)}
        onField={(field, value) => priceForm.send({ type: 'user.field', field, value })}
        onSubmit={() => priceForm.send({ type: 'user.submit' })}
        onCancel={() => priceForm.send({ type: 'user.cancel' })}
      />
      <ConfirmPriceChange
        visible={priceWithdrawal}
        title={T.withdrawTitle}
        confirmLabel={T.withdraw}
        question={withdrawn ? PRICE_FORM_TEXTS.withdrawQuestion(withdrawn.productName ?? productName(products, withdrawn.productReferenceId), withdrawn.effectiveFrom) : ''}
        failure={priceContext.failure}
        busy={priceBusy}
        onConfirm={() => priceForm.send({ type: 'user.confirm' })}
        onClose={() => priceForm.send({ type: 'user.cancel' })}
      />
    </>
  );
}

function CustomerPriceForm({
  customerPriceForm,
  products,
}: {
  customerPriceForm: ActorRefFrom<typeof customerPriceFormMachine>;
  products: readonly PriceProductWire[];
}) {
  const customerEditing = useSelector(customerPriceForm, (s) => s.matches('editing') || s.matches('saving'));
  const customerEnding = useSelector(customerPriceForm, (s) => s.matches('ending'));
  const customerBusy = useSelector(customerPriceForm, (s) => s.hasTag('busy'));
  const customerContext = useSelector(customerPriceForm, (s) => s.context);
  const ended = customerContext.row;
  return (
    <>
      {customerEditing && <CustomerPriceDialogPanel form={customerPriceForm} products={products} busy={customerBusy} />}
      <ConfirmPriceChange
        visible={customerEnding}
        title={T.endTitle}
        confirmLabel={T.end}
        question={ended ? CUSTOMER_PRICE_TEXTS.endQuestion(ended.customerName || ended.customerId, productName(products, ended.productReferenceId)) : ''}
        failure={customerContext.failure}
        busy={customerBusy}
        onConfirm={() => customerPriceForm.send({ type: 'user.confirm' })}
        onClose={() => customerPriceForm.send({ type: 'user.cancel' })}
      />
    </>
  );
}

interface CustomerPriceDialogPanelProps {
  form: ActorRefFrom<typeof customerPriceFormMachine>;
  products: readonly PriceProductWire[];
  busy: boolean;
}

/** The dialog with its customer search: a list actor over the customers API, alive while the dialog is. */
function CustomerPriceDialogPanel({ form, products, busy }: CustomerPriceDialogPanelProps) {
  const { api } = useAppServices();
  const choices = usePageActor(
    customerChoicesMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.customers.list({ page: 1, limit: input.limit, ...(input.search ? { search: input.search } : {}) }, signal);
            return result.ok
              ? { ok: true as const, data: { rows: result.data.customers.map((c) => ({ id: c.uuid, name: c.name, email: c.email })), pagination: result.data.pagination } }
              : result;
          }),
        ),
      },
    }),
  );
  const found = useSelector(choices, (s) => s.context.rows);
  const loading = useSelector(choices, (s) => s.hasTag('loading') || s.matches({ searchBox: 'debouncing' }));
  const error = useSelector(choices, (s) => (s.matches({ data: 'failed' }) ? (s.context.error ?? CUSTOMER_SEARCH_TEXTS.failed) : null));
  const values = useSelector(form, (s) => s.context.form);
  const errors = useSelector(form, (s) => s.context.errors);
  const failure = useSelector(form, (s) => s.context.failure);

  const chosen = values.customer;
  // The chosen customer stays in the list whatever the search now finds.
  const options = [
    ...(chosen && !found.some((c) => c.id === chosen.id) ? [{ label: chosen.name, value: chosen.id }] : []),
    ...found.map((c) => ({ label: `${c.name} \u00b7 ${c.email}`, value: c.id })),
  ];
  return (
    <CustomerPriceDialog
      visible
      form={values}
      errors={errors}
      failure={failure}
      busy={busy}
      customers={options}
      customersLoading={loading}
      customersError={error}
      products={productOptions(products)}
      onCustomerSearch={(value) => choices.send({ type: 'user.searchInput', value })}
      onCustomer={(id) => {
        const customer = found.find((c) => c.id === id) ?? (chosen?.id === id ? chosen : null);
        form.send({ type: 'user.customer', customer: customer ? { id: customer.id, name: customer.name } : null });
      }}
      onProduct={(productReferenceId) =>
        form.send({
          type: 'user.product',
          productReferenceId,
          currency: productReferenceId === null ? null : (products.find((p) => p.productReferenceId === productReferenceId)?.current?.currency ?? null),
        })
      }
      onField={(field, value) => form.send({ type: 'user.field', field, value })}
      onSubmit={() => form.send({ type: 'user.submit' })}
      onCancel={() => form.send({ type: 'user.cancel' })}
    />
  );
}
