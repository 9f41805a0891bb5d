// What /billing/statements carries in its URL:
// `/billing/statements?cycle=2026-03&status=closed&customer=<uuid>&search=acme&page=2` (defaults left
// out). Pure, like src/routes/search-params.ts, so the route tree can validate a URL without
// loading the page.
import { isCycle, type StatementStatus } from '../../../domain/billing';

export const STATEMENT_SEARCH_MAX_LENGTH = 100;
export const STATEMENTS_PAGE_SIZE = 25;

export interface StatementsSearch {
  /** Absent: the newest cycle that has statements. */
  cycle?: string;
  /** Absent: draft and closed. */
  status?: StatementStatus;
  /** One customer's statements (their uuid). */
  customer?: string;
  search?: string;
  page?: number;
}

const MAX_PAGE = 1_000_000;
const CUSTOMER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every key, undefined for a default: the router lays this over the raw search of the parents. */
export function validateStatementsSearch(search: Record<string, unknown>): StatementsSearch {
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  const raw = typeof search.search === 'string' ? search.search : typeof search.search === 'number' ? String(search.search) : '';
  const text = raw.trim().slice(0, STATEMENT_SEARCH_MAX_LENGTH);
  const cycle = typeof search.cycle === 'string' && isCycle(search.cycle) ? search.cycle : undefined;
  const customer = typeof search.customer === 'string' && CUSTOMER_ID.test(search.customer.trim()) ? search.customer.trim() : undefined;
  return {
    cycle,
    status: search.status === 'draft' || search.status === 'closed' ? search.status : undefined,
    customer,
    search: text ? text : undefined,
    page: Number.isInteger(page) && page > 1 && page <= MAX_PAGE ? page : undefined,
  };
}
