// Signed webhooks: the endpoints administrators register, the events the portal
// publishes to them, and the delivery runs that send them.
//
// - publish() runs inside the transaction of the change that raised the events (an alert opened,
//   acknowledged, resolved): an event is queued exactly when its change commits. It only writes;
//   sending is the delivery run's, started by wake() through the job queue the app attaches.
// - deliverDue() claims due deliveries (repositories/webhooks.ts), attempts each outside any
//   transaction (sender.ts, behind the address guard), and writes each result: a success, or the
//   next attempt by the back-off of src/domain/webhooks.ts, or abandoned after 24 hours. An
//   endpoint that fails WEBHOOK_DISABLE_AFTER_FAILURES attempts in a row is disabled, and whoever
//   created it (or every administrator) gets a notice through the outbox.
// - Every time is the injected clock's, so tests move time instead of waiting for it.
import { randomUUID } from 'node:crypto';
import { paginationOf } from '../../src/domain/customers';
import {
  WEBHOOK_DESCRIPTION_MAX_LENGTH,
  WEBHOOK_DISABLE_AFTER_FAILURES,
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_HEADERS,
  WEBHOOK_MESSAGES as M,
  nextAttemptAt,
  type WebhookAttemptWire,
  type WebhookDeliveryListWire,
  type WebhookDeliveryWire,
  type WebhookEndpointPayload,
  type WebhookEndpointUpdate,
  type WebhookEndpointWire,
  type WebhookEventBody,
  type WebhookEventType,
  type WebhookSecretWire,
} from '../../src/domain/webhooks';
import { createSecretBox, type SecretBox } from '../auth/secret-box';
import { isoOrNull, type Clock } from '../clock';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Repositories } from '../db/repositories';
import type { ClaimedDelivery, DeliveryOutcome, DeliveryWithType, EndpointWithLast } from '../db/repositories/webhooks';
import type { WebhookAttemptRow, WebhookEndpointRow } from '../db/schema';
import { PRODUCT_NAME } from '../email/templates';
import { ConflictError, NotFoundError, fieldError } from '../errors';
import { createAddressGuard, type AddressGuard, type Resolve } from '../webhooks/address-guard';
import { createSender, type AttemptResult, type SendWebhook } from '../webhooks/sender';
import { newWebhookSecret, secretHint, sign } from '../webhooks/signature';
import type { AuditService, RequestContext } from './audit';
import type { EmailLogger, EmailSender, RecordedEmail } from './email';

/** The alert events the lead's alert changes publish; `webhook.test` is sendTest's own. */
export type { PublishedEventType } from '../../src/domain/webhooks';
import type { PublishedEventType } from '../../src/domain/webhooks';

export interface DeliveryRunReport {
  attempted: number;
  succeeded: number;
  failed: number;
  /** Deliveries given up in this run (their 24 hours ran out). */
  abandoned: number;
  /** Endpoints disabled in this run after repeated failure. */
  disabled: number;
}

export interface WebhookService {
  list(): Promise<WebhookEndpointWire[]>;
  get(id: string): Promise<WebhookEndpointWire>;
  create(payload: WebhookEndpointPayload, context: RequestContext): Promise<WebhookSecretWire>;
  update(id: string, payload: WebhookEndpointUpdate, context: RequestContext): Promise<WebhookEndpointWire>;
  remove(id: string, context: RequestContext): Promise<void>;
  rotateSecret(id: string, context: RequestContext): Promise<WebhookSecretWire>;
  sendTest(id: string, context: RequestContext): Promise<WebhookDeliveryWire>;
  deliveries(id: string, page: number, limit: number): Promise<WebhookDeliveryListWire>;
  replay(deliveryId: string, context: RequestContext): Promise<WebhookDeliveryWire>;
  /** Queues the events for every endpoint that takes them, in `tx` (the change's transaction). Sends nothing. */
  publish(events: { type: PublishedEventType; data: unknown }[], tx?: Db): Promise<{ events: number; deliveries: number }>;
  /**
   * Asks for a delivery run (through the attached waker; nothing until one is attached): now, or
   * at `at` when the next retry comes due then.
   */
  wake(at?: Date): void;
  attachWaker(waker: (at?: Date) => void): void;
  /** One delivery run: a bounded batch of due deliveries, attempted a few at a time. */
  deliverDue(): Promise<DeliveryRunReport>;
}

/** Deliveries one run claims, and how many of them are attempted at once. */
export const DELIVERY_BATCH = 32;
export const DELIVERY_PARALLEL = 8;
/**
 * How long a claim holds: past the worst case of a whole batch (each attempt's timeout, a batch
 * of them a few at a time), so a slow run never has its deliveries taken from under it, and a
 * worker that died frees them after this.
 */
export const DELIVERY_CLAIM_MS = 5 * 60_000;
export const WEBHOOK_USER_AGENT = `${PRODUCT_NAME.replace(/\s+/g, '')}-Webhooks/1.0`;

export const WEBHOOK_SERVICE_MESSAGES = {
  endpointDeleted: 'The endpoint was deleted',
  secretUnreadable: "The endpoint's secret cannot be read with this server's key: make a new secret",
  testEvent: 'A test event from the Admin Portal: your endpoint is reachable and can check the signature.',
  duplicateEventTypes: 'Each event type may be listed once',
} as const;
const S = WEBHOOK_SERVICE_MESSAGES;

const boxContext = (endpointId: string) => `webhook:${endpointId}`;

function toEndpointWire(row: EndpointWithLast): WebhookEndpointWire {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes as WebhookEventType[],
    status: row.status,
    disabledReason: row.disabledReason,
    disabledAt: isoOrNull(row.disabledAt),
    consecutiveFailures: row.consecutiveFailures,
    secretHint: row.secretHint,
    createdAt: row.createdAt.toISOString(),
    lastDelivery: row.last ? { status: row.last.status, at: new Date(row.last.at).toISOString(), responseStatus: row.last.responseStatus } : null,
  };
}

function toAttemptWire(row: WebhookAttemptRow): WebhookAttemptWire {
  return {
    attemptedAt: row.attemptedAt.toISOString(),
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    responseExcerpt: row.responseExcerpt,
    error: row.error,
  };
}

function toDeliveryWire(row: DeliveryWithType, attempts: WebhookAttemptRow[]): WebhookDeliveryWire {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType as WebhookEventType,
    status: row.status,
    attempts: row.attempts,
    createdAt: row.createdAt.toISOString(),
    nextAttemptAt: row.status === 'pending' ? isoOrNull(row.nextAttemptAt) : null,
    lastAttemptAt: isoOrNull(row.lastAttemptAt),
    responseStatus: row.responseStatus,
    latencyMs: row.latencyMs,
    responseExcerpt: row.responseExcerpt,
    error: row.error,
    replayOf: row.replayOf,
    attemptLog: attempts.map(toAttemptWire),
  };
}

/** The notice to an endpoint's creator (or the administrators) that it was disabled. */
function disabledNotice(input: { name: string; url: string; description: string; reason: string; lastError: string | null }) {
  return {
    subject: M.disabledNoticeSubject,
    text: [
      `Hello ${input.name},`,
      '',
      `The webhook endpoint ${input.url}${input.description ? ` (${input.description})` : ''} was disabled: ${input.reason.toLowerCase()}.`,
      input.lastError ? `The last attempt failed with: ${input.lastError}` : '',
      '',
      'Its deliveries wait. Once the receiver works again, enable the endpoint on the Webhooks page:',
      'the waiting deliveries are sent then.',
      '',
      `- ${PRODUCT_NAME}`,
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
  };
}

/** Runs `work` over `items`, at most `parallel` at once. */
async function eachLimited<T>(items: T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, lane));
}

export function createWebhookService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  config: Pick<Config, 'webhookAllowHttpLocalhost' | 'webhookAllowedNetworks' | 'mfaEncryptionKey'>;
  /** The disabled-endpoint notice goes through the outbox: recorded in the change, sent after it. */
  email: EmailSender;
  /** Where the delivery run logs: a notice that could not be sent, a delivery whose result could not be written. */
  log?: EmailLogger;
  /** Host name resolution for the address guard (tests map names; the default is the system's). */
  resolve?: Resolve;
  /** Sealing of endpoint secrets; defaults to the MFA key's box. */
  box?: SecretBox;
  /** One attempt (defaults to the guarded HTTP sender). */
  send?: SendWebhook;
}): WebhookService {
  const { repos, audit, now } = deps;
  const store = repos.webhooks;
  const box = deps.box ?? createSecretBox(deps.config.mfaEncryptionKey);
  const guard: AddressGuard = createAddressGuard({
    allowHttpLocalhost: deps.config.webhookAllowHttpLocalhost,
    allowedNetworks: deps.config.webhookAllowedNetworks,
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
  });
  const send = deps.send ?? createSender({ guard, userAgent: WEBHOOK_USER_AGENT });
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as EmailLogger;
  const log: EmailLogger = deps.log ?? quiet;
  let waker: ((at?: Date) => void) | null = null;

  function wake(at?: Date): void {
    try {
      waker?.(at);
    } catch (error) {
      log.error({ err: error }, 'Asking for a webhook delivery run failed');
    }
  }

  async function endpointOr404(id: string): Promise<EndpointWithLast> {
    const row = await store.find(id);
    if (!row) throw new NotFoundError(M.endpointNotFound);
    return row;
  }

  async function checkedUrl(url: string): Promise<string> {
    const checked = await guard.checkUrl(url);
    if (!checked.ok) throw fieldError('url', checked.message);
    return checked.url.toString();
  }

  function checkedDescription(description: string | undefined): string | undefined {
    if (description === undefined) return undefined;
    const text = description.trim();
    if (text.length > WEBHOOK_DESCRIPTION_MAX_LENGTH) throw fieldError('description', M.descriptionTooLong);
    return text;
  }

  function checkedEventTypes(types: WebhookEventType[] | undefined): WebhookEventType[] | undefined {
    if (types === undefined) return undefined;
    if (new Set(types).size !== types.length) throw fieldError('eventTypes', S.duplicateEventTypes);
    return types;
  }

  /** A new secret for the endpoint: the plain one (shown once) and what is stored. */
  function freshSecret(endpointId: string) {
    const secret = newWebhookSecret();
    return { secret, secretSealed: box.seal(secret, boxContext(endpointId)), secretHint: secretHint(secret) };
  }

  async function deliveryWire(id: string): Promise<WebhookDeliveryWire> {
    const row = await store.findDelivery(id);
    if (!row) throw new NotFoundError(M.deliveryNotFound);
    return toDeliveryWire(row, await store.attemptsOf([id]));
  }

  const auditShape = (row: WebhookEndpointRow) => ({
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    status: row.status,
    secretHint: row.secretHint,
  });

  // ---- Delivery run ---------------------------------------------------------------------------

  /** The headers and body of one attempt, signed now with the endpoint's secret; null when the secret cannot be read. */
  function signedRequest(delivery: ClaimedDelivery, at: Date) {
    const secret = box.open(delivery.secretSealed, boxContext(delivery.endpointId));
    if (!secret) return null;
    const body = JSON.stringify(delivery.payload);
    const timestamp = Math.floor(at.getTime() / 1000);
    return {
      url: delivery.url,
      body,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        [WEBHOOK_HEADERS.id]: delivery.eventId,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: sign(secret, timestamp, body),
      },
    };
  }

  async function attempt(delivery: ClaimedDelivery, report: DeliveryRunReport): Promise<void> {
    const attemptedAt = now();
    const request = signedRequest(delivery, attemptedAt);
    let result: AttemptResult;
    try {
      result = request ? await send(request) : { ok: false, status: null, latencyMs: null, excerpt: null, error: S.secretUnreadable };
    } catch (error) {
      // The sender never throws; should it, the delivery is retried like any failure.
      result = { ok: false, status: null, latencyMs: null, excerpt: null, error: error instanceof Error ? error.message : String(error) };
    }
    const attempts = delivery.attempts + 1;
    let outcome: DeliveryOutcome;
    if (result.ok) outcome = { status: 'succeeded' };
    else {
      const next = nextAttemptAt(delivery.createdAt.getTime(), attemptedAt.getTime(), attempts);
      outcome = next === null ? { status: 'abandoned' } : { status: 'pending', nextAttemptAt: new Date(next) };
    }
    report.attempted++;
    const notices = await store.transaction(async (tx) => {
      const written = await store.recordAttempt(
        {
          deliveryId: delivery.id,
          endpointId: delivery.endpointId,
          lockedUntil: delivery.lockedUntil,
          attemptedAt,
          attempts,
          responseStatus: result.status,
          latencyMs: result.latencyMs,
          responseExcerpt: result.excerpt,
          error: result.error,
          outcome,
        },
        tx,
      );
      if (!written.written || result.ok || written.consecutiveFailures < WEBHOOK_DISABLE_AFTER_FAILURES) return { disabled: false, emails: [] as RecordedEmail[] };
      const reason = M.disabledAfterFailures(WEBHOOK_DISABLE_AFTER_FAILURES);
      const disabled = await store.disableAfterFailures(delivery.endpointId, reason, now(), tx);
      // Another worker's failure disabled it first: its notice is the one.
      if (!disabled) return { disabled: false, emails: [] as RecordedEmail[] };
      await audit.record(
        {
          actor: { type: 'system' },
          action: 'webhook.disabled',
          targetType: 'webhook_endpoint',
          targetId: disabled.id,
          before: { status: 'active' },
          after: { status: 'disabled', reason, consecutiveFailures: written.consecutiveFailures },
        },
        tx,
      );
      const emails: RecordedEmail[] = [];
      for (const to of await store.noticeRecipients(disabled.createdBy, tx)) {
        const notice = disabledNotice({ name: to.name, url: disabled.url, description: disabled.description, reason, lastError: result.error });
        emails.push(await deps.email.record({ to: to.email, ...notice }, tx));
      }
      return { disabled: true, emails };
    });
    if (result.ok) report.succeeded++;
    else report.failed++;
    if (outcome.status === 'abandoned') report.abandoned++;
    if (notices.disabled) report.disabled++;
    for (const email of notices.emails) void deps.email.deliver(email, { log });
  }

  return {
    async list() {
      return (await store.list()).map(toEndpointWire);
    },

    async get(id) {
      return toEndpointWire(await endpointOr404(id));
    },

    async create(payload, context) {
      const url = await checkedUrl(payload.url);
      const description = checkedDescription(payload.description) ?? '';
      const eventTypes = checkedEventTypes(payload.eventTypes) ?? [];
      const id = randomUUID();
      const { secret, secretSealed, secretHint: hint } = freshSecret(id);
      const at = now();
      const createdBy = 'id' in context.actor && context.actor.type === 'user' ? context.actor.id : null;
      await store.transaction(async (tx) => {
        if ((await store.countLive(tx)) >= WEBHOOK_ENDPOINTS_MAX) throw new ConflictError(M.tooManyEndpoints);
        const row = await store.insert({ id, url, description, eventTypes, secretSealed, secretHint: hint, createdAt: at, createdBy, updatedAt: at }, tx);
        await audit.record({ ...context, action: 'webhook.created', targetType: 'webhook_endpoint', targetId: id, after: auditShape(row) }, tx);
      });
      return { endpoint: toEndpointWire((await store.find(id))!), secret };
    },

    async update(id, payload, context) {
      await endpointOr404(id);
      const url = payload.url === undefined ? undefined : await checkedUrl(payload.url);
      const description = checkedDescription(payload.description);
      const eventTypes = checkedEventTypes(payload.eventTypes);
      const at = now();
      const enabling = await store.transaction(async (tx) => {
        const before = await store.findForUpdate(id, tx);
        if (!before) throw new NotFoundError(M.endpointNotFound);
        const status =
          payload.enabled === true
            ? { status: 'active' as const, consecutiveFailures: 0, disabledReason: null, disabledAt: null }
            : payload.enabled === false && before.status === 'active'
              ? { status: 'disabled' as const, disabledReason: M.disabledByAdmin, disabledAt: at }
              : {};
        const after = await store.update(
          id,
          {
            ...(url === undefined ? {} : { url }),
            ...(description === undefined ? {} : { description }),
            ...(eventTypes === undefined ? {} : { eventTypes }),
            ...status,
            updatedAt: at,
          },
          tx,
        );
        await audit.record(
          { ...context, action: 'webhook.updated', targetType: 'webhook_endpoint', targetId: id, before: auditShape(before), after: auditShape(after!) },
          tx,
        );
        const enabling = payload.enabled === true && before.status === 'disabled';
        // An administrator enables an endpoint once its receiver works: what waited goes now, not
        // after the hours of back-off its failures had reached.
        if (enabling) await store.rescheduleAll(id, at, tx);
        return enabling;
      });
      // Its waiting deliveries are due: send them now rather than at the next scheduled run.
      if (enabling) wake();
      return toEndpointWire(await endpointOr404(id));
    },

    async remove(id, context) {
      const at = now();
      await store.transaction(async (tx) => {
        const before = await store.findForUpdate(id, tx);
        if (!before) throw new NotFoundError(M.endpointNotFound);
        const abandoned = await store.softDelete(id, at, S.endpointDeleted, tx);
        await audit.record(
          { ...context, action: 'webhook.deleted', targetType: 'webhook_endpoint', targetId: id, before: auditShape(before), after: { deleted: true, abandonedDeliveries: abandoned } },
          tx,
        );
      });
    },

    async rotateSecret(id, context) {
      const { secret, secretSealed, secretHint: hint } = freshSecret(id);
      const at = now();
      await store.transaction(async (tx) => {
        const before = await store.findForUpdate(id, tx);
        if (!before) throw new NotFoundError(M.endpointNotFound);
        await store.update(id, { secretSealed, secretHint: hint, updatedAt: at }, tx);
        await audit.record(
          { ...context, action: 'webhook.secret_rotated', targetType: 'webhook_endpoint', targetId: id, before: { secretHint: before.secretHint }, after: { secretHint: hint } },
          tx,
        );
      });
      return { endpoint: toEndpointWire(await endpointOr404(id)), secret };
    },

    async sendTest(id, context) {
      const at = now();
      const event: WebhookEventBody<{ endpointId: string; message: string }> = {
        id: randomUUID(),
        type: 'webhook.test',
        createdAt: at.toISOString(),
        data: { endpointId: id, message: S.testEvent },
      };
      const delivery = await store.transaction(async (tx) => {
        const endpoint = await store.findForUpdate(id, tx);
        if (!endpoint) throw new NotFoundError(M.endpointNotFound);
        if (endpoint.status !== 'active') throw new ConflictError(M.endpointDisabled);
        await store.insertEvent({ id: event.id, type: event.type, payload: event }, at, tx);
        const row = await store.insertDelivery({ endpointId: id, eventId: event.id, replayOf: null }, at, tx);
        await audit.record({ ...context, action: 'webhook.test_sent', targetType: 'webhook_endpoint', targetId: id, after: { deliveryId: row.id, eventId: event.id } }, tx);
        return row;
      });
      wake();
      return deliveryWire(delivery.id);
    },

    async deliveries(id, page, limit) {
      await endpointOr404(id);
      const { rows, total } = await store.deliveriesPage(id, limit, (page - 1) * limit);
      const attempts = await store.attemptsOf(rows.map((r) => r.id));
      const byDelivery = new Map<string, WebhookAttemptRow[]>();
      for (const a of attempts) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
      return { deliveries: rows.map((row) => toDeliveryWire(row, byDelivery.get(row.id) ?? [])), pagination: paginationOf(total, page, limit) };
    },

    async replay(deliveryId, context) {
      const at = now();
      const delivery = await store.transaction(async (tx) => {
        const original = await store.findDelivery(deliveryId, tx);
        if (!original) throw new NotFoundError(M.deliveryNotFound);
        const endpoint = await store.findForUpdate(original.endpointId, tx);
        // A deleted endpoint's deliveries are gone from every list: the same 404 as an unknown one.
        if (!endpoint) throw new NotFoundError(M.deliveryNotFound);
        if (endpoint.status !== 'active') throw new ConflictError(M.endpointDisabled);
        const row = await store.insertDelivery({ endpointId: endpoint.id, eventId: original.eventId, replayOf: original.id }, at, tx);
        await audit.record(
          { ...context, action: 'webhook.delivery_replayed', targetType: 'webhook_endpoint', targetId: endpoint.id, after: { deliveryId: row.id, replayOf: original.id, eventId: original.eventId } },
          tx,
        );
        return row;
      });
      wake();
      return deliveryWire(delivery.id);
    },

    async publish(events, tx) {
      if (events.length === 0) return { events: 0, deliveries: 0 };
      const at = now();
      const createdAt = at.toISOString();
      const rows = events.map(({ type, data }) => {
        const id = randomUUID();
        const body: WebhookEventBody = { id, type, createdAt, data };
        return { id, type, payload: body };
      });
      return store.publish(rows, at, tx);
    },

    wake,

    attachWaker(fn) {
      waker = fn;
    },

    async deliverDue() {
      const report: DeliveryRunReport = { attempted: 0, succeeded: 0, failed: 0, abandoned: 0, disabled: 0 };
      const at = now();
      const claimed = await store.claimDue(at, new Date(at.getTime() + DELIVERY_CLAIM_MS), DELIVERY_BATCH);
      await eachLimited(claimed, DELIVERY_PARALLEL, async (delivery) => {
        try {
          await attempt(delivery, report);
        } catch (error) {
          // Its claim runs out and a later run tries again; the other deliveries go on.
          log.error({ err: error, deliveryId: delivery.id }, 'A webhook delivery result could not be written');
        }
      });
      // A full batch may have left more due: another run follows at once. Otherwise the next run
      // is asked for when the earliest retry comes due, so a 30 s back-off is 30 s, not the next
      // minute's tick (which still comes, and catches anything a lost wake-up missed).
      if (claimed.length === DELIVERY_BATCH) wake();
      else if (claimed.length > 0) {
        const next = await store.nextDueAt();
        if (next) wake(next.getTime() > now().getTime() ? next : undefined);
      }
      return report;
    },
  };
}
