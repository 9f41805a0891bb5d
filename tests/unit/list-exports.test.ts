// The list exports' paging and columns without a server: pagedCsv reads page after page until one
// comes back short (one more read when the last page is full, the header alone when nothing
// matches), and a refused first read rejects before any line; the columns write what the tables
// show (words for statuses, empty cells for dashes, GB with one decimal, money with two).
import { describe, expect, it } from 'vitest';
import type { AlertWire } from '../../src/domain/alerts';
import type { TerminalUsageRecord } from '../../src/domain/customer-terminals';
import { csvLine, type CsvColumn } from '../../src/domain/csv';
import { ALERTS_EXPORT, CUSTOMER_USAGE_EXPORT, listExportFileName, SUBSCRIPTIONS_EXPORT, TERMINALS_EXPORT } from '../../src/domain/list-exports';
import type { SubscriptionWire } from '../../src/domain/subscriptions';
import type { TerminalRowWire } from '../../src/domain/terminals';
import { pagedCsv } from '../../server/services/list-exports';

const numbers: CsvColumn<number>[] = [{ header: 'n', value: (n) => n }];

async function collect(lines: AsyncIterable<string>) {
  let text = '';
  for await (const chunk of lines) text += chunk;
  return text;
}

/** A list of `total` numbers read `pageSize` at a time, remembering the pages asked for. */
function listOf(total: number) {
  const asked: number[] = [];
  const read = async (page: number, limit: number) => {
    asked.push(page);
    return Array.from({ length: Math.max(0, Math.min(limit, total - (page - 1) * limit)) }, (_, i) => (page - 1) * limit + i + 1);
  };
  return { asked, read };
}

describe('pagedCsv', () => {
  it('writes the header then every row, reading until a page comes back short', async () => {
    const list = listOf(5);
    expect(await collect(await pagedCsv(numbers, list.read, 2))).toBe('n\r\n1\r\n2\r\n3\r\n4\r\n5\r\n');
    expect(list.asked).toEqual([1, 2, 3]);
  });

  it('reads one more page when the last one is full, and finds it empty', async () => {
    const list = listOf(4);
    expect(await collect(await pagedCsv(numbers, list.read, 2))).toBe('n\r\n1\r\n2\r\n3\r\n4\r\n');
    expect(list.asked).toEqual([1, 2, 3]);
  });

  it('answers a filter that matches nothing with the header alone', async () => {
    expect(await collect(await pagedCsv(numbers, listOf(0).read, 2))).toBe('n\r\n');
  });

  it('rejects before the file starts when the first read is refused', async () => {
    await expect(pagedCsv(numbers, () => Promise.reject(new Error('no such customer')), 2)).rejects.toThrow('no such customer');
  });
});

describe('the list export columns', () => {
  const cells = <Row>(columns: readonly CsvColumn<Row>[], row: Row) => csvLine(columns, row).trimEnd().split(',');

  it('names a file after the list and the UTC day', () => {
    expect(listExportFileName('customer-usage', new Date('2026-03-02T23:30:00Z'))).toBe('customer-usage-2026-03-02.csv');
  });

  it("writes a terminal's owner as the list does: the customer's name, or Unassigned", () => {
    const base = { user_terminal_id: 'UT1', service_line_number: 'AST-1', active: false, sync_status: 'error', account_name: 'Demo US' } as TerminalRowWire;
    expect(cells(TERMINALS_EXPORT.columns, { ...base, assigned_to: null, assigned_to_customer: null })).toEqual(['AST-1', 'UT1', 'Unassigned', '', 'Inactive', 'Sync error', 'Demo US']);
    expect(cells(TERMINALS_EXPORT.columns, { ...base, assigned_to: 'c-1', assigned_to_customer: 'Acme' }).slice(2, 4)).toEqual(['Acme', 'c-1']);
  });

  it('writes GB with one decimal and money with two, in GB whatever the screen abbreviates', () => {
    const s = { terminalId: 'UT1', serviceLineNumber: 'AST-1', location: null, terminalType: null, plan: '1 TB', monthlyDataGB: 1000, usedGB: 1057.25, remainingGB: 0, overageGB: 57.25, overageCharges: 286.25, currency: 'EUR', status: 'Over Plan', forecast: null, accountName: 'Demo Brasil' } as SubscriptionWire;
    expect(cells(SUBSCRIPTIONS_EXPORT.columns, s)).toEqual(['UT1', 'AST-1', '', '', '1 TB', '1000.0', '1057.3', '0.0', '57.3', '286.25', 'EUR', '', '', '', 'Over Plan', 'Demo Brasil']);
  });

  it("leaves a usage row's figures empty when the month has no billing cycle, as the table's dashes", () => {
    const r = { terminalId: 'UT1', serviceLineNumber: 'AST-1', location: 'Porto', terminalType: null, plan: null, status: 'Active', dataCap: null, currentBillingCycle: null } as TerminalUsageRecord;
    expect(cells(CUSTOMER_USAGE_EXPORT.columns, r)).toEqual(['AST-1', 'UT1', 'Porto', '', '', '', '', '', '', '', '', 'Active']);
  });

  it("writes an alert's severity and status as words and its target as the page names it", () => {
    const a = { severity: 'critical', status: 'acknowledged', title: '90 % of plan used', message: 'm', targetType: 'line', targetKey: 'AST-1', serviceLineNumber: 'AST-1', userTerminalId: null, customer: null, acknowledgedBy: 'Ana', openedAt: '2026-03-02T09:00:00.000Z' } as AlertWire;
    expect(cells(ALERTS_EXPORT.columns, a)).toEqual(['Critical', '90 % of plan used', 'm', 'Line AST-1', '', '', 'Acknowledged', 'Ana', '2026-03-02T09:00:00.000Z']);
  });
});
