// The route tree (code-based) with the redirect rules of spec section 2 "Route table":
// signed out, every path → /login; signed in, /login → /home (or the remembered path),
// / → /home, unknown → /home; /dashboard is an alias of /home. /set-password (the emailed
// password-setup link) is public and shows the same page signed in or not.
import {
  Outlet,
  createRootRouteWithContext,
  createRoute,
  createRouter,
  lazyRouteComponent,
  redirect,
  type RouterHistory,
} from '@tanstack/react-router';
import { safeRedirectTarget } from '../domain/login';
import { FullPageSpinner } from '../ui/common/FullPageSpinner';
import { ToastArea } from '../ui/common/ToastArea';
import { AppLayout } from './app-layout';
import { LoginRoute } from './login';
import { validateCustomersSearch, validateCustomerTerminalsSearch, validateSetPasswordSearch, validateSubscriptionsSearch, validateTerminalsSearch, validateUsersSearch } from './search-params';
import { redirectIfSignedIn, requireSignedIn, type RouterContext } from './guards';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** Administrators only: a customer who signed in through the fallback sees a notice instead. */
    adminOnly?: boolean;
  }
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
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

/** Public: the link a new customer gets by email. No guard either way. */
const setPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/set-password',
  validateSearch: validateSetPasswordSearch,
  component: lazyRouteComponent(() => import('./set-password'), 'SetPasswordRoute'),
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
  staticData: { adminOnly: true },
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
  staticData: { adminOnly: true },
  // Page, search and status live in the URL, so a reload or a shared link keeps them.
  validateSearch: validateCustomersSearch,
  component: lazyRouteComponent(() => import('./customers'), 'CustomersRoute'),
});

const simulatorRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customers/starlink-simulator',
  staticData: { adminOnly: true },
  component: lazyRouteComponent(() => import('./provider-console'), 'ProviderConsoleRoute'),
});

const customerTerminalsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/customer/terminals/$customerUuid',
  staticData: { adminOnly: true },
  // The month shown and the open terminal live in the URL: a reload or a link keeps them.
  validateSearch: (search: Record<string, unknown>) => validateCustomerTerminalsSearch(search),
  component: lazyRouteComponent(() => import('./customer-terminals'), 'CustomerTerminalsRoute'),
});

const terminalsRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/terminals',
  staticData: { adminOnly: true },
  // Page, search, status and the open terminal live in the URL: a reload or a link keeps them.
  validateSearch: validateTerminalsSearch,
  component: lazyRouteComponent(() => import('./terminals'), 'TerminalsRoute'),
});

const subscriptionRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/subscription',
  staticData: { adminOnly: true },
  // Page, search, plan filter and "over plan" live in the URL.
  validateSearch: validateSubscriptionsSearch,
  component: lazyRouteComponent(() => import('./subscriptions'), 'SubscriptionsRoute'),
});

/** What the provider bills the reseller, read live: under Subscriptions, with its guard. */
const providerBillingRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '/subscription/provider-billing',
  staticData: { adminOnly: true },
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
  staticData: { adminOnly: true },
  // Search, status and "show deleted" live in the URL.
  validateSearch: validateUsersSearch,
  component: lazyRouteComponent(() => import('./users'), 'UsersRoute'),
});

/** Unknown paths: the guard above already sent signed-out visitors to /login. */
const unknownRoute = createRoute({
  getParentRoute: () => appRoute,
  path: '$',
  beforeLoad: () => {
    throw redirect({ to: '/home', replace: true });
  },
});

export const routeTree = rootRoute.addChildren([
  loginRoute,
  setPasswordRoute,
  appRoute.addChildren([
    indexRoute,
    homeRoute,
    dashboardAliasRoute,
    customersRoute,
    simulatorRoute,
    customerTerminalsRoute,
    terminalsRoute,
    subscriptionRoute,
    providerBillingRoute,
    settingsRoute,
    usersRoute,
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
