// What /alerts carries in its URL: `/alerts?status=all&kind=usage&severity=critical&search=AST&page=2`
// (defaults left out). Pure, like src/routes/search-params.ts, so the route tree can validate a URL
// without loading the page.
import { ALERT_KINDS, ALERT_SEARCH_MAX_LENGTH, ALERT_SEVERITIES, ALERT_STATUS_FILTERS, type AlertKind, type AlertSeverity, type AlertStatusFilter } from '../../domain/alerts';

export interface AlertsSearch {
  page?: number;
  search?: string;
  /** Absent: `active` (open and acknowledged). */
  status?: Exclude<AlertStatusFilter, 'active'>;
  kind?: AlertKind;
  severity?: AlertSeverity;
  /** The Account filter: a provider account's id (absent: every account). */
  account?: number;
}

const MAX_PAGE = 1_000_000;
const one = <T extends string>(values: readonly T[], value: unknown): T | undefined =>
  typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined;

/** Every key, undefined for a default: the router lays this over the raw search of the parents. */
export function validateAlertsSearch(search: Record<string, unknown>): AlertsSearch {
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  const raw = typeof search.search === 'string' ? search.search : typeof search.search === 'number' ? String(search.search) : '';
  const text = raw.trim().slice(0, ALERT_SEARCH_MAX_LENGTH);
  const status = one(ALERT_STATUS_FILTERS, search.status);
  const account = typeof search.account === 'number' ? search.account : typeof search.account === 'string' && search.account.trim() !== '' ? Number(search.account) : NaN;
  return {
    page: Number.isInteger(page) && page > 1 && page <= MAX_PAGE ? page : undefined,
    search: text ? text : undefined,
    status: status === 'active' ? undefined : status,
    kind: one(ALERT_KINDS, search.kind),
    severity: one(ALERT_SEVERITIES, search.severity),
    account: Number.isSafeInteger(account) && account >= 1 ? account : undefined,
  };
}
