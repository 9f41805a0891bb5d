// The one audit writer. Every state-changing route records through it, inside the same
// transaction as the change when there is one.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { AuditRepository } from '../db/repositories/audit';
import type { Clock } from '../clock';

export type Actor = { type: 'user' | 'customer'; id: string } | { type: 'system' | 'anonymous' };

export interface AuditEvent {
  actor: Actor;
  action: string;
  targetType?: string | null;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
  ip?: string | null;
  requestId?: string | null;
}

export interface AuditService {
  record(event: AuditEvent, tx?: Db): Promise<void>;
  /** Several events in one write, all at the same moment (one per row a bulk change touched). */
  recordMany(events: AuditEvent[], tx?: Db): Promise<void>;
}

export function createAuditService(deps: { audit: AuditRepository; now: Clock }): AuditService {
  const rowOf = (event: AuditEvent, at: Date) => ({
    actorType: event.actor.type,
    actorId: 'id' in event.actor ? event.actor.id : null,
    action: event.action,
    targetType: event.targetType ?? null,
    targetId: event.targetId ?? null,
    before: event.before ?? null,
    after: event.after ?? null,
    ip: event.ip ?? null,
    requestId: event.requestId ?? null,
    createdAt: at,
  });
  return {
    async record(event, tx) {
      await deps.audit.insert(rowOf(event, deps.now()), tx);
    },
    async recordMany(events, tx) {
      const at = deps.now();
      await deps.audit.insertMany(
        events.map((event) => rowOf(event, at)),
        tx,
      );
    },
  };
}

export interface RequestContext {
  actor: Actor;
  /** Null for work the system does on its own (no request behind it). */
  ip: string | null;
  requestId: string | null;
}

/** The who/where of an audit row, without the rest of a request context. */
export function auditSource({ actor, ip, requestId }: RequestContext): RequestContext {
  return { actor, ip, requestId };
}

/** Actor, IP and request id of a request, for `audit.record({ ...auditContext(request), ... })`. */
export function auditContext(request: FastifyRequest): RequestContext {
  const principal = request.principal;
  const actor: Actor = principal
    ? { type: principal.type === 'admin' ? 'user' : 'customer', id: principal.id }
    : { type: 'anonymous' };
  return { actor, ip: request.ip, requestId: String(request.id) };
}
