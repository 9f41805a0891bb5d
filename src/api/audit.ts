// The audit log: a page of audited actions by filter, and the same filter as a CSV file
// (fetched with the bearer token like any call). The wire is src/domain/audit.ts; several actions
// travel comma-separated. Refusals (400 for a bad filter, 403 for anyone but an administrator) come
// back as ok:false with the server's words.
import { AUDIT_ACTOR_KINDS, type AuditEntryWire, type AuditFilter, type AuditListWire } from '../domain/audit';
import { mapResult, type ApiClient, type ApiResult, type Download } from './client';
import { normalisePagination } from './customers';
import { isRecord, present, str, text, withSignal } from './normalise';
import { oneOf } from './terminals';

export interface AuditQuery extends AuditFilter {
  page?: number | undefined;
  limit?: number | undefined;
}

export function normaliseAuditEntry(raw: unknown): AuditEntryWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const createdAt = text(raw.createdAt);
  const action = text(raw.action);
  const actor = isRecord(raw.actor) ? raw.actor : {};
  const kind = oneOf(AUDIT_ACTOR_KINDS, actor.kind);
  if (!id || !createdAt || !action || !kind) return null;
  const target = isRecord(raw.target) ? raw.target : {};
  return {
    id,
    createdAt,
    action,
    actor: { kind, id: text(actor.id), name: str(actor.name), email: str(actor.email) },
    target: { type: text(target.type), id: text(target.id) },
    before: raw.before ?? null,
    after: raw.after ?? null,
    ip: text(raw.ip),
    requestId: text(raw.requestId),
  };
}

export function normaliseAuditList(data: unknown, query: AuditQuery = {}): AuditListWire | null {
  if (!isRecord(data) || !Array.isArray(data.entries)) return null;
  const entries = data.entries.map(normaliseAuditEntry).filter(present);
  return { entries, pagination: normalisePagination(data.pagination, entries.length, { page: query.page, limit: query.limit }) };
}

/** The filter as query parameters, empty ones left out. */
export function auditQueryParams(query: AuditQuery): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  if (query.actor) out.actor = query.actor;
  if (query.actorKind) out.actorKind = query.actorKind;
  if (query.actions && query.actions.length > 0) out.action = query.actions.join(',');
  if (query.targetType) out.targetType = query.targetType;
  if (query.targetId) out.targetId = query.targetId;
  if (query.from) out.from = query.from;
  if (query.to) out.to = query.to;
  if (query.page) out.page = query.page;
  if (query.limit) out.limit = query.limit;
  return out;
}

export function createAuditApi(client: ApiClient) {
  return {
    list: async (query: AuditQuery, signal?: AbortSignal): Promise<ApiResult<AuditListWire>> =>
      mapResult(await client.request<unknown>('/audit', { query: auditQueryParams(query), ...withSignal(signal) }), (data) => normaliseAuditList(data, query)),
    exportCsv: async (filter: AuditFilter, signal?: AbortSignal): Promise<ApiResult<Download>> =>
      client.download('/audit/export.csv', { query: auditQueryParams(filter), ...withSignal(signal) }),
  };
}
