// The fake portal API a customer's terminals page (/customer/terminals/{uuid}) needs, for the models
// of the machines that run on it (customerUsage, assignTerminals): whichever machine a run drives
// has its actors answered by the path, and the other one talks to these answers.
import { vi } from 'vitest';
import {
  CUSTOMER_USAGE_PAGE_SIZE,
  summariseUsage,
  visibleUsageRecords,
  type CustomerUsageSortField,
  type CustomerUsageStatusFilter,
  type TerminalUsageRecord,
} from '../../../src/domain/customer-terminals';
import { paginationOf } from '../../../src/domain/customers';
import { CUSTOMER_UUID, assignedPageOf, assignedTerminal, usageRecord } from '../../fixtures/customer-terminals-client';
import type { FakeAnswer } from '../framework/screen';

/** The customer as the page's header (and the Assign Terminals dialog) shows it. */
export const PAGE_CUSTOMER = { uuid: CUSTOMER_UUID, name: 'Nina Park', company: 'Northwind Shipping', email: 'ops@northwind.example' };
export const PAGE_PATH = `/customer/terminals/${CUSTOMER_UUID}`;

/** The line the customer holds, and the one the fake server assigns when asked. */
export const HELD_LINE = 'AST-511274-31364-54';
export const FREE_LINE = 'AST-622190-48211-07';

const ok = (data: unknown, message = 'ok') => ({ body: { success: true, message, data } });
const base = `/api/v1/terminals/customers/${CUSTOMER_UUID}`;

/**
 * More rows than a page holds, so the table has a second page. The held line sorts first by
 * service line and by usage, and every row is an Active one in Rotterdam: the model's search,
 * filter and sort keep it on the first page, where it can be unassigned.
 */
export const pageRecords: TerminalUsageRecord[] = [
  usageRecord({ used: 300, total: 1000 }, { serviceLineNumber: HELD_LINE }),
  ...Array.from({ length: CUSTOMER_USAGE_PAGE_SIZE + 4 }, (_, i) =>
    usageRecord({ used: 400 + 10 * i, total: 1000 }, { terminalId: `UT-9${String(i).padStart(7, '0')}`, serviceLineNumber: `AST-9${String(i).padStart(5, '0')}-00000-00` }),
  ),
];

/** The server's usage table: the page the query asks for, and the cards over every row. */
function usagePage(url: URL) {
  const q = url.searchParams;
  const page = Number(q.get('page') ?? 1);
  const limit = Number(q.get('limit') ?? CUSTOMER_USAGE_PAGE_SIZE);
  const field = q.get('sort') as CustomerUsageSortField | null;
  const rows = visibleUsageRecords(pageRecords, {
    search: q.get('search') ?? '',
    status: (q.get('status') ?? 'all') as CustomerUsageStatusFilter,
    sort: field ? { field, order: q.get('order') === 'desc' ? -1 : 1 } : null,
  });
  return {
    records: rows.slice((page - 1) * limit, page * limit),
    pagination: paginationOf(rows.length, page, limit),
    summary: summariseUsage(pageRecords),
  };
}

export function customerPageAnswers(): Record<string, FakeAnswer> {
  return {
    [`GET /api/v1/customers/${CUSTOMER_UUID}`]: ok({
      customer: { ...PAGE_CUSTOMER, isActive: true, blockedEnabled: false, mfaEnabled: false, accountExpiresAt: null },
    }),
    [`GET ${base}/usage/page`]: ({ url }) => ok(usagePage(url)),
    [`GET ${base}/usage/daily`]: ({ url }) => ok([{ date: url.searchParams.get('start_date'), priorityGB: 4.5, standardGB: 1.25 }]),
    [`GET ${base}/terminals/page`]: ok(assignedPageOf([assignedTerminal({ serviceLine: HELD_LINE })])),
    'POST /api/v1/terminals/customers/assign-terminals': ({ body }) => {
      const lines = (body as { serviceLineNumbers: string[] }).serviceLineNumbers;
      return ok({ assigned: lines, failed: [], total: lines.length });
    },
  };
}

/**
 * Spec 8: the page only logs a failed usage or assigned-terminals fetch. The runs answer many of
 * them on purpose; those lines are dropped (the spy is restored after each test), any other kept.
 */
export function muteExpectedFetchLogs() {
  const warn = console.warn.bind(console);
  vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === 'string' && /^Failed to (load customer usage|fetch assigned terminals):/.test(args[0])) return;
    warn(...args);
  });
}
