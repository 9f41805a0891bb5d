// Bulk actions: a preview of what each row of an operator's CSV will do, then the run as
// a job, one row at a time through the single-row action the portal already has — the same checks,
// the same audit entries (carrying the starting request's id), the same messages. A row that fails
// fails alone; the rest go on.
import {
  BULK_MESSAGES,
  BULK_ROWS_PAGE_SIZE,
  bulkActionText,
  bulkDays,
  isUuid,
  parseBulkCsv,
  type BulkKind,
  type BulkOperationWire,
  type BulkPreviewRow,
  type BulkPreviewWire,
  type BulkRowInput,
  type BulkRowStatus,
  type BulkRowsPage,
} from '../../src/domain/bulk';
import { csvLine, csvHeader, type CsvColumn } from '../../src/domain/csv';
import type { Clock } from '../clock';
import type { Repositories } from '../db/repositories';
import type { BulkOperationWithCreator, StoredBulkRow } from '../db/repositories/bulk-operations';
import { AppError, NotFoundError, fieldError } from '../errors';
import type { AuditService, RequestContext } from './audit';
import type { CustomerTerminalsService } from './customer-terminals';
import type { CustomersService } from './customers';
import { createPacer, type PacerOptions } from './pacer';
import type { SubscriptionsService } from './subscriptions';

export const BULK_SERVER_MESSAGES = {
  assigned: 'Assigned',
  blocked: 'Blocked',
  alreadyBlocked: 'Already blocked: nothing changed',
  unblocked: 'Unblocked',
  notBlocked: 'Not blocked: nothing changed',
  planChanged: (plan: string) => `Moved to ${plan}`,
  interrupted: 'Interrupted while it ran (the server stopped): check this row by hand before running it again',
} as const;

/** The latest operations the page lists. */
const LATEST = 20;
/** A row claimed this long ago and not finished was being worked by a process that died. */
const ABANDONED_AFTER_MS = 5 * 60_000;

export interface BulkService {
  preview(kind: BulkKind, csv: string): Promise<BulkPreviewWire>;
  start(kind: BulkKind, csv: string, context: RequestContext): Promise<{ operation: BulkOperationWire; message: string }>;
  list(): Promise<BulkOperationWire[]>;
  get(id: string): Promise<BulkOperationWire>;
  rows(id: string, query: { page: number; limit: number; status: BulkRowStatus | null }): Promise<BulkRowsPage>;
  exportCsv(id: string, status: BulkRowStatus | null): Promise<AsyncIterable<string>>;
  /** The job: works the operation's pending rows until none is left or `stopping()` says so. */
  run(operationId: string, stopping?: () => boolean): Promise<void>;
  /** At start-up: rows a dead process left half-done are failed; the ids still to run come back. */
  resumable(): Promise<string[]>;
  attachRunRequester(request: (operationId: string) => void): void;
  /** Runs started in this process without a queue: stopped at their next row, before the database closes (the rest resume at the next start). */
  settled(): Promise<void>;
}

export function toBulkOperationWire(row: BulkOperationWithCreator): BulkOperationWire {
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    total: row.total,
    done: row.succeeded + row.failed + row.skipped,
    succeeded: row.succeeded,
    failed: row.failed,
    skipped: row.skipped,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    createdBy: row.creatorName,
  };
}

const RESULT_COLUMNS: readonly CsvColumn<StoredBulkRow>[] = [
  { header: 'line', value: (row) => row.line },
  { header: 'customer', value: (row) => row.input.customer },
  { header: 'service_line', value: (row) => row.input.serviceLine },
  { header: 'reason', value: (row) => row.input.reason },
  { header: 'days', value: (row) => row.input.days },
  { header: 'plan', value: (row) => row.input.plan },
  { header: 'status', value: (row) => row.status },
  { header: 'message', value: (row) => row.message },
];

export function createBulkService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  customers: CustomersService;
  customerTerminals: CustomerTerminalsService;
  subscriptions: SubscriptionsService;
  /** How the rows rest between them on the embedded database (pacer.ts). */
  pacing?: PacerOptions;
  log?: (error: unknown, message: string) => void;
}): BulkService {
  const { repos, audit, now } = deps;
  const store = repos.bulkOperations;
  // One row at a time: the pacer is here for its rest after each row, not to size anything.
  const rows = createPacer({ first: 1, min: 1, max: 1 }, deps.pacing);
  const inProcess = new Set<Promise<void>>();
  let requestRun: ((operationId: string) => void) | null = null;
  let closing = false;

  async function found(id: string) {
    const row = isUuid(id) ? await store.find(id) : null;
    if (!row) throw new NotFoundError(BULK_MESSAGES.notFound);
    return row;
  }

  /** Each row with what it will do, or why it cannot: the file's own problems, then what the database does not know. */
  async function resolve(kind: BulkKind, csv: string): Promise<BulkPreviewWire> {
    const parsed = parseBulkCsv(kind, csv);
    if (!parsed.ok) throw fieldError('csv', parsed.message);
    const valid = parsed.rows.filter((row) => !row.problem);
    const keys = [...new Set(valid.map((row) => row.input.customer?.toLowerCase()).filter((value): value is string => Boolean(value)))];
    // By lower-cased email and by id, so that each row finds its customer without a scan.
    const customers = new Map<string, { name: string; email: string }>();
    for (const customer of await store.customersNamed(keys.filter((key) => !isUuid(key)), keys.filter(isUuid))) {
      customers.set(customer.email.toLowerCase(), customer);
      customers.set(customer.id.toLowerCase(), customer);
    }
    const customerOf = (key: string) => customers.get(key.toLowerCase());
    const lines = kind === 'assign' || kind === 'change-plan' ? await store.knownLines([...new Set(valid.map((row) => row.input.serviceLine!))]) : new Set<string>();
    const plans = kind === 'change-plan' ? await store.plansNamed([...new Set(valid.map((row) => row.input.plan!))]) : new Map<string, string>();

    const rows = parsed.rows.map((row): BulkPreviewRow => {
      const { input } = row;
      let problem = row.problem;
      const customer = input.customer ? customerOf(input.customer) : undefined;
      if (!problem && input.customer && !customer) problem = BULK_MESSAGES.customerNotFound;
      if (!problem && input.serviceLine && !lines.has(input.serviceLine)) problem = BULK_MESSAGES.serviceLineNotFound;
      if (!problem && input.plan && !plans.has(input.plan)) problem = BULK_MESSAGES.planNotFound;
      const names = { ...(customer ? { customer: `${customer.name} (${customer.email})` } : {}), ...(input.plan && plans.has(input.plan) ? { plan: plans.get(input.plan)! } : {}) };
      const previewAction = problem ? null : bulkActionText(kind, input, names);
      return { line: row.line, input, action: previewAction, problem };
    });
    const problems = rows.filter((row) => row.problem).length;
    return { kind, rows, ready: rows.length - problems, problems };
  }

  /** The customer a row names, as the single-row actions take it (their id). */
  async function customerId(input: BulkRowInput): Promise<string> {
    const key = input.customer!;
    const [customer] = await store.customersNamed(isUuid(key) ? [] : [key.toLowerCase()], isUuid(key) ? [key.toLowerCase()] : []);
    if (!customer) throw new NotFoundError(BULK_MESSAGES.customerNotFound);
    return customer.id;
  }

  /** One row through its single-row action; the outcome is the action's own words. */
  async function runRow(kind: BulkKind, input: BulkRowInput, context: RequestContext): Promise<{ status: 'ok' | 'failed'; message: string | null }> {
    switch (kind) {
      case 'assign': {
        const { result } = await deps.customerTerminals.assign({ customerUuid: await customerId(input), serviceLineNumbers: [input.serviceLine!] }, context);
        const failure = result.failed[0];
        return failure ? { status: 'failed', message: failure.reason } : { status: 'ok', message: BULK_SERVER_MESSAGES.assigned };
      }
      case 'block':
      case 'unblock': {
        const id = await customerId(input);
        const blocking = kind === 'block';
        const current = await deps.customers.get(id);
        if (current.blockedEnabled === blocking) return { status: 'ok', message: blocking ? BULK_SERVER_MESSAGES.alreadyBlocked : BULK_SERVER_MESSAGES.notBlocked };
        await deps.customers.update(id, blocking ? { blocked_enabled: true, blocked_reason: input.reason! } : { blocked_enabled: false }, context);
        return { status: 'ok', message: blocking ? BULK_SERVER_MESSAGES.blocked : BULK_SERVER_MESSAGES.unblocked };
      }
      case 'extend': {
        const { message } = await deps.customers.extend(await customerId(input), bulkDays(input), context);
        return { status: 'ok', message };
      }
      case 'change-plan': {
        const changed = await deps.subscriptions.changePlan({ serviceLineNumber: input.serviceLine!, productReferenceId: input.plan! }, context);
        return { status: 'ok', message: BULK_SERVER_MESSAGES.planChanged(changed.plan) };
      }
    }
  }

  const service: BulkService = {
    preview: resolve,

    async start(kind, csv, context) {
      const preview = await resolve(kind, csv);
      if (preview.ready === 0) throw fieldError('csv', BULK_MESSAGES.nothingToRun);
      const created = await store.transaction(async (tx) => {
        const at = now();
        const operation = await store.create(
          { kind, createdBy: context.actor.type === 'user' ? context.actor.id : null, createdIp: context.ip, requestId: context.requestId, at },
          preview.rows.map((row) => ({ line: row.line, input: row.input, status: row.problem ? 'skipped' : 'pending', message: row.problem })),
          tx,
        );
        await audit.record(
          { ...context, action: 'bulk.started', targetType: 'bulk_operation', targetId: operation.id, before: null, after: { kind, rows: preview.rows.length, ready: preview.ready, skipped: preview.problems } },
          tx,
        );
        return operation;
      });
      if (requestRun) requestRun(created.id);
      else {
        // No job queue (no provider configured): the run goes on in this process.
        const running = service.run(created.id, () => closing).catch((error: unknown) => deps.log?.(error, 'bulk action failed'));
        inProcess.add(running);
        void running.finally(() => inProcess.delete(running));
      }
      return { operation: toBulkOperationWire((await store.find(created.id))!), message: BULK_MESSAGES.started(preview.ready) };
    },

    async list() {
      const latest = await store.latest(LATEST);
      // Which provider accounts each run's lines are under: a run may span several.
      const touched = await store.accountsTouched(latest.map((row) => row.id));
      return latest.map((row) => ({ ...toBulkOperationWire(row), accounts: touched.get(row.id) ?? [] }));
    },

    async get(id) {
      return toBulkOperationWire(await found(id));
    },

    async rows(id, { page, limit, status }) {
      await found(id);
      const { rows, total } = await store.rowsPage(id, { status, limit, offset: (page - 1) * limit });
      return { rows, total, page, limit };
    },

    async exportCsv(id, status) {
      await found(id);
      return (async function* () {
        yield csvHeader(RESULT_COLUMNS);
        let after = 0;
        for (;;) {
          const rows = await store.rowsAfter(id, status, after, BULK_ROWS_PAGE_SIZE * 10);
          if (rows.length === 0) return;
          yield rows.map((row) => csvLine(RESULT_COLUMNS, row)).join('');
          after = rows[rows.length - 1]!.line;
        }
      })();
    },

    async run(operationId, stopping = () => false) {
      const operation = await store.find(operationId);
      if (!operation || operation.status === 'done') return;
      const context: RequestContext = {
        actor: operation.createdBy ? { type: 'user', id: operation.createdBy } : { type: 'system' },
        ip: operation.createdIp,
        requestId: operation.requestId,
      };
      let claimed = 1;
      while (claimed > 0 && !stopping()) {
        claimed = await rows.timed(async () => {
          const row = await store.claimNext(operationId, now());
          if (!row) return 0;
          let outcome: { status: 'ok' | 'failed'; message: string | null };
          try {
            outcome = await runRow(operation.kind, row.input, context);
          } catch (error) {
            // An expected refusal (404, 409, 400…) is the row's answer; anything else is logged too.
            if (!(error instanceof AppError) || error.statusCode >= 500) deps.log?.(error, `bulk action row ${row.line} failed`);
            outcome = { status: 'failed', message: error instanceof AppError ? error.message : BULK_MESSAGES.rowFailed };
          }
          await store.recordOutcome(operationId, row.line, outcome, now());
          return 1;
        });
      }
      await store.finishIfDone(operationId, now());
    },

    async resumable() {
      const ids = await store.runningIds();
      const at = now();
      for (const id of ids) await store.failAbandoned(id, new Date(at.getTime() - ABANDONED_AFTER_MS), BULK_SERVER_MESSAGES.interrupted, at);
      return ids;
    },

    attachRunRequester(request) {
      requestRun = request;
    },

    async settled() {
      closing = true;
      while (inProcess.size > 0) await Promise.allSettled([...inProcess]);
    },
  };
  return service;
}
