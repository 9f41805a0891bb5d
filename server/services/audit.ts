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
}

export function createAuditService(deps: { audit: AuditRepository; now: Clock }): AuditService {
  return {
    async record(event, tx) {
      await deps.audit.insert(
        {
          actorType: event.actor.type,
          actorId: 'id' in event.actor ? event.actor.id : null,
          action: event.action,
          targetType: event.targetType ?? null,
          targetId: event.targetId ?? null,
          before: event.before ?? null,
          after: event.after ?? null,
          ip: event.ip ?? null,
          requestId: event.requestId ?? null,
          createdAt: deps.now(),
        },
        tx,
      );
    },
  };
}

export interface RequestContext {
  actor: Actor;
  ip: string;
  requestId: string;
}

/** Actor, IP and request id of a request, for `audit.record({ ...auditContext(request), ... })`. */
export function auditContext(request: FastifyRequest): RequestContext {
  const principal = request.principal;
  const actor: Actor = principal
    ? { type: principal.type === 'admin' ? 'user' : 'customer', id: principal.id }
    : { type: 'anonymous' };
  return { actor, ip: request.ip, requestId: String(request.id) };
}
