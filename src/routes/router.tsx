// The route tree (code-based) with the redirect rules of spec section 2 "Route table":
// signed out, every path → /login; signed in, /login → /home (or the remembered path),
// / → /home, unknown → /home; /dashboard is an alias of /home. /set-password (the emailed
// password-setup link) is public and shows the same page signed in or not.
// Customers have their own area under /my with its own frame. A customer who opens
// /login, /, /home or any admin path lands on /my; an admin who opens a /my path lands on /home
// (guards.ts). /forgot-password is public and, like /login, sends a signed-in account home.
import { useEffect } from 'react';
import {
  Outlet,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  useRouterState,
  type RouterHistory,
} from '@tanstack/react-router';
import { isCycle } from '../domain/billing';
import type { FleetMapSearch } from '../domain/fleet-map';
import { TERMINAL_CONDITIONS, type TerminalCondition } from '../domain/terminals';
import { safeRedirectTarget } from '../domain/login';
import { documentTitle } from '../domain/navigation';
import { FullPageSpinner } from '../ui/common/FullPageSpinner';
import { ToastArea } from '../ui/common/ToastArea';
import { AppLayout } from './app-layout';
import { LoginRoute } from './login';
import { validateCustomersSearch, validateCustomerTerminalsSearch, validateSetPasswordSearch, validateSubscriptionsSearch, validateTerminalsSearch, validateUsersSearch } from './search-params';
import { redirectIfSignedIn, requireCustomer, requireSignedIn, type RouterContext } from './guards';
import { MyLayout } from './my/layout';
import { validateMyTerminalSearch } from './my/search';
import { validateAlertsSearch } from '../ui/alerts/search';
import { validateAuditSearch } from '../ui/audit/search';
import { validateBulkSearch } from '../ui/bulk/search';
import { validateStatementsSearch } from '../ui/billing/statements/search';

/** The browser tab names the page and the portal it belongs to ("My Terminals · Customer Portal"). */
function DocumentTitle() {
  const path = useRouterState({ select: (s) => s.location.pathname });
  useEffect(() => {
    document.title = documentTitle(path);
  }, [path]);
  return null;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <DocumentTitle />
      <Outlet />
      <ToastArea />
    </>
  ),
});

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const target = safeRedirectTarget(search.redirect);
    return target ? { redirect: target } : {};
  },
  beforeLoad: redirectIfSignedIn,
  component: LoginRoute,
});

/** Public: asks for a password-reset link by email; a signed-in account is sent home as from /login. */
const forgotPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/forgot-password',
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => {
    const target = safeRedirectTarget(search.redirect);
    return target ? { redirect: target } : {};
  },
  beforeLoad: redirectIfSignedIn,
  component: lazyRouteComponent(() => import('./forgot-password'), 'ForgotPasswordRoute'),
});

/** Public: the link a new customer gets by email. No guard either way. */
const setPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/set-password',
  validateSearch: validateSetPasswordSearch,
  component: lazyRouteComponent(() => import('./set-password'), 'SetPasswordRoute'),
});

/** Public: the link an invited member of a customer organisation gets by email. No guard either way. */
const invitationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/invitation/$token',
  component: lazyRouteComponent(() => import('./invitation'), 'InvitationRoute'),
});

/** Everything behind sign-in hangs off this pathless layout: the guard runs once for all of it. */
const appRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'app',
  beforeLoad: requireSignedIn,
  component: AppLayout,
});

const indexRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

const homeRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/home',
  component: lazyRouteComponent(() => import('./home'), 'HomeRoute'),
});

const dashboardAliasRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/dashboard',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

const customersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers',
  // Page, search and status live in the URL, so a reload or a shared link keeps them.
  validateSearch: validateCustomersSearch,
  component: lazyRouteComponent(() => import('./customers'), 'CustomersRoute'),
});

const simulatorRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers/starlink-simulator',
  component: lazyRouteComponent(() => import('./provider-console'), 'ProviderConsoleRoute'),
});

/** The portal's service accounts at the provider: listed, added, tested, disabled, deleted. */
const providerAccountsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers/provider-accounts',
  component: lazyRouteComponent(() => import('./provider-accounts'), 'ProviderAccountsRoute'),
});

const customerTerminalsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customer/terminals/$customerUuid',
  // The month shown and the open terminal live in the URL: a reload or a link keeps them.
  validateSearch: (search: Record<string, unknown>) => validateCustomerTerminalsSearch(search),
  component: lazyRouteComponent(() => import('./customer-terminals'), 'CustomerTerminalsRoute'),
});

const terminalsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/terminals',
  // Page, search, status and the open terminal live in the URL: a reload or a link keeps them.
  validateSearch: validateTerminalsSearch,
  component: lazyRouteComponent(() => import('./terminals'), 'TerminalsRoute'),
});

const CUSTOMER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The fleet on a world map, its filter in the URL (`?customer=<uuid>&status=warning&account=2`;
 * what cannot be read is left out). Lazy like every page, and more so: the base map and the map's
 * code are in its chunk alone, which is why the filter is read here and not by the map's module.
 */
const fleetMapRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/terminals/map',
  validateSearch: (search: Record<string, unknown>): FleetMapSearch => {
    const account = typeof search.account === 'number' || typeof search.account === 'string' ? Number(search.account) : NaN;
    return {
      customer: typeof search.customer === 'string' && CUSTOMER_UUID.test(search.customer) ? search.customer : undefined,
      status: (TERMINAL_CONDITIONS as readonly unknown[]).includes(search.status) ? (search.status as TerminalCondition) : undefined,
      account: Number.isSafeInteger(account) && account >= 1 ? account : undefined,
    };
  },
  component: lazyRouteComponent(() => import('./fleet-map'), 'FleetMapRoute'),
});

const subscriptionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/subscription',
  // Page, search, plan filter and "over plan" live in the URL.
  validateSearch: validateSubscriptionsSearch,
  component: lazyRouteComponent(() => import('./subscriptions'), 'SubscriptionsRoute'),
});

/** What the provider bills the reseller, read live: under Subscriptions, with its guard. */
const providerBillingRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/subscription/provider-billing',
  component: lazyRouteComponent(() => import('./provider-billing'), 'ProviderBillingRoute'),
});

const settingsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/settings',
  component: lazyRouteComponent(() => import('./settings'), 'SettingsRoute'),
});

const usersRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/users',
  // Search, status and "show deleted" live in the URL.
  validateSearch: validateUsersSearch,
  component: lazyRouteComponent(() => import('./users'), 'UsersRoute'),
});

/** The roles and what each allows, beside the users who hold them. */
const rolesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/users/roles',
  component: lazyRouteComponent(() => import('./roles'), 'RolesRoute'),
});

/** The API keys of the reseller's own systems: made (shown once), listed by prefix, revoked. */
const apiKeysRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/users/api-keys',
  component: lazyRouteComponent(() => import('./api-keys'), 'ApiKeysRoute'),
});

/** The admins' queue of customer requests (plan changes, top-ups). */
const requestsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/requests',
  component: lazyRouteComponent(() => import('./requests'), 'RequestsRoute'),
});

/**
 * Signed webhooks: the endpoints, and one endpoint's delivery log, which is part of the
 * URL (`?deliveries=<endpoint id>`) so that a link opens it.
 */
const webhooksRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/alerts/webhooks',
  validateSearch: (search: Record<string, unknown>): { deliveries?: string } =>
    typeof search.deliveries === 'string' && /^[0-9a-f-]{1,64}$/i.test(search.deliveries) ? { deliveries: search.deliveries } : {},
  component: lazyRouteComponent(() => import('./webhooks'), 'WebhooksRoute'),
});

/** Every alert, with its filters and page in the URL. */
const alertsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/alerts',
  validateSearch: validateAlertsSearch,
  component: lazyRouteComponent(() => import('./alerts'), 'AlertsRoute'),
});

const alertRulesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/alerts/rules',
  component: lazyRouteComponent(() => import('./alert-rules'), 'AlertRulesRoute'),
});

/** The automatic actions of the alert rules: proposals to approve or dismiss, and what was done (with Undo). */
const automaticActionsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/alerts/actions',
  component: lazyRouteComponent(() => import('./automatic-actions'), 'AutomaticActionsRoute'),
});

/** Scheduled changes of lines and customers, with Cancel. */
const scheduleRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/schedule',
  component: lazyRouteComponent(() => import('./schedule'), 'ScheduleRoute'),
});

/** Billing statements: the cycle, status, customer, search and page in the URL. */
const statementsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/billing/statements',
  validateSearch: validateStatementsSearch,
  component: lazyRouteComponent(() => import('./statements'), 'StatementsRoute'),
});

/** One statement, printable. */
const statementRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/billing/statements/$statementId',
  component: lazyRouteComponent(() => import('./statement-detail'), 'StatementDetailRoute'),
});

/** Payments: the bank statement import, the lines waiting to be matched, payments by hand and the ledger. */
const paymentsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/billing/payments',
  component: lazyRouteComponent(() => import('./payments'), 'PaymentsRoute'),
});

/** What customers owe by how overdue, and the dunning policy. */
const ageingRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/billing/ageing',
  component: lazyRouteComponent(() => import('./ageing'), 'AgeingRoute'),
});

/** The price list and customers' own prices. */
const pricesRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/billing/prices',
  component: lazyRouteComponent(() => import('./prices'), 'PricesRoute'),
});

/**
 * The reconciliation board: the cycle and provider account shown live in the URL
 * (`?cycle=YYYY-MM&account=2`; none: the current cycle, the first account).
 */
const reconciliationRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/billing/reconciliation',
  validateSearch: (search: Record<string, unknown>): { cycle?: string; account?: number } => {
    const account = typeof search.account === 'number' || typeof search.account === 'string' ? Number(search.account) : NaN;
    return {
      ...(typeof search.cycle === 'string' && isCycle(search.cycle) ? { cycle: search.cycle } : {}),
      ...(search.account !== undefined && Number.isSafeInteger(account) && account >= 1 ? { account } : {}),
    };
  },
  component: lazyRouteComponent(() => import('./reconciliation'), 'ReconciliationRoute'),
});

/** Every audited action, for those who may read it; its filters, page and open entry in the URL. */
const auditRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/audit',
  validateSearch: validateAuditSearch,
  component: lazyRouteComponent(() => import('./audit'), 'AuditRoute'),
});

/** Bulk actions (bulk:read): the operation shown is in the URL (`?operation=<id>`). */
const bulkRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/bulk',
  validateSearch: validateBulkSearch,
  component: lazyRouteComponent(() => import('./bulk'), 'BulkRoute'),
});

/** Unknown paths: the guard above already sent signed-out visitors to /login. */
const unknownRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

// ---- The customer area ------------------------------------------------------------------------

/** Everything a customer sees hangs off /my: the guard runs once for all of it. */
const myRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/my',
  beforeLoad: requireCustomer,
  component: MyLayout,
});

const myOverviewRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./my/overview'), 'MyOverviewRoute'),
});

const myTerminalsRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/terminals',
  component: lazyRouteComponent(() => import('./my/terminals'), 'MyTerminalsRoute'),
});

const myTerminalRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/terminals/$terminalId',
  // The month shown lives in the URL: a reload or a shared link keeps it.
  validateSearch: validateMyTerminalSearch,
  component: lazyRouteComponent(() => import('./my/terminal'), 'MyTerminalRoute'),
});

const myRequestsRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/requests',
  component: lazyRouteComponent(() => import('./my-requests'), 'MyRequestsRoute'),
});

const myAlertsRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/alerts',
  component: lazyRouteComponent(() => import('./my-alerts'), 'MyAlertsRoute'),
});

const myAccountRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/account',
  component: lazyRouteComponent(() => import('./my-account'), 'MyAccountRoute'),
});

const myStatementsRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/statements',
  component: lazyRouteComponent(() => import('./my/statements'), 'MyStatementsRoute'),
});

const myStatementRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/statements/$statementId',
  component: lazyRouteComponent(() => import('./my/statements'), 'MyStatementRoute'),
});

/** The organisation's team, for its owners (the server refuses the others). */
const myTeamRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '/team',
  component: lazyRouteComponent(() => import('./team'), 'MyTeamRoute'),
});

/** Unknown paths under /my: the customer area's home. */
const myUnknownRoute = createRoute({
  getParentRoute: () => myRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/my', replace: true });
  },
});

// ---- The admin "View as customer" preview -----------------------------------------------------

/**
 * A customer's area as they see it, for an administrator: the customer-area pages under the
 * preview's own frame (banner, read-only). Outside the admin shell, behind the admin guard.
 */
const previewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/customers/$customerUuid/preview',
  beforeLoad: requireSignedIn,
  component: lazyRouteComponent(() => import('./customer-preview'), 'CustomerPreviewLayout'),
});

const previewOverviewRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/',
  component: lazyRouteComponent(() => import('./my/overview'), 'MyOverviewRoute'),
});

const previewTerminalsRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/terminals',
  component: lazyRouteComponent(() => import('./my/terminals'), 'MyTerminalsRoute'),
});

const previewTerminalRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/terminals/$terminalId',
  validateSearch: validateMyTerminalSearch,
  component: lazyRouteComponent(() => import('./my/terminal'), 'MyTerminalRoute'),
});

const previewRequestsRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/requests',
  component: lazyRouteComponent(() => import('./my-requests'), 'MyRequestsRoute'),
});

const previewAlertsRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/alerts',
  component: lazyRouteComponent(() => import('./my-alerts'), 'MyAlertsRoute'),
});

const previewAccountRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/account',
  component: lazyRouteComponent(() => import('./customer-preview'), 'PreviewAccountRoute'),
});

const previewStatementsRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/statements',
  component: lazyRouteComponent(() => import('./my/statements'), 'MyStatementsRoute'),
});

const previewStatementRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '/statements/$statementId',
  component: lazyRouteComponent(() => import('./my/statements'), 'MyStatementRoute'),
});

/** Anything else under the preview: its overview. */
const previewUnknownRoute = createRoute({
  getParentRoute: () => previewRoute,
  path: '$',
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/customers/$customerUuid/preview', params: { customerUuid: params.customerUuid }, replace: true });
  },
});

export const routeTree = rootRoute.addChildren([
  loginRoute,
  forgotPasswordRoute,
  setPasswordRoute,
  invitationRoute,
  myRoute.addChildren([myOverviewRoute, myTerminalsRoute, myTerminalRoute, myRequestsRoute, myAlertsRoute, myStatementsRoute, myStatementRoute, myAccountRoute, myTeamRoute, myUnknownRoute]),
  previewRoute.addChildren([previewOverviewRoute, previewTerminalsRoute, previewTerminalRoute, previewRequestsRoute, previewAlertsRoute, previewStatementsRoute, previewStatementRoute, previewAccountRoute, previewUnknownRoute]),
  appRoute.addChildren([
    indexRoute,
    homeRoute,
    dashboardAliasRoute,
    customersRoute,
    simulatorRoute,
    providerAccountsRoute,
    customerTerminalsRoute,
    terminalsRoute,
    fleetMapRoute,
    subscriptionRoute,
    providerBillingRoute,
    settingsRoute,
    usersRoute,
    rolesRoute,
    apiKeysRoute,
    requestsRoute,
    alertsRoute,
    alertRulesRoute,
    automaticActionsRoute,
    scheduleRoute,
    webhooksRoute,
    statementsRoute,
    statementRoute,
    paymentsRoute,
    ageingRoute,
    pricesRoute,
    reconciliationRoute,
    auditRoute,
    bulkRoute,
    unknownRoute,
  ]),
]);

export function createAppRouter({ context, history }: { context: RouterContext; history?: RouterHistory }) {
  return createRouter({
    routeTree,
    context,
    ...(history ? { history } : {}),
    defaultPendingComponent: FullPageSpinner,
    defaultPendingMs: 150,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
