// The CSV export of every list page: the whole filtered set, read through the list's own
// service read (the same filter, order and rows as its pages) a page of EXPORT_PAGE_SIZE at a
// time, written with the list's columns (src/domain/list-exports.ts) and streamed as it is read.
// Offset paging: a row written or deleted while a large export runs may shift one page's window;
// an export is a reading of a moment, as a page of the list is.
import { csvHeader, csvLine, type CsvColumn } from '../../src/domain/csv';
import {
  ALERTS_EXPORT,
  CUSTOMER_USAGE_EXPORT,
  CUSTOMERS_EXPORT,
  listExportFileName,
  SUBSCRIPTIONS_EXPORT,
  TERMINALS_EXPORT,
  USERS_EXPORT,
  type ListExport,
} from '../../src/domain/list-exports';
import type { Clock } from '../clock';
import type { AlertListQuery, AlertsService } from './alerts';
import type { CustomerTerminalsService, CustomerUsagePageRequest } from './customer-terminals';
import type { CustomerListParams, CustomersService } from './customers';
import type { SubscriptionListQuery, SubscriptionsService } from './subscriptions';
import type { TerminalListParams, TerminalsService } from './terminals';
import type { UserListParams, UsersService } from './users';

export const EXPORT_PAGE_SIZE = 500;

/** One page (1-based) of a list's rows, as its service reads it. */
export type PageRead<Row> = (page: number, limit: number) => Promise<readonly Row[]>;

/** A list's filter: its query without the paging, which the export does itself. */
export type ExportFilter<Query> = Omit<Query, 'page' | 'limit'>;

export interface CsvFile {
  filename: string;
  /** The header row, then the rows a page at a time. */
  lines: AsyncIterable<string>;
}

/**
 * Every row `read` gives, page after page until a page comes back short, as CSV. The first page
 * is read before this resolves: a refusal (an unknown customer's 404) is then the answer, where
 * once the file had started it could only cut the file short.
 */
export async function pagedCsv<Row>(columns: readonly CsvColumn<Row>[], read: PageRead<Row>, pageSize = EXPORT_PAGE_SIZE): Promise<AsyncIterable<string>> {
  const first = await read(1, pageSize);
  async function* lines() {
    yield csvHeader(columns);
    let rows = first;
    for (let page = 1; ; ) {
      if (rows.length > 0) yield rows.map((row) => csvLine(columns, row)).join('');
      if (rows.length < pageSize) return;
      rows = await read(++page, pageSize);
    }
  }
  return lines();
}

export function createListExportsService(deps: {
  now: Clock;
  customers: CustomersService;
  terminals: TerminalsService;
  subscriptions: SubscriptionsService;
  users: UsersService;
  customerTerminals: CustomerTerminalsService;
  alerts: AlertsService;
}) {
  const file = async <Row>(list: ListExport<Row>, read: PageRead<Row>): Promise<CsvFile> => ({
    filename: listExportFileName(list.name, deps.now()),
    lines: await pagedCsv(list.columns, read),
  });

  return {
    customers: (filter: ExportFilter<CustomerListParams>) =>
      file(CUSTOMERS_EXPORT, async (page, limit) => (await deps.customers.list({ ...filter, page, limit })).customers),
    terminals: (filter: ExportFilter<TerminalListParams>) =>
      file(TERMINALS_EXPORT, async (page, limit) => (await deps.terminals.list({ ...filter, page, limit })).results),
    subscriptions: (filter: ExportFilter<SubscriptionListQuery>) =>
      file(SUBSCRIPTIONS_EXPORT, async (page, limit) => (await deps.subscriptions.list({ ...filter, page, limit })).subscriptions),
    users: (filter: ExportFilter<UserListParams>) => file(USERS_EXPORT, async (page, limit) => (await deps.users.list({ ...filter, page, limit })).users),
    customerUsage: (customerUuid: string, filter: ExportFilter<CustomerUsagePageRequest>) =>
      file(CUSTOMER_USAGE_EXPORT, async (page, limit) => (await deps.customerTerminals.usagePage(customerUuid, { ...filter, page, limit })).records),
    alerts: (filter: ExportFilter<AlertListQuery>) => file(ALERTS_EXPORT, async (page, limit) => (await deps.alerts.list({ ...filter, page, limit })).alerts),
  };
}

export type ListExportsService = ReturnType<typeof createListExportsService>;
