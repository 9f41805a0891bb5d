// "View as customer" (/customers/{uuid}/preview/…): an administrator sees a customer's area exactly
// as the customer does — the same shell and pages — read through the admin preview routes, with
// a banner and every action hidden. Opening it is audited by the server (the `open` call).
import { Outlet, useParams, useRouter, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { createContext, useContext, useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { CustomerListItem } from '../domain/customers';
import { createResourceMachine } from '../machines/resource';
import { AccountView } from '../ui/account/AccountView';
import { ErrorCard } from '../ui/common/ErrorCard';
import { FullPageSpinner } from '../ui/common/FullPageSpinner';
import { MyShell } from '../ui/my/MyShell';
import { PreviewBanner } from '../ui/my/PreviewBanner';
import { MyAreaSourceContext, myPathOf, previewHref, useMyAreaSource, type MyAreaSource } from './my/source';
import { outcome } from './outcome';
import { NoPermission } from '../ui/common/NoPermission';
import { useAppServices, useCan, usePageActor } from './services';

export const customerPreviewMachine = createResourceMachine<CustomerListItem>('customerPreview');

export const PREVIEW_MESSAGES = { openFailed: 'Could not open the customer preview' } as const;

export function CustomerPreviewLayout() {
  const { customerUuid = '' } = useParams({ strict: false });
  const router = useRouter();
  // The preview reads the customer's area through routes that need customers:read.
  const mayPreview = useCan('customers:read');
  if (!mayPreview) return <NoPermission meta={null} onNavigate={(url) => void router.navigate({ href: url })} />;
  // Another customer's preview is another preview: it opens (and is audited) afresh.
  return <Preview key={customerUuid} customerUuid={customerUuid} />;
}

/** The account page as the customer sees it, read-only: the facts from the opened customer. */
export function PreviewAccountRoute() {
  const router = useRouter();
  const { customer, href } = usePreviewedCustomer();
  return (
    <AccountView
      readOnly
      account={{ email: customer.email, name: customer.name, company: customer.company, phone: customer.phone, address: customer.address, mfaEnabled: customer.mfaEnabled }}
      onNavigate={(url) => void router.navigate({ href: href(url) })}
    />
  );
}

const PreviewedCustomerContext = createContext<CustomerListItem | null>(null);

function usePreviewedCustomer() {
  const customer = useContext(PreviewedCustomerContext);
  const { href } = useMyAreaSource();
  if (!customer) throw new Error('The preview account page rendered outside the preview');
  return { customer, href };
}

function Preview({ customerUuid }: { customerUuid: string }) {
  const { api } = useAppServices();
  const router = useRouter();
  const currentPath = useRouterState({ select: (s) => s.location.pathname });
  const preview = useMemo(() => api.customerPreview(customerUuid), [api, customerUuid]);
  const previewStatements = useMemo(() => api.statements.preview(customerUuid), [api, customerUuid]);
  const previewAccount = useMemo(() => api.ledger.preview(customerUuid), [api, customerUuid]);
  const previewTelemetry = useMemo(() => api.telemetry.previewTerminalHistory(customerUuid), [api, customerUuid]);
  const opening = usePageActor(customerPreviewMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => preview.open(signal))) } }));
  const customer = useSelector(opening, (s) => s.context.data);
  const error = useSelector(opening, (s) => (s.matches('failed') ? s.context.error : null));
  const source = useMemo<MyAreaSource>(
    () => ({
      overview: preview.overview,
      terminals: preview.terminals,
      terminal: preview.terminal,
      telemetry: previewTelemetry,
      requests: preview.requests,
      alerts: preview.alerts,
      statements: previewStatements.list,
      statement: previewStatements.get,
      account: previewAccount,
      href: (path) => previewHref(customerUuid, path),
      readOnly: true,
    }),
    [preview, previewStatements, previewAccount, previewTelemetry, customerUuid],
  );
  const exit = () => void router.navigate({ href: '/customers' });
  const shown = customer ? { name: customer.name, company: customer.company, email: customer.email } : null;

  return (
    <MyShell
      customer={shown ?? { name: '', company: '', email: '' }}
      currentPath={myPathOf(currentPath)}
      onNavigate={(url) => void router.navigate({ href: source.href(url) })}
      onLogout={exit}
      preview={{ banner: <PreviewBanner customer={shown} onExit={exit} /> }}
    >
      {error ? (
        <ErrorCard title={PREVIEW_MESSAGES.openFailed} message={error} onRetry={() => opening.send({ type: 'user.retry' })} />
      ) : customer ? (
        <MyAreaSourceContext.Provider value={source}>
          <PreviewedCustomerContext.Provider value={customer}>
            <Outlet />
          </PreviewedCustomerContext.Provider>
        </MyAreaSourceContext.Provider>
      ) : (
        <FullPageSpinner label="Opening the customer's area..." />
      )}
    </MyShell>
  );
}
