// What the URL carries for the pages that read search params. Kept apart from the page modules so
// the route tree can validate a URL without loading the (lazily loaded) page itself.
import { CUSTOMER_SEARCH_MAX_LENGTH, CUSTOMER_STATUS_FILTERS, type CustomerStatusFilter } from '../domain/customers';
import { SUBSCRIPTION_PLAN_FILTERS, SUBSCRIPTION_SEARCH_MAX_LENGTH, type SubscriptionPlanFilter } from '../domain/subscriptions';
import { USER_SEARCH_MAX_LENGTH } from '../domain/users';
import { lastTwelveMonths, TERMINAL_ID_PATTERN, TERMINAL_SEARCH_MAX_LENGTH, TERMINAL_STATUS_OPTIONS } from '../domain/terminals';

/** What the URL carries: `/customers?page=2&search=acme&status=blocked` (defaults are left out). */
export interface CustomersSearch {
  page?: number;
  search?: string;
  status?: CustomerStatusFilter;
}

const STATUS_VALUES = new Set<string>(CUSTOMER_STATUS_FILTERS.map((choice) => choice.value));
/** The deepest page the server serves. */
const MAX_PAGE = 1_000_000;

/**
 * Reads whatever is in the address bar; anything unreadable falls back to the default. Every key
 * is returned, undefined for a default: TanStack Router lays a route's validated search over the
 * raw one its parents pass down, so a key left out would let the raw value through.
 */
export function validateCustomersSearch(search: Record<string, unknown>): CustomersSearch {
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  const raw = typeof search.search === 'string' ? search.search : typeof search.search === 'number' ? String(search.search) : '';
  const text = raw.trim().slice(0, CUSTOMER_SEARCH_MAX_LENGTH);
  const status = typeof search.status === 'string' && STATUS_VALUES.has(search.status) ? (search.status as CustomerStatusFilter) : 'all';
  return {
    page: Number.isInteger(page) && page > 1 && page <= MAX_PAGE ? page : undefined,
    search: text ? text : undefined,
    status: status === 'all' ? undefined : status,
  };
}

/**
 * `/terminals?page=2&search=kit&status=active&account=2&terminal=<user terminal id>`: the terminal
 * key opens its details dialog, so a link to one terminal can be shared (STYLE.md #11: a dialog is
 * URL state); `account` is the Account filter (a provider account's id).
 */
export interface TerminalsSearch {
  page?: number;
  search?: string;
  status?: 'active' | 'inactive';
  account?: number;
  terminal?: string;
}

const TERMINAL_STATUS_VALUES = new Set<string>(TERMINAL_STATUS_OPTIONS.map((choice) => choice.value));

export function validateTerminalsSearch(search: Record<string, unknown>): TerminalsSearch {
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  const raw = typeof search.search === 'string' ? search.search : typeof search.search === 'number' ? String(search.search) : '';
  const text = raw.trim().slice(0, TERMINAL_SEARCH_MAX_LENGTH);
  const status = typeof search.status === 'string' && TERMINAL_STATUS_VALUES.has(search.status) ? search.status : 'all';
  const terminal = typeof search.terminal === 'string' ? search.terminal.trim() : '';
  const account = typeof search.account === 'number' ? search.account : typeof search.account === 'string' && search.account.trim() !== '' ? Number(search.account) : NaN;
  return {
    page: Number.isInteger(page) && page > 1 && page <= MAX_PAGE ? page : undefined,
    search: text ? text : undefined,
    status: status === 'active' || status === 'inactive' ? status : undefined,
    account: Number.isSafeInteger(account) && account >= 1 ? account : undefined,
    terminal: TERMINAL_ID_PATTERN.test(terminal) ? terminal : undefined,
  };
}

/**
 * `/customer/terminals/<uuid>?month=2025-3&terminal=<user terminal id>&account=2`: the month shown
 * (one of the last twelve; the current one is left out), the terminal whose details dialog is open
 * and the Account filter (a provider account's id).
 */
export interface CustomerTerminalsSearch {
  month?: string;
  terminal?: string;
  account?: number;
}

export function validateCustomerTerminalsSearch(search: Record<string, unknown>, now: Date = new Date()): CustomerTerminalsSearch {
  const month = typeof search.month === 'string' ? search.month.trim() : '';
  const months = lastTwelveMonths(now);
  const offered = months.some((m) => m.value === month) && month !== months[0]!.value;
  const terminal = typeof search.terminal === 'string' ? search.terminal.trim() : '';
  const account = typeof search.account === 'number' ? search.account : typeof search.account === 'string' && search.account.trim() !== '' ? Number(search.account) : NaN;
  return {
    month: offered ? month : undefined,
    terminal: TERMINAL_ID_PATTERN.test(terminal) ? terminal : undefined,
    account: Number.isSafeInteger(account) && account >= 1 ? account : undefined,
  };
}

/** `/users?search=ana&status=inactive&deleted=true`: what the users list shows (defaults left out). */
export interface UsersSearch {
  search?: string;
  status?: 'active' | 'inactive';
  /** Soft-deleted users are listed too (so they can be restored or deleted for good). */
  deleted?: true;
}

export function validateUsersSearch(search: Record<string, unknown>): UsersSearch {
  const raw = typeof search.search === 'string' ? search.search : typeof search.search === 'number' ? String(search.search) : '';
  const text = raw.trim().slice(0, USER_SEARCH_MAX_LENGTH);
  const status = search.status === 'active' || search.status === 'inactive' ? search.status : undefined;
  const deleted = search.deleted === true || search.deleted === 'true' ? true : undefined;
  return { search: text ? text : undefined, status, deleted };
}

/**
 * `/subscription?page=2&search=ast&plan=1tb&over=true&account=2`: what the subscriptions list shows
 * (defaults left out); `account` is the Account filter (a provider account's id).
 */
export interface SubscriptionsSearch {
  page?: number;
  search?: string;
  plan?: Exclude<SubscriptionPlanFilter, 'all'>;
  /** Only terminals over their plan (the banner's "Show them"). */
  over?: true;
  account?: number;
}

export function validateSubscriptionsSearch(search: Record<string, unknown>): SubscriptionsSearch {
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  const raw = typeof search.search === 'string' ? search.search : typeof search.search === 'number' ? String(search.search) : '';
  const text = raw.trim().slice(0, SUBSCRIPTION_SEARCH_MAX_LENGTH);
  const plan = typeof search.plan === 'string' && (SUBSCRIPTION_PLAN_FILTERS as readonly string[]).includes(search.plan) && search.plan !== 'all'
    ? (search.plan as Exclude<SubscriptionPlanFilter, 'all'>)
    : undefined;
  const account = typeof search.account === 'number' ? search.account : typeof search.account === 'string' && search.account.trim() !== '' ? Number(search.account) : NaN;
  return {
    page: Number.isInteger(page) && page > 1 && page <= MAX_PAGE ? page : undefined,
    search: text ? text : undefined,
    plan,
    over: search.over === true || search.over === 'true' ? true : undefined,
    account: Number.isSafeInteger(account) && account >= 1 ? account : undefined,
  };
}

export interface SetPasswordSearch {
  token?: string;
}

export function validateSetPasswordSearch(search: Record<string, unknown>): SetPasswordSearch {
  const token = typeof search.token === 'string' ? search.token.trim() : typeof search.token === 'number' ? String(search.token) : '';
  // Every key, undefined when absent: the router lays this over the raw search of the parents.
  return { token: token ? token : undefined };
}
