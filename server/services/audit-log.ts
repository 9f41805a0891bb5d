// The audit log page: the entries the audit writer recorded, read back by filter, and
// the same filter as CSV. Every entry leaves here with its secrets taken out (redactAuditValue),
// whether it goes to the page or into the file.
import {
  AUDIT_CSV_COLUMNS,
  AUDIT_EXPORT_PAGE,
  auditActionLabel,
  auditValueText,
  changedFields,
  redactAuditValue,
  type AuditAction,
  type AuditActorKind,
  type AuditEntryWire,
  type AuditListWire,
} from '../../src/domain/audit';
import { csvRow } from '../../src/domain/csv';
import { paginationOf } from '../../src/domain/customers';
import type { AuditCursor, AuditLogFilter, AuditLogRow, AuditRepository } from '../db/repositories/audit';

const DAY_MS = 86_400_000;

/** The page's filter as the routes validated it: days are UTC `YYYY-MM-DD`, from ≤ to. */
export interface AuditLogQuery {
  actor?: string | undefined;
  actorKind?: AuditActorKind | undefined;
  actions?: readonly AuditAction[] | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export interface AuditLogService {
  list(query: AuditLogQuery & { page: number; limit: number }): Promise<AuditListWire>;
  exportCsv(query: AuditLogQuery): AsyncGenerator<string>;
}

function filterOf(query: AuditLogQuery): AuditLogFilter {
  return {
    actor: query.actor ?? null,
    actorType: query.actorKind ?? null,
    actions: query.actions && query.actions.length > 0 ? query.actions : null,
    targetType: query.targetType ?? null,
    targetId: query.targetId ?? null,
    from: query.from ? new Date(`${query.from}T00:00:00Z`) : null,
    // `to` is a whole day: up to the start of the next one.
    until: query.to ? new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS) : null,
  };
}

export function toAuditEntryWire(row: AuditLogRow): AuditEntryWire {
  return {
    id: String(row.id),
    createdAt: row.createdAt.toISOString(),
    action: row.action,
    actor: { kind: row.actorType, id: row.actorId, name: row.actorName, email: row.actorEmail },
    target: { type: row.targetType, id: row.targetId },
    before: redactAuditValue(row.before ?? null),
    after: redactAuditValue(row.after ?? null),
    ip: row.ip,
    requestId: row.requestId,
  };
}

/** One CSV row of an entry, in AUDIT_CSV_COLUMNS order. */
export function auditCsvRow(entry: AuditEntryWire): string {
  return csvRow([
    entry.createdAt,
    entry.actor.kind,
    entry.actor.name,
    entry.actor.email,
    entry.actor.id,
    entry.action,
    auditActionLabel(entry.action),
    entry.target.type,
    entry.target.id,
    changedFields(entry.before, entry.after).join(' '),
    entry.before === null ? '' : auditValueText(entry.before),
    entry.after === null ? '' : auditValueText(entry.after),
    entry.ip,
    entry.requestId,
  ]);
}

export function createAuditLogService(deps: { audit: AuditRepository }): AuditLogService {
  const { audit } = deps;
  return {
    async list({ page, limit, ...query }) {
      const filter = filterOf(query);
      const offset = (page - 1) * limit;
      const rows = await audit.listLog(filter, { limit, offset });
      // A partly filled page (or an empty first page) already tells the total: no count needed.
      const total = (rows.length > 0 && rows.length < limit) || (rows.length === 0 && offset === 0) ? offset + rows.length : await audit.countLog(filter);
      return { entries: rows.map(toAuditEntryWire), pagination: paginationOf(total, page, limit) };
    },

    async *exportCsv(query) {
      const filter = filterOf(query);
      yield csvRow(AUDIT_CSV_COLUMNS);
      let after: AuditCursor | null = null;
      for (;;) {
        const rows = await audit.listLog(filter, { limit: AUDIT_EXPORT_PAGE, after });
        if (rows.length > 0) yield rows.map((row) => auditCsvRow(toAuditEntryWire(row))).join('');
        const last = rows.at(-1);
        if (!last || rows.length < AUDIT_EXPORT_PAGE) return;
        after = { createdAt: last.createdAt, id: last.id };
      }
    },
  };
}
