// The bulk actions' reading of a CSV (src/domain/bulk.ts), the same on the page and the server:
// records as people paste or export them, the header found or not, each row's problem, repeats,
// and the files refused whole.
import { describe, expect, it } from 'vitest';
import { BULK_MAX_CHARS, BULK_MAX_ROWS, BULK_MESSAGES, bulkActionText, bulkDays, bulkProgress, parseBulkCsv, readCsvRecords } from '../../src/domain/bulk';

const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('readCsvRecords', () => {
  it('reads LF and CRLF lines, quoted fields with commas, quotes and line breaks, and skips blank lines', () => {
    const text = '\uFEFFa,b\r\n"x, y","say ""hi"""\n\n"two\nlines",last';
    const read = readCsvRecords(text);
    expect(read).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['x, y', 'say "hi"'] },
        { line: 4, fields: ['two\nlines', 'last'] },
      ],
    });
  });

  it('numbers a record after a quoted line break by the line it starts on', () => {
    const read = readCsvRecords('"a\nb",1\nc,2\n');
    expect(read.ok && read.records.map((r) => r.line)).toEqual([1, 3]);
  });

  it('refuses a quote left open, naming its line', () => {
    expect(readCsvRecords('a,b\n"c,d\n')).toEqual({ ok: false, message: BULK_MESSAGES.unclosedQuote(2) });
  });
});

describe('parseBulkCsv', () => {
  it('finds the header in any order and by its aliases', () => {
    const parsed = parseBulkCsv('assign', 'Service Line Number,Email\nAST-1-2,a@b.test\n');
    expect(parsed).toEqual({ ok: true, rows: [{ line: 2, input: { serviceLine: 'AST-1-2', customer: 'a@b.test' }, problem: null }] });
  });

  it('reads a file without a header in the kind’s column order', () => {
    const parsed = parseBulkCsv('change-plan', 'AST-1-2,SUB-METERED-50GB');
    expect(parsed).toEqual({ ok: true, rows: [{ line: 1, input: { serviceLine: 'AST-1-2', plan: 'SUB-METERED-50GB' }, problem: null }] });
  });

  it("gives each row its problem and keeps the rest", () => {
    const parsed = parseBulkCsv(
      'extend',
      ['customer,days', `${UUID},30`, 'not-an-email,30', 'a@b.test,0', 'c@d.test,12.5', 'e@f.test,', 'E@F.TEST,10', ',5'].join('\n'),
    );
    expect(parsed.ok && parsed.rows.map((r) => [r.line, r.problem])).toEqual([
      [2, null],
      [3, BULK_MESSAGES.customerInvalid],
      [4, BULK_MESSAGES.daysInvalid],
      [5, BULK_MESSAGES.daysInvalid],
      [6, null],
      // The same customer twice (emails compare without case) is one piece of work.
      [7, BULK_MESSAGES.repeats(6)],
      [8, BULK_MESSAGES.missing('customer')],
    ]);
  });

  it('needs a reason to block, within the length the single block takes', () => {
    const parsed = parseBulkCsv('block', `customer,reason\na@b.test,\nc@d.test,${'x'.repeat(501)}\ne@f.test,Unpaid`);
    expect(parsed.ok && parsed.rows.map((r) => r.problem)).toEqual([BULK_MESSAGES.missing('reason'), BULK_MESSAGES.reasonTooLong, null]);
  });

  it('refuses a file whole when its header names a column the action does not read, or lacks one it needs', () => {
    expect(parseBulkCsv('unblock', 'customer,colour\na@b.test,red')).toEqual({ ok: false, message: BULK_MESSAGES.unknownColumn('colour') });
    expect(parseBulkCsv('assign', 'service_line\nAST-1-2')).toEqual({ ok: false, message: BULK_MESSAGES.missingColumn('customer') });
    expect(parseBulkCsv('assign', 'customer,service_line\n')).toEqual({ ok: false, message: BULK_MESSAGES.empty });
    expect(parseBulkCsv('assign', '')).toEqual({ ok: false, message: BULK_MESSAGES.empty });
  });

  it('refuses more rows, or more text, than one run takes', () => {
    const many = Array.from({ length: BULK_MAX_ROWS + 1 }, (_, i) => `c${i}@d.test`).join('\n');
    expect(parseBulkCsv('unblock', many)).toEqual({ ok: false, message: BULK_MESSAGES.tooMany(BULK_MAX_ROWS + 1) });
    expect(parseBulkCsv('unblock', 'a'.repeat(BULK_MAX_CHARS + 1))).toEqual({ ok: false, message: BULK_MESSAGES.tooLong });
    const most = Array.from({ length: BULK_MAX_ROWS }, (_, i) => `c${i}@d.test`).join('\n');
    expect(parseBulkCsv('unblock', most).ok).toBe(true);
  });
});

describe('the words and figures around a run', () => {
  it('says what a row will do', () => {
    expect(bulkActionText('assign', { customer: 'a@b.test', serviceLine: 'AST-1' }, { customer: 'Ana (a@b.test)' })).toBe('Assign AST-1 to Ana (a@b.test)');
    expect(bulkActionText('extend', { customer: 'a@b.test' }, {})).toBe(`Extend a@b.test by ${bulkDays({})} days`);
    expect(bulkActionText('change-plan', { serviceLine: 'AST-1', plan: 'SUB-1' }, { plan: 'Local Priority 50 GB' })).toBe('Move AST-1 to Local Priority 50 GB');
  });

  it('rounds progress down, so 100 means every row', () => {
    expect(bulkProgress({ done: 499, total: 500 })).toBe(99);
    expect(bulkProgress({ done: 500, total: 500 })).toBe(100);
    expect(bulkProgress({ done: 0, total: 0 })).toBe(100);
  });
});
