// Every list and summary call the admin pages make when they open (src/routes/*.tsx through
// src/api/*.ts), with the query parameters the SPA sends: the query strings come from the SPA's
// own builders (terminalListSearchParams and the others), so a change there changes what is timed.
// Calls that go to the provider (provider console, provider billing, Refresh Data) are left out:
// they time the provider, not the portal.
import { customerListSearchParams } from '../../src/api/customers';
import { subscriptionListSearchParams } from '../../src/api/subscriptions';
import { terminalListSearchParams } from '../../src/api/terminals';
import { userListSearchParams } from '../../src/api/users';
import { CUSTOMER_USAGE_PAGE_SIZE, customerUsagePageSearchParams } from '../../src/domain/customer-terminals';
import { monthRange, TERMINALS_PAGE_SIZE } from '../../src/domain/terminals';
import { withQuery } from './api';
import type { PageContext } from './fill';

export interface Page {
  /** Stable name in the JSON: `<screen>.<call>`. */
  name: string;
  /** Path under /api/v1, with its query. */
  path: string;
  /** A route newer servers have: where it answers "Route not found", the page is left out for that server. */
  optional?: boolean;
  /**
   * A call the screen made before and makes no more, for the page named here: still timed (for the
   * side-by-side comparison, and as an API), but not held to the targets where the replacement answered.
   */
  replacedBy?: string;
}

/** The latencies the targets judge: each replaced call is left out where its replacement was timed. */
export function judgedPages<T>(pages: readonly Page[], measured: Record<string, T>): Record<string, T> {
  const replaced = new Set(pages.filter((p) => p.replacedBy !== undefined && measured[p.replacedBy] !== undefined).map((p) => p.name));
  return Object.fromEntries(Object.entries(measured).filter(([name]) => !replaced.has(name)));
}

/**
 * The Subscriptions page's calls: the list, "Show them" (over plan), the cards (the list's summary,
 * limit 1). They read the stored page rows, which every line a sync writes marks to be computed
 * again; they need nothing the fill makes after the syncs, so they are timed during its first
 * inventory run too.
 */
export function subscriptionPages(): Page[] {
  return [
    { name: 'subscriptions.list.page1', path: withQuery('/subscriptions', subscriptionListSearchParams({ page: 1 })) },
    { name: 'subscriptions.list.overPlan', path: withQuery('/subscriptions', subscriptionListSearchParams({ page: 1, overPlan: true })) },
    { name: 'subscriptions.summary', path: withQuery('/subscriptions', subscriptionListSearchParams({ page: 1, limit: 1 })) },
  ];
}

/**
 * The pages that read the stored page rows (subscription_rows, customer_usage_rows), timed again
 * while a usage run writes: it rewrites every line's cycle, marking a sync's worth of their rows.
 */
export const STORED_ROWS_PAGES: readonly string[] = [...subscriptionPages().map((p) => p.name), 'customer.usage', 'customer.usage.byUsage'];

/** While the first inventory run writes (no customer yet): the stored rows' pages and the Terminals list beside them. */
export function firstSyncPages(): Page[] {
  return [...subscriptionPages(), terminalsFirstPage()];
}

function terminalsFirstPage(): Page {
  return { name: 'terminals.list.page1', path: withQuery('/terminals', terminalListSearchParams({ page: 1 })) };
}

export function adminPages(context: PageContext, now: Date = new Date()): Page[] {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  const { start, end } = monthRange(year, month);
  const customer = encodeURIComponent(context.largeCustomer.uuid);
  const lastPage = Math.max(1, Math.ceil(context.terminalsTotal / TERMINALS_PAGE_SIZE));
  const usageQuery = { year, month, page: 1, limit: CUSTOMER_USAGE_PAGE_SIZE, search: '', status: 'all' as const, sort: null };
  return [
    // Every page load confirms the session.
    { name: 'session.me', path: '/auth/me' },
    { name: 'dashboard.summary', path: '/dashboard/summary' },

    // /terminals: the list, its summary cards, the sync button's queue, and the sync counts.
    terminalsFirstPage(),
    { name: 'terminals.list.lastPage', path: withQuery('/terminals', terminalListSearchParams({ page: lastPage })) },
    { name: 'terminals.search.kitSerial', path: withQuery('/terminals', terminalListSearchParams({ page: 1, search: context.terminal.kitSerialNumber })) },
    { name: 'terminals.search.customerName', path: withQuery('/terminals', terminalListSearchParams({ page: 1, search: context.largeCustomer.name })) },
    { name: 'terminals.health', path: '/terminals/health' },
    { name: 'terminals.sync.queue', path: '/terminals/sync/queue' },
    { name: 'terminals.sync.stats', path: '/terminals/sync/stats' },
    // The provider call budget the sync schedule is sized to (added by the fleet-scale work).
    { name: 'terminals.sync.budget', path: '/terminals/sync/budget', optional: true },
    // The Terminal Details dialog: the record and its month's usage.
    { name: 'terminal.detail', path: `/terminals/${encodeURIComponent(context.terminal.userTerminalId)}` },
    { name: 'terminal.lineUsage', path: withQuery(`/terminals/service-line/${encodeURIComponent(context.terminal.serviceLineNumber)}/usage`, { year, month }) },

    // /subscription: the list, "Show them" (over plan), the cards (the list's summary, limit 1), Change Plan's plans.
    ...subscriptionPages(),
    { name: 'subscriptions.plans', path: '/subscriptions/plans' },

    // /customers: the list, its stat cards, a search.
    { name: 'customers.list.page1', path: withQuery('/customers', customerListSearchParams({ page: 1 })) },
    { name: 'customers.stats', path: '/customers/stats' },
    { name: 'customers.search', path: withQuery('/customers', customerListSearchParams({ page: 1, search: context.largeCustomer.name })) },

    // /customer/terminals/<uuid> of the largest customer: the customer, the month's usage table and chart, the assign dialog's list
    // (the whole list before, the count and a first page now; servers without the page route leave it out).
    { name: 'customer.detail', path: `/customers/${customer}` },
    // The table a page at a time (the page called the whole /usage list before; servers without
    // the route leave these two out), as it opens and sorted by usage, the costliest order.
    { name: 'customer.usage', path: withQuery(`/terminals/customers/${customer}/usage/page`, customerUsagePageSearchParams(usageQuery)), optional: true },
    {
      name: 'customer.usage.byUsage',
      path: withQuery(`/terminals/customers/${customer}/usage/page`, customerUsagePageSearchParams({ ...usageQuery, sort: { field: 'usage', order: -1 } })),
      optional: true,
    },
    { name: 'customer.usage.daily', path: withQuery(`/terminals/customers/${customer}/usage/daily`, { start_date: start, end_date: end }) },
    { name: 'customer.terminals', path: `/terminals/customers/${customer}/terminals`, replacedBy: 'customer.terminals.page' },
    // What the Assign Terminals dialog asks since it shows the count and the first of the list.
    { name: 'customer.terminals.page', path: `/terminals/customers/${customer}/terminals/page`, optional: true },

    // /users: the list and its stat cards (the list's answer, limit 1).
    { name: 'users.list.page1', path: withQuery('/users', userListSearchParams({ page: 1 })) },
    { name: 'users.stats', path: withQuery('/users', userListSearchParams({ page: 1, limit: 1 })) },
    ...accountPages(context),
  ];
}

/**
 * With several provider accounts (--accounts N): the Terminals and Subscriptions lists filtered to
 * one account (their Account filter), the names that filter and the lists' Account column offer, and the Provider
 * accounts page (every account with its live counts and last sync). One account: none, as before.
 */
function accountPages(context: PageContext): Page[] {
  if (!context.accounts) return [];
  return [
    { name: 'terminals.list.account', path: withQuery('/terminals', terminalListSearchParams({ page: 1, accountId: context.accounts.filtered.id })) },
    { name: 'subscriptions.list.account', path: withQuery('/subscriptions', subscriptionListSearchParams({ page: 1, accountId: context.accounts.filtered.id })) },
    { name: 'providerAccounts.refs', path: '/provider-accounts/refs' },
    { name: 'providerAccounts.list', path: '/provider-accounts' },
  ];
}
