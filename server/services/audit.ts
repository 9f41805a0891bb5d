// The one audit writer. Every state-changing route records through it, inside the same
// transaction as the change when there is one.
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import type { AuditRepository } from '../db/repositories/audit';
import type { Clock } from '../clock';
import type { Principal } from '../auth/principal';

/**
 * Who did it. A customer organisation's member and an API key act under their own names
 * (`member`: the member's id; `api_key`: the key's id, its name joined in the audit log).
 */
export type Actor = { type: 'user' | 'customer' | 'member' | 'api_key' | 'rule' | 'schedule'; id: string } | { type: 'system' | 'anonymous' };

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

/** Work the system does on its own: a job, a tick, the billing run. */
export const SYSTEM_CONTEXT: RequestContext = { actor: { type: 'system' }, ip: null, requestId: null };

/** The who/where of an audit row, without the rest of a request context. */
export function auditSource({ actor, ip, requestId }: RequestContext): RequestContext {
  return { actor, ip, requestId };
}

/** Actor, IP and request id of a request, for `audit.record({ ...auditContext(request), ... })`. */
export function auditContext(request: FastifyRequest): RequestContext {
  return { actor: actorOf(request.principal), ip: request.ip, requestId: String(request.id) };
}

/** The audit actor a principal acts as. */
export function actorOf(principal: Principal | null): Actor {
  if (!principal) return { type: 'anonymous' };
  if (principal.type === 'admin') return principal.apiKey ? { type: 'api_key', id: principal.apiKey.id } : { type: 'user', id: principal.id };
  return principal.member ? { type: 'member', id: principal.member.id } : { type: 'customer', id: principal.id };
}

