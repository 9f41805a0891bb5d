// Request and response schemas of the bulk action routes, the answers checked against
// src/domain/bulk.ts. The CSV itself is read by the domain's parser in the service, which says what
// is wrong with it row by row; here only its size and the action are checked.
import { z } from 'zod';
import {
  BULK_KINDS,
  BULK_MAX_CHARS,
  BULK_MESSAGES,
  BULK_OPERATION_STATUSES,
  BULK_ROW_STATUSES,
  BULK_ROWS_PAGE_SIZE,
  type BulkOperationWire,
  type BulkPreviewWire,
  type BulkRowsPage,
} from '../../src/domain/bulk';
import { MAX_PAGE, wholeNumber } from './customers-schemas';
import { exact, type Exact } from './schemas';

export const BULK_QUERY_MESSAGES = {
  kind: `kind must be one of: ${BULK_KINDS.join(', ')}`,
  csv: 'csv must be the text of a CSV file',
  status: `status must be one of: ${BULK_ROW_STATUSES.join(', ')}`,
  page: `page must be a whole number from 1 to ${MAX_PAGE}`,
  limit: `limit must be a whole number from 1 to ${BULK_ROWS_PAGE_SIZE * 2}`,
  id: 'id must be a bulk action id (a UUID)',
} as const;

/** Characters, not bytes: a file of a million characters may take more than the default 1 MiB body. */
export const BULK_BODY_LIMIT_BYTES = 4 * BULK_MAX_CHARS + 64 * 1024;

export const bulkBodySchema = z
  .object({
    kind: z.enum(BULK_KINDS, { error: BULK_QUERY_MESSAGES.kind }),
    csv: z.string({ error: BULK_QUERY_MESSAGES.csv }).max(BULK_MAX_CHARS, { error: BULK_MESSAGES.tooLong }),
  })
  .strict();

export const bulkParamsSchema = z.object({ id: z.uuid({ error: BULK_QUERY_MESSAGES.id }) });

const statusFilter = z.enum(BULK_ROW_STATUSES, { error: BULK_QUERY_MESSAGES.status }).optional();

export const bulkRowsQuerySchema = z.object({
  page: wholeNumber(1, MAX_PAGE, BULK_QUERY_MESSAGES.page).default(1),
  limit: wholeNumber(1, BULK_ROWS_PAGE_SIZE * 2, BULK_QUERY_MESSAGES.limit).default(BULK_ROWS_PAGE_SIZE),
  status: statusFilter,
});

export const bulkExportQuerySchema = z.object({ status: statusFilter });

const rowInputSchema = z.object({
  customer: z.string().optional(),
  serviceLine: z.string().optional(),
  reason: z.string().optional(),
  days: z.string().optional(),
  plan: z.string().optional(),
});

export const bulkPreviewSchema = z.object({
  kind: z.enum(BULK_KINDS),
  rows: z.array(z.object({ line: z.number().int(), input: rowInputSchema, action: z.string().nullable(), problem: z.string().nullable() })),
  ready: z.number().int(),
  problems: z.number().int(),
});
exact<Exact<z.infer<typeof bulkPreviewSchema>, BulkPreviewWire>>();

export const bulkOperationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(BULK_KINDS),
  status: z.enum(BULK_OPERATION_STATUSES),
  total: z.number().int(),
  done: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  accounts: z.array(z.object({ id: z.number().int(), name: z.string() })).optional(),
});
exact<Exact<z.infer<typeof bulkOperationSchema>, BulkOperationWire>>();

export const bulkRowsPageSchema = z.object({
  rows: z.array(z.object({ line: z.number().int(), input: rowInputSchema, status: z.enum(BULK_ROW_STATUSES), message: z.string().nullable() })),
  total: z.number().int(),
  page: z.number().int(),
  limit: z.number().int(),
});
exact<Exact<z.infer<typeof bulkRowsPageSchema>, BulkRowsPage>>();
