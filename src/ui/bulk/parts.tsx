// What the bulk actions page's parts share: its words, a sample file per action, the input
// columns a table shows for an action, and the row status tag.
import { Tag } from 'primereact/tag';
import {
  BULK_COLUMNS,
  BULK_KIND_LABELS,
  BULK_ROW_STATUS_LABELS,
  type BulkColumn,
  type BulkKind,
  type BulkOperationWire,
  type BulkRowInput,
  type BulkRowStatus,
} from '../../domain/bulk';
import { count } from '../common/format';

export const BULK_TEXTS = {
  editorTitle: 'New bulk action',
  actionLabel: 'Action',
  columnsTitle: 'Columns',
  optional: 'optional',
  headerNote: 'A header row naming the columns is optional; without one, the columns come in this order.',
  sampleTitle: 'Sample',
  csvLabel: 'CSV',
  csvPlaceholder: 'Paste the rows here, or upload a file',
  uploadLabel: 'Upload CSV',
  readFrom: (name: string) => `Read from ${name}`,
  preview: 'Preview',
  previewing: 'Previewing...',
  previewTitle: 'Preview',
  previewFailed: 'Could not preview the file',
  editCsv: 'Edit the CSV',
  counts: (ready: number, problems: number) => `${count(ready)} ready, ${count(problems)} with ${problems === 1 ? 'a problem' : 'problems'}`,
  run: (rows: number) => `Run ${count(rows)} ${rows === 1 ? 'row' : 'rows'}`,
  starting: 'Starting...',
  startFailed: 'Could not start the bulk action',
  line: 'Line',
  willHappen: 'What will happen',
  skipped: 'Skipped',
  previewTable: 'Preview of the rows',
  operationHeading: 'Bulk action',
  opening: 'Loading the bulk action...',
  loadFailed: 'Could not read the bulk action',
  newAction: 'New bulk action',
  running: 'Running',
  done: 'Done',
  progressLabel: 'Progress of the bulk action',
  progress: (done: number, total: number) => `${count(done)} of ${count(total)} ${total === 1 ? 'row' : 'rows'} done`,
  outcome: (operation: Pick<BulkOperationWire, 'succeeded' | 'failed' | 'skipped'>) =>
    `${count(operation.succeeded)} done, ${count(operation.failed)} failed, ${count(operation.skipped)} skipped`,
  finishedToast: (operation: BulkOperationWire) => `${BULK_KIND_LABELS[operation.kind]} finished: ${BULK_TEXTS.outcome(operation)}`,
  startedFallback: 'Bulk action started',
  operationTitle: (operation: Pick<BulkOperationWire, 'kind' | 'status'>) => `${BULK_KIND_LABELS[operation.kind]}: ${operation.status === 'done' ? 'done' : 'running'}`,
  startedAt: (when: string) => `Started ${when}`,
  resultsTitle: 'Results',
  resultsTable: 'Results of the rows',
  statusFilter: 'Show rows',
  status: 'Status',
  message: 'Message',
  noResults: 'No rows with this status.',
  loadingResults: 'Loading the results...',
  resultsFailed: 'Could not load the results',
  exportFailed: 'Could not export the results',
  recentTitle: 'Recent bulk actions',
  recentTable: 'Recent bulk actions',
  /** How a row is named, e.g. for its "More about …" toggle on a phone. */
  rowName: (line: number) => `line ${line}`,
  recentEmpty: 'No bulk actions yet.',
  recentLoading: 'Loading the recent bulk actions...',
  recentFailed: 'Could not load the recent bulk actions',
  started: 'Started',
  rows: 'Rows',
  result: 'Result',
  open: 'Open',
  openLabel: (operation: BulkOperationWire, when: string) => `Open ${BULK_KIND_LABELS[operation.kind]} started ${when}`,
} as const;

/** A row of each action's sample file: valid, so the sample previews as it reads. */
const SAMPLE_VALUES: Record<BulkKind, readonly string[][]> = {
  assign: [
    ['cora@example.com', 'AST-1234-5678'],
    ['dan@example.com', 'AST-2345-6789'],
  ],
  block: [
    ['cora@example.com', 'Unpaid invoice'],
    ['dan@example.com', 'Asked to pause service'],
  ],
  unblock: [['cora@example.com'], ['dan@example.com']],
  extend: [
    ['cora@example.com', '30'],
    ['dan@example.com', ''],
  ],
  'change-plan': [
    ['AST-1234-5678', 'plan-50gb'],
    ['AST-2345-6789', 'plan-unlimited'],
  ],
};

/** An action's sample file: the header row, then two rows. */
export const bulkSample = (kind: BulkKind) => [BULK_COLUMNS[kind].map((column) => column.header), ...SAMPLE_VALUES[kind]].map((cells) => cells.join(',')).join('\n');

/** "service_line" → "Service line". */
export const columnTitle = (column: BulkColumn) => {
  const words = column.header.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** The input columns of a kind's rows, in its order, for a table. */
export const inputColumns = (kind: BulkKind) => BULK_COLUMNS[kind];

export const inputValue = (input: BulkRowInput, column: BulkColumn) => input[column.field] ?? '';

const STATUS_SEVERITY: Record<BulkRowStatus, 'info' | 'success' | 'danger' | 'warning'> = { pending: 'info', ok: 'success', failed: 'danger', skipped: 'warning' };

export function RowStatusTag({ status }: { status: BulkRowStatus }) {
  return <Tag severity={STATUS_SEVERITY[status]} value={BULK_ROW_STATUS_LABELS[status]} />;
}
