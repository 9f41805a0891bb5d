// Signed webhooks: endpoints, the events sent to them, each delivery and each attempt.
//
// Deliveries are claimed, not locked across the HTTP call: a short transaction takes due pending
// rows with FOR UPDATE SKIP LOCKED (two processes never take the same row) and stamps
// `locked_until`; the attempt runs outside any transaction (on the embedded database one open
// transaction holds up every statement), and its result is written in a second short one. A
// worker that dies mid-attempt leaves a stamp that expires, and the delivery is taken again.
import { and, desc, eq, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { users, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookAttemptRow, type WebhookDeliveryRow, type WebhookEndpointRow } from '../schema';
import { rowsOf } from './results';

const ep = webhookEndpoints;
const dl = webhookDeliveries;
const ev = webhookEvents;
const att = webhookAttempts;

export type WebhookRepository = ReturnType<typeof createWebhookRepository>;

export interface EndpointWithLast extends WebhookEndpointRow {
  /** The endpoint's newest delivery: its status, its last attempt (or creation) and answer. */
  last: { status: WebhookDeliveryRow['status']; at: string; responseStatus: number | null } | null;
}

export interface DeliveryWithType extends WebhookDeliveryRow {
  eventType: string;
}

/** A delivery taken for an attempt, with what the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  attempts: number;
  createdAt: Date;
  lockedUntil: Date;
  url: string;
  secretSealed: string;
  payload: unknown;
}

export interface NewEvent {
  id: string;
  type: string;
  payload: unknown;
}

export type DeliveryOutcome =
  | { status: 'succeeded' }
  | { status: 'pending'; nextAttemptAt: Date }
  | { status: 'abandoned' };

export interface AttemptRecord {
  deliveryId: string;
  endpointId: string;
  /** The claim's stamp: the result is written only while the claim still holds. */
  lockedUntil: Date;
  attemptedAt: Date;
  attempts: number;
  responseStatus: number | null;
  latencyMs: number | null;
  responseExcerpt: string | null;
  error: string | null;
  outcome: DeliveryOutcome;
}

/** What writing an attempt's result did to the endpoint. */
export interface AttemptWritten {
  /** False when the claim was lost meanwhile (another worker took the delivery); nothing else was written. */
  written: boolean;
  consecutiveFailures: number;
}

// Spelled out in full: Drizzle renders a column inside a select list's sql`` unqualified, and the
// correlation must name the outer table.
const lastDelivery = sql<EndpointWithLast['last']>`(
  SELECT json_build_object('status', d.status, 'at', coalesce(d.last_attempt_at, d.created_at), 'responseStatus', d.response_status)
  FROM webhook_deliveries d WHERE d.endpoint_id = webhook_endpoints.id ORDER BY d.created_at DESC, d.id DESC LIMIT 1)`;

const endpointColumns = {
  id: ep.id,
  url: ep.url,
  description: ep.description,
  secretSealed: ep.secretSealed,
  secretHint: ep.secretHint,
  eventTypes: ep.eventTypes,
  status: ep.status,
  disabledReason: ep.disabledReason,
  disabledAt: ep.disabledAt,
  consecutiveFailures: ep.consecutiveFailures,
  createdAt: ep.createdAt,
  createdBy: ep.createdBy,
  updatedAt: ep.updatedAt,
  deletedAt: ep.deletedAt,
};

const deliveryColumns = {
  id: dl.id,
  endpointId: dl.endpointId,
  eventId: dl.eventId,
  status: dl.status,
  attempts: dl.attempts,
  createdAt: dl.createdAt,
  nextAttemptAt: dl.nextAttemptAt,
  lockedUntil: dl.lockedUntil,
  lastAttemptAt: dl.lastAttemptAt,
  responseStatus: dl.responseStatus,
  latencyMs: dl.latencyMs,
  responseExcerpt: dl.responseExcerpt,
  error: dl.error,
  replayOf: dl.replayOf,
  eventType: ev.type,
};

/** Endpoint `e` takes a new event of `type`: active, not deleted, and taking that type. */
const takes = (type: SQL) => sql`e.deleted_at IS NULL AND e.status = 'active' AND (cardinality(e.event_types) = 0 OR ${type} = ANY(e.event_types))`;

export function createWebhookRepository(db: Db) {
  return {
    transaction<T>(work: (tx: Db) => Promise<T>): Promise<T> {
      return db.transaction(work);
    },

    // ---- Endpoints ------------------------------------------------------------------------

    /** The live endpoints, oldest first, each with its newest delivery. */
    async list(tx: Db = db): Promise<EndpointWithLast[]> {
      return tx
        .select({ ...endpointColumns, last: lastDelivery })
        .from(ep)
        .where(isNull(ep.deletedAt))
        .orderBy(ep.createdAt, ep.id);
    },

    /** A live endpoint with its newest delivery; null for an unknown or deleted one. */
    async find(id: string, tx: Db = db): Promise<EndpointWithLast | null> {
      const [row] = await tx
        .select({ ...endpointColumns, last: lastDelivery })
        .from(ep)
        .where(and(eq(ep.id, id), isNull(ep.deletedAt)));
      return row ?? null;
    },

    /** A live endpoint, locked until `tx` ends: concurrent changes to it take turns. */
    async findForUpdate(id: string, tx: Db): Promise<WebhookEndpointRow | null> {
      const [row] = await tx
        .select()
        .from(ep)
        .where(and(eq(ep.id, id), isNull(ep.deletedAt)))
        .for('update');
      return row ?? null;
    },

    async countLive(tx: Db = db): Promise<number> {
      return tx.$count(ep, isNull(ep.deletedAt));
    },

    async insert(values: typeof webhookEndpoints.$inferInsert, tx: Db = db): Promise<WebhookEndpointRow> {
      const [row] = await tx.insert(ep).values(values).returning();
      if (!row) throw new Error('insert into webhook_endpoints returned no row');
      return row;
    },

    async update(id: string, values: Partial<typeof webhookEndpoints.$inferInsert>, tx: Db = db): Promise<WebhookEndpointRow | null> {
      const [row] = await tx
        .update(ep)
        .set(values)
        .where(and(eq(ep.id, id), isNull(ep.deletedAt)))
        .returning();
      return row ?? null;
    },

    /** Makes an endpoint's pending deliveries due at `at` (it was enabled again: its receiver is taken to work now). */
    async rescheduleAll(endpointId: string, at: Date, tx: Db): Promise<number> {
      const rows = await tx
        .update(dl)
        .set({ nextAttemptAt: at })
        .where(and(eq(dl.endpointId, endpointId), eq(dl.status, 'pending')))
        .returning({ id: dl.id });
      return rows.length;
    },

    /** Deletes an endpoint (the row stays for its log) and abandons its pending deliveries; how many. */
    async softDelete(id: string, at: Date, reason: string, tx: Db): Promise<number> {
      await tx.update(ep).set({ deletedAt: at, updatedAt: at }).where(eq(ep.id, id));
      const abandoned = await tx
        .update(dl)
        .set({ status: 'abandoned', nextAttemptAt: null, lockedUntil: null, error: reason })
        .where(and(eq(dl.endpointId, id), eq(dl.status, 'pending')))
        .returning({ id: dl.id });
      return abandoned.length;
    },

    // ---- Events and deliveries --------------------------------------------------------------

    /**
     * Writes the events some endpoint takes and one pending delivery, due at `at`, per event and
     * endpoint taking it, in ONE statement whatever the number of events: the events travel as one
     * JSON array, so neither the statement's text nor its parameters grow with them. Events no
     * endpoint takes are not kept (nobody could ever read them).
     */
    async publish(events: NewEvent[], at: Date, tx: Db = db): Promise<{ events: number; deliveries: number }> {
      if (events.length === 0) return { events: 0, deliveries: 0 };
      const when = at.toISOString();
      const [row] = rowsOf<{ events: number | string; deliveries: number | string }>(
        await tx.execute(sql`
          WITH input AS (
            SELECT x.id, x.type, x.payload FROM jsonb_to_recordset(${JSON.stringify(events)}::jsonb) AS x(id uuid, type text, payload jsonb)
          ),
          written AS (
            INSERT INTO webhook_events (id, type, payload, created_at)
            SELECT i.id, i.type, i.payload, ${when}::timestamptz FROM input i
            WHERE EXISTS (SELECT 1 FROM webhook_endpoints e WHERE ${takes(sql`i.type`)})
            RETURNING id, type
          ),
          queued AS (
            INSERT INTO webhook_deliveries (endpoint_id, event_id, created_at, next_attempt_at)
            SELECT e.id, w.id, ${when}::timestamptz, ${when}::timestamptz FROM written w JOIN webhook_endpoints e ON ${takes(sql`w.type`)}
            RETURNING 1
          )
          SELECT (SELECT count(*) FROM written)::int AS events, (SELECT count(*) FROM queued)::int AS deliveries`),
      );
      return { events: Number(row?.events ?? 0), deliveries: Number(row?.deliveries ?? 0) };
    },

    async insertEvent(event: NewEvent, at: Date, tx: Db): Promise<void> {
      await tx.insert(ev).values({ id: event.id, type: event.type, payload: event.payload, createdAt: at });
    },

    /** A new pending delivery of an event to one endpoint, due at once. */
    async insertDelivery(values: { endpointId: string; eventId: string; replayOf: string | null }, at: Date, tx: Db): Promise<WebhookDeliveryRow> {
      const [row] = await tx
        .insert(dl)
        .values({ ...values, status: 'pending', createdAt: at, nextAttemptAt: at })
        .returning();
      if (!row) throw new Error('insert into webhook_deliveries returned no row');
      return row;
    },

    /** A delivery with its event's type (of any endpoint, deleted ones included). */
    async findDelivery(id: string, tx: Db = db): Promise<DeliveryWithType | null> {
      const [row] = await tx.select(deliveryColumns).from(dl).innerJoin(ev, eq(ev.id, dl.eventId)).where(eq(dl.id, id));
      return row ?? null;
    },

    /** One page of an endpoint's deliveries, newest first, and how many it has. */
    async deliveriesPage(endpointId: string, limit: number, offset: number, tx: Db = db): Promise<{ rows: DeliveryWithType[]; total: number }> {
      const rows = await tx
        .select(deliveryColumns)
        .from(dl)
        .innerJoin(ev, eq(ev.id, dl.eventId))
        .where(eq(dl.endpointId, endpointId))
        .orderBy(desc(dl.createdAt), desc(dl.id))
        .limit(limit)
        .offset(offset);
      const total = await tx.$count(dl, eq(dl.endpointId, endpointId));
      return { rows, total };
    },

    /** The attempts of these deliveries, newest first. */
    async attemptsOf(deliveryIds: string[], tx: Db = db): Promise<WebhookAttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      return tx
        .select()
        .from(att)
        .where(inArray(att.deliveryId, deliveryIds))
        .orderBy(desc(att.attemptedAt), desc(att.id));
    },

    // ---- Sending ----------------------------------------------------------------------------

    /**
     * Takes up to `limit` due deliveries of active endpoints for an attempt, until `lockUntil`:
     * one short transaction; rows another worker holds (row lock or unexpired stamp) are skipped.
     */
    /** When the next pending delivery of an active endpoint comes due, or null when none waits. */
    async nextDueAt(): Promise<Date | null> {
      const [row] = await db
        .select({ ms: sql<number | string | null>`(extract(epoch FROM min(${dl.nextAttemptAt})) * 1000)::float8` })
        .from(dl)
        .innerJoin(ep, eq(ep.id, dl.endpointId))
        .where(and(eq(dl.status, 'pending'), eq(ep.status, 'active'), isNull(ep.deletedAt)));
      return row?.ms === null || row?.ms === undefined ? null : new Date(Number(row.ms));
    },

    async claimDue(at: Date, lockUntil: Date, limit: number): Promise<ClaimedDelivery[]> {
      return db.transaction(async (tx) => {
        const due = await tx
          .select({ id: dl.id })
          .from(dl)
          .innerJoin(ep, eq(ep.id, dl.endpointId))
          .where(
            and(
              eq(dl.status, 'pending'),
              lte(dl.nextAttemptAt, at),
              or(isNull(dl.lockedUntil), lte(dl.lockedUntil, at)),
              eq(ep.status, 'active'),
              isNull(ep.deletedAt),
            ),
          )
          .orderBy(dl.nextAttemptAt, dl.id)
          .limit(limit)
          .for('update', { of: dl, skipLocked: true });
        if (due.length === 0) return [];
        const ids = due.map((d) => d.id);
        await tx.update(dl).set({ lockedUntil: lockUntil }).where(inArray(dl.id, ids));
        const rows = await tx
          .select({
            id: dl.id,
            endpointId: dl.endpointId,
            eventId: dl.eventId,
            attempts: dl.attempts,
            createdAt: dl.createdAt,
            url: ep.url,
            secretSealed: ep.secretSealed,
            payload: ev.payload,
          })
          .from(dl)
          .innerJoin(ep, eq(ep.id, dl.endpointId))
          .innerJoin(ev, eq(ev.id, dl.eventId))
          .where(inArray(dl.id, ids))
          .orderBy(dl.nextAttemptAt, dl.id);
        return rows.map((row) => ({ ...row, lockedUntil: lockUntil }));
      });
    },

    /**
     * Writes an attempt and its delivery's new state, and counts the endpoint's consecutive
     * failures (reset by a success). The delivery changes only while this worker's claim holds.
     */
    async recordAttempt(record: AttemptRecord, tx: Db): Promise<AttemptWritten> {
      await tx.insert(att).values({
        deliveryId: record.deliveryId,
        attemptedAt: record.attemptedAt,
        responseStatus: record.responseStatus,
        latencyMs: record.latencyMs,
        responseExcerpt: record.responseExcerpt,
        error: record.error,
      });
      const { outcome } = record;
      const updated = await tx
        .update(dl)
        .set({
          status: outcome.status,
          attempts: record.attempts,
          nextAttemptAt: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
          lockedUntil: null,
          lastAttemptAt: record.attemptedAt,
          responseStatus: record.responseStatus,
          latencyMs: record.latencyMs,
          responseExcerpt: record.responseExcerpt,
          error: record.error,
        })
        .where(and(eq(dl.id, record.deliveryId), eq(dl.status, 'pending'), eq(dl.lockedUntil, record.lockedUntil)))
        .returning({ id: dl.id });
      if (updated.length === 0) return { written: false, consecutiveFailures: 0 };
      const [endpoint] = await tx
        .update(ep)
        .set({ consecutiveFailures: outcome.status === 'succeeded' ? 0 : sql`${ep.consecutiveFailures} + 1` })
        .where(eq(ep.id, record.endpointId))
        .returning({ consecutiveFailures: ep.consecutiveFailures });
      return { written: true, consecutiveFailures: endpoint?.consecutiveFailures ?? 0 };
    },

    /** Disables an active endpoint after repeated failure; null when it is not active (already disabled, deleted). */
    async disableAfterFailures(id: string, reason: string, at: Date, tx: Db): Promise<WebhookEndpointRow | null> {
      const [row] = await tx
        .update(ep)
        .set({ status: 'disabled', disabledReason: reason, disabledAt: at, updatedAt: at })
        .where(and(eq(ep.id, id), eq(ep.status, 'active'), isNull(ep.deletedAt)))
        .returning();
      return row ?? null;
    },

    /**
     * Who hears that an endpoint was disabled: its creator while they are an active portal user,
     * else every active administrator.
     */
    async noticeRecipients(createdBy: string | null, tx: Db = db): Promise<{ email: string; name: string }[]> {
      const live = and(eq(users.isActive, true), eq(users.blockedEnabled, false), isNull(users.deletedAt));
      if (createdBy) {
        const [creator] = await tx
          .select({ email: users.email, name: users.name })
          .from(users)
          .where(and(eq(users.id, createdBy), live));
        if (creator) return [creator];
      }
      return tx
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(and(eq(users.role, 'admin'), live))
        .orderBy(users.email);
    },
  };
}
