// The bulk actions page (/bulk) through the whole client (router, session, bulk action machine,
// views) over a fake portal API at the fetch seam: a pasted CSV previewed row by row, run, followed
// to its per-row results, filtered and exported; an uploaded file; a refused preview; a recent
// operation opened from the list and from a link; the menu entry every portal user sees.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BULK_MESSAGES, type BulkOperationWire } from '../../src/domain/bulk';
import { formatDateTime } from '../../src/ui/common/format';
import { EXPORT_TEXTS } from '../../src/ui/common/ExportButton';
import { BULK_TEXTS as T } from '../../src/ui/bulk/parts';
import { adminProfile, profileWithRoles } from '../machines/fixtures';
import { fakePortalApi, type FakeAnswer } from '../model/framework/screen';
import {
  ASSIGN_CSV,
  assignPreview,
  doneOperation,
  envelope,
  halfwayOperation,
  OPEN_QUOTE_CSV,
  OPERATION_ID,
  refusalBody,
  resultRows,
  rowsPage,
  startedOperation,
} from '../fixtures/bulk';
import { captureDownloads } from './downloads';
import { openSignedInAt } from './open-app';

const operationPath = `/api/v1/bulk/${OPERATION_ID}`;

/** The page over a fake portal: `reads` answers GET /bulk/:id in turn (the last repeating). */
function openBulk(path = '/bulk', { answers = {}, reads = [halfwayOperation, doneOperation], recent = [] as BulkOperationWire[], profile = adminProfile } = {}) {
  const bodies: Record<string, unknown[]> = {};
  const rowQueries: Record<string, string>[] = [];
  const exportQueries: Record<string, string>[] = [];
  let read = 0;
  const api = fakePortalApi(
    {
      'GET /api/v1/alerts/bell': { body: envelope({ unread: 0, open: 0, latest: [] }) },
      'GET /api/v1/bulk': { body: envelope(recent) },
      'POST /api/v1/bulk/preview': ({ body }) => {
        (bodies.preview ??= []).push(body);
        return { body: envelope(assignPreview, BULK_MESSAGES.previewed) };
      },
      'POST /api/v1/bulk': ({ body }) => {
        (bodies.start ??= []).push(body);
        return { status: 202, body: envelope({ operation: startedOperation }, BULK_MESSAGES.started(2)) };
      },
      [`GET ${operationPath}`]: () => ({ body: envelope(reads[Math.min(read++, reads.length - 1)]) }),
      [`GET ${operationPath}/rows`]: ({ url }) => {
        const query = Object.fromEntries(url.searchParams);
        rowQueries.push(query);
        const rows = query.status ? resultRows.filter((row) => row.status === query.status) : resultRows;
        return { body: envelope(rowsPage(rows)) };
      },
      ...answers,
    } satisfies Record<string, FakeAnswer>,
    profile,
  );
  // The export answers a file, not an envelope: the fake portal answers JSON only.
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== `${operationPath}/rows/export.csv`) return api.fetch(input, init);
    exportQueries.push(Object.fromEntries(url.searchParams));
    return new Response('Line,customer,service_line,Status,Message\r\n', { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="bulk-failed.csv"` } });
  };
  const page = openSignedInAt(path, fetch, { profile });
  return { ...page, calls: api.calls, bodies, rowQueries, exportQueries };
}

const csvBox = () => screen.getByLabelText(T.csvLabel) as HTMLTextAreaElement;
const button = (name: string | RegExp) => screen.getByRole('button', { name }) as HTMLButtonElement;
const table = (name: string) => within(screen.getByRole('table', { name }));
/** The table row whose first cell is `line`. */
const rowOfLine = (name: string, line: number) => table(name).getAllByRole('row').find((row) => within(row).queryAllByRole('cell')[0]?.textContent === String(line))!;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Bulk actions page', () => {
  it('previews a pasted CSV with per-row problems, runs it, shows progress, then per-row results filtered by status and exported', async () => {
    const saved = captureDownloads();
    const { user, location, bodies, rowQueries, exportQueries } = openBulk();
    await screen.findByRole('heading', { name: T.editorTitle });
    expect(button(T.preview).disabled).toBe(true);

    // A file that cannot be read says why at once, and cannot be previewed.
    await user.click(csvBox());
    await user.paste(OPEN_QUOTE_CSV);
    expect(screen.getByText(BULK_MESSAGES.unclosedQuote(2))).toBeTruthy();
    expect(csvBox().getAttribute('aria-invalid')).toBe('true');
    expect(button(T.preview).disabled).toBe(true);

    await user.clear(csvBox());
    await user.paste(ASSIGN_CSV);
    expect(screen.queryByText(BULK_MESSAGES.unclosedQuote(2))).toBeNull();
    await user.click(button(T.preview));

    await screen.findByRole('table', { name: T.previewTable });
    expect(bodies.preview).toEqual([{ kind: 'assign', csv: ASSIGN_CSV }]);
    expect(screen.getByText('2 ready, 1 with a problem')).toBeTruthy();
    expect(within(rowOfLine(T.previewTable, 2)).getByText('Assign AST-1234-5678 to cora@example.com')).toBeTruthy();
    const problemRow = within(rowOfLine(T.previewTable, 3));
    expect(problemRow.getByText(BULK_MESSAGES.serviceLineInvalid)).toBeTruthy();
    expect(problemRow.getByText(T.skipped)).toBeTruthy();

    await user.click(button('Run 2 rows'));
    // The first reading: the job under way, with its progress.
    const progress = await screen.findByRole('progressbar', { name: T.progressLabel });
    expect(bodies.start).toEqual([{ kind: 'assign', csv: ASSIGN_CSV }]);
    await waitFor(() => expect(location()).toBe(`/bulk?operation=${OPERATION_ID}`));
    expect(screen.getByText(BULK_MESSAGES.started(2))).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/2 of 3 rows done/)).toBeTruthy(), { timeout: 3000 });
    expect(progress.getAttribute('aria-valuenow')).toBe('66');

    // Done: the results, a page at a time.
    const results = await screen.findByRole('table', { name: T.resultsTable }, { timeout: 3000 });
    expect(screen.queryByRole('progressbar')).toBeNull();
    const failedRow = within(rowOfLine(T.resultsTable, 4));
    expect(failedRow.getByText('Failed')).toBeTruthy();
    expect(failedRow.getByText('The service line is already assigned to another customer')).toBeTruthy();
    expect(within(results).getAllByRole('row')).toHaveLength(1 + resultRows.length);
    // (StrictMode starts the results list twice: the first read is dropped with its actor.)
    expect(new Set(rowQueries.map((query) => JSON.stringify(query)))).toEqual(new Set([JSON.stringify({ page: '1', limit: '50' })]));

    await user.click(button('Failed'));
    await waitFor(() => expect(rowQueries.at(-1)).toEqual({ page: '1', limit: '50', status: 'failed' }));
    await waitFor(() => expect(table(T.resultsTable).getAllByRole('row')).toHaveLength(2));

    await user.click(button(EXPORT_TEXTS.exportCsv));
    await waitFor(() => expect(saved.map((file) => file.name)).toEqual(['bulk-failed.csv']));
    expect(exportQueries).toEqual([{ status: 'failed' }]);

    // New bulk action: an empty editor, and the address names no operation.
    await user.click(button(T.newAction));
    await waitFor(() => expect(location()).toBe('/bulk'));
    expect(csvBox().value).toBe('');
  });

  it('reads an uploaded file into the box and names it', async () => {
    const { user } = openBulk();
    await screen.findByRole('heading', { name: T.editorTitle });
    await user.upload(screen.getByLabelText(T.uploadLabel), new File([ASSIGN_CSV], 'lines.csv', { type: 'text/csv' }));
    await waitFor(() => expect(csvBox().value).toBe(ASSIGN_CSV));
    expect(screen.getByText(T.readFrom('lines.csv'))).toBeTruthy();
    expect(button(T.preview).disabled).toBe(false);
  });

  it('checks the file against the action chosen', async () => {
    const { user } = openBulk();
    await screen.findByRole('heading', { name: T.editorTitle });
    await user.click(csvBox());
    await user.paste(ASSIGN_CSV);
    await user.click((screen.getByLabelText(T.actionLabel) as HTMLElement).closest('.p-dropdown')!);
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Block customers' }));
    expect(await screen.findByText(BULK_MESSAGES.unknownColumn('service_line'))).toBeTruthy();
    expect(screen.getByText('reason', { selector: 'code' })).toBeTruthy();
    expect(button(T.preview).disabled).toBe(true);
  });

  it("shows the server's refusal of a preview, and Edit goes back to the CSV", async () => {
    const { user } = openBulk('/bulk', {
      answers: { 'POST /api/v1/bulk/preview': { status: 400, body: refusalBody(BULK_MESSAGES.missingColumn('customer'), [{ path: 'csv', message: BULK_MESSAGES.missingColumn('customer') }]) } },
    });
    await screen.findByRole('heading', { name: T.editorTitle });
    await user.click(csvBox());
    await user.paste(ASSIGN_CSV);
    await user.click(button(T.preview));
    expect(await screen.findByText(BULK_MESSAGES.missingColumn('customer'))).toBeTruthy();
    expect(screen.getByRole('heading', { name: T.previewFailed })).toBeTruthy();
    expect(csvBox().disabled).toBe(true);
    await user.click(button(T.editCsv));
    await waitFor(() => expect(csvBox().disabled).toBe(false));
    expect(csvBox().value).toBe(ASSIGN_CSV);
  });

  it('opens a recent bulk action from the list, and from a link', async () => {
    const { user, location } = openBulk('/bulk', { reads: [doneOperation], recent: [doneOperation] });
    const recent = await screen.findByRole('table', { name: T.recentTable });
    expect(within(recent).getByText('1 done, 1 failed, 1 skipped')).toBeTruthy();
    await user.click(within(recent).getByRole('button', { name: T.openLabel(doneOperation, formatDateTime(doneOperation.createdAt)) }));
    await screen.findByRole('table', { name: T.resultsTable });
    expect(location()).toBe(`/bulk?operation=${OPERATION_ID}`);
    expect(screen.getByRole('heading', { name: 'Assign service lines: done' })).toBeTruthy();
  });

  it('shows the results of the finished operation a link names', async () => {
    openBulk(`/bulk?operation=${OPERATION_ID}`, { reads: [doneOperation] });
    expect(await screen.findByRole('table', { name: T.resultsTable })).toBeTruthy();
  });

  it('says a linked operation cannot be found, with a way to a new one', async () => {
    const { user, location } = openBulk(`/bulk?operation=${OPERATION_ID}`, { answers: { [`GET ${operationPath}`]: { status: 404, body: refusalBody(BULK_MESSAGES.notFound) } } });
    expect(await screen.findByText(BULK_MESSAGES.notFound)).toBeTruthy();
    await user.click(button(T.newAction));
    await waitFor(() => expect(location()).toBe('/bulk'));
    expect(await screen.findByLabelText(T.csvLabel)).toBeTruthy();
  });

  it('is in the menu after the line changes (Requests, Automatic actions, Schedule) for a Technical user, who may use it', async () => {
    const { user } = openBulk('/bulk', { profile: profileWithRoles('technical') });
    await screen.findByRole('heading', { name: T.editorTitle });
    const links = screen.getAllByRole('link').map((link) => link.textContent?.trim());
    expect(links.indexOf('Bulk actions')).toBe(links.indexOf('Requests') + 3);
    expect(links.indexOf('Schedule')).toBe(links.indexOf('Requests') + 2);
    await user.click(csvBox());
    await user.paste(ASSIGN_CSV);
    expect(button(T.preview).disabled).toBe(false);
  });
});
