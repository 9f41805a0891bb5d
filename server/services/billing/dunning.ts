// Dunning: what the portal does, day by day, about statements left unpaid past their due date.
// The billing run (each tick) works through the overdue statements: a reminder, the final notice,
// then the block of the customer's portal access, each taken once per statement (claimed under a
// unique index, so two processes never send a letter twice), audited, emailed to the customer and
// published as a webhook event. A promise to pay holds every step until its day. Once nothing is
// overdue, a block dunning set is lifted (after a payment at once, else on the next run); a block
// a person set or changed is never dunning's to lift (0028's customers_block_owner).
import { addDays, daysOverdue, isoDay, policyProblem, stepDue, type DunningPolicy, type DunningReport, type DunningStep } from '../../../src/domain/ledger';
import { formatMoney } from '../../../src/domain/money';
import type { PublishedEventType } from '../../../src/domain/webhooks';
import type { Clock } from '../../clock';
import type { Db } from '../../db/client';
import type { Repositories } from '../../db/repositories';
import type { OverdueStatementRow } from '../../db/repositories/billing/dunning';
import { dunningEmail } from '../../email/templates';
import { fieldError } from '../../errors';
import { SYSTEM_CONTEXT, type AuditService, type RequestContext } from '../audit';
import type { CustomersService } from '../customers';
import type { EmailLogger, EmailSender, RecordedEmail } from '../email';
import type { WebhookService } from '../webhooks';

export type { DunningReport };

export interface DunningService {
  policy(): Promise<DunningPolicy & { updatedAt: string }>;
  savePolicy(policy: DunningPolicy, context: RequestContext): Promise<DunningPolicy & { updatedAt: string }>;
  /** Takes the steps that have fallen due, and lifts the blocks of customers who settled. */
  run(): Promise<DunningReport>;
  /** The billing run's call on each tick: run() when DUNNING_EVERY_MS has passed since the last (null: not yet). */
  runIfDue(): Promise<DunningReport | null>;
  /** Lifts the customer's non-payment block when nothing is overdue; true when it did. */
  settle(customerId: string): Promise<boolean>;
}

/** What each step is called in the audit log and in the webhook events. */
const STEP = {
  reminder_1: { action: 'billing.dunning_reminder', event: 'dunning.reminder' },
  reminder_2: { action: 'billing.dunning_reminder', event: 'dunning.reminder' },
  reminder_3: { action: 'billing.dunning_reminder', event: 'dunning.reminder' },
  final_notice: { action: 'billing.dunning_final_notice', event: 'dunning.final_notice' },
  block: { action: 'billing.dunning_block', event: 'dunning.blocked' },
  unblock: { action: 'billing.dunning_unblock', event: 'dunning.unblocked' },
} as const satisfies Record<DunningStep | 'unblock', { action: string; event: PublishedEventType }>;

/** Dunning counts in days: the minute's tick runs it a quarter of an hour apart (a payment's unblock is at once). */
export const DUNNING_EVERY_MS = 15 * 60_000;

export const NON_PAYMENT_REASON = (number: string, dueOn: string) => `Unpaid statement ${number}, due ${dueOn}`;

export function createDunningService(deps: {
  repos: Repositories;
  audit: AuditService;
  now: Clock;
  email: EmailSender;
  log: EmailLogger;
  webhooks: () => WebhookService | null;
  customers: Pick<CustomersService, 'update'>;
  portalUrl: string | null;
  /** With the policy's "propose ending the lines": each line's end, proposed for an admin to approve. */
  proposeLineEnds?: (customerId: string, dueOn: string) => Promise<number>;
}): DunningService {
  const { repos, audit, now } = deps;
  const store = repos.dunning;
  const link = deps.portalUrl ? `${deps.portalUrl}/my/statements` : null;
  let lastRunAt = Number.NEGATIVE_INFINITY;

  /** Claims the step and records its letter, audit entry and event in one transaction; null when another run took it. */
  async function takeStep(row: Pick<OverdueStatementRow, 'customerId' | 'customerName' | 'customerEmail' | 'statementId' | 'number' | 'dueOn' | 'openMinor' | 'currency'>, step: DunningStep | 'unblock', blockDays: number | null): Promise<RecordedEmail | null | false> {
    const at = now();
    const overdue = Math.max(0, daysOverdue(row.dueOn, isoDay(at)));
    return repos.ledger.transaction(async (tx: Db) => {
      if (!(await store.take({ customerId: row.customerId, statementId: row.statementId, step, daysOverdue: overdue, openMinor: row.openMinor }, at, tx))) return false;
      const data = { customerId: row.customerId, statementId: row.statementId, statementNumber: row.number, step, dueOn: row.dueOn, daysOverdue: overdue, openMinor: row.openMinor, currency: row.currency };
      await audit.record({ ...SYSTEM_CONTEXT, action: STEP[step].action, targetType: 'customer', targetId: row.customerId, after: data }, tx);
      const publisher = deps.webhooks();
      if (publisher) await publisher.publish([{ type: STEP[step].event, data }], tx);
      return deps.email.record(
        {
          to: row.customerEmail,
          ...dunningEmail({
            name: row.customerName,
            step: step.startsWith('reminder') ? 'reminder' : (step as 'final_notice' | 'block' | 'unblock'),
            statement: row.number,
            amount: formatMoney(row.openMinor, row.currency),
            dueOn: row.dueOn,
            blockOn: blockDays === null ? null : addDays(row.dueOn, blockDays),
            link,
          }),
        },
        tx,
      );
    });
  }

  function sent(message: RecordedEmail | null | false): boolean {
    if (message === false) return false;
    deps.webhooks()?.wake();
    if (message) void deps.email.deliver(message, { log: deps.log });
    return true;
  }

  async function unblockSettled(customerId: string | null): Promise<number> {
    let unblocked = 0;
    for (const settled of await store.settledBlocked(isoDay(now()), customerId)) {
      const customer = await repos.customers.findLiveById(settled.customerId);
      const statement = await repos.statements.byId(settled.statementId, settled.customerId);
      if (!customer || !statement) continue;
      const message = await takeStep(
        { customerId: customer.id, customerName: customer.name, customerEmail: customer.email, statementId: statement.id, number: statement.number ?? '', dueOn: statement.dueOn ?? '', openMinor: statement.amountDueMinor, currency: statement.currency },
        'unblock',
        null,
      );
      if (message === false) continue;
      await deps.customers.update(customer.id, { blocked_enabled: false }, SYSTEM_CONTEXT);
      sent(message);
      unblocked++;
    }
    return unblocked;
  }

  return {
    policy: () => store.policy(),

    async savePolicy(policy, context) {
      const problem = policyProblem(policy);
      if (problem) throw fieldError('reminderDays', problem);
      const before = await store.policy();
      await repos.ledger.transaction(async (tx) => {
        await store.savePolicy(policy, context.actor.type === 'user' ? context.actor.id : null, now(), tx);
        await audit.record({ ...context, action: 'billing.dunning_policy_changed', targetType: 'billing', targetId: 'dunning', before, after: policy }, tx);
      });
      return store.policy();
    },

    async runIfDue() {
      if (now().getTime() - lastRunAt < DUNNING_EVERY_MS) return null;
      return this.run();
    },

    async run() {
      lastRunAt = now().getTime();
      const report: DunningReport = { reminders: 0, finalNotices: 0, blocked: 0, unblocked: 0, proposedEnds: 0 };
      const policy = await store.policy();
      const today = isoDay(now());
      if (policy.enabled) {
        // One step per customer and run: the oldest statement's, so a customer with three
        // overdue statements gets one letter, not three.
        const done = new Set<string>();
        for (const row of await store.overdue(today)) {
          if (done.has(row.customerId)) continue;
          const overdue = daysOverdue(row.dueOn, today);
          let step = stepDue(policy, overdue, row.taken, row.promiseToPayUntil, today);
          // A customer a person has blocked is not blocked again: the letters still go.
          if (step === 'block' && row.blocked) step = stepDue({ ...policy, blockDays: null }, overdue, row.taken, row.promiseToPayUntil, today);
          if (!step) continue;
          done.add(row.customerId);
          const message = await takeStep(row, step, policy.blockDays);
          if (!sent(message)) continue;
          if (step === 'block') {
            await deps.customers.update(row.customerId, { blocked_enabled: true, blocked_reason: NON_PAYMENT_REASON(row.number, row.dueOn) }, SYSTEM_CONTEXT);
            await store.markBlockedForNonPayment(row.customerId);
            if (policy.proposeLineEnds && deps.proposeLineEnds) report.proposedEnds += await deps.proposeLineEnds(row.customerId, row.dueOn);
            report.blocked++;
          } else if (step === 'final_notice') report.finalNotices++;
          else report.reminders++;
        }
      }
      report.unblocked = await unblockSettled(null);
      return report;
    },

    async settle(customerId) {
      return (await unblockSettled(customerId)) > 0;
    },
  };
}

