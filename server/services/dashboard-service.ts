// The dashboard's live figures.
import type { ActivityEntry, DashboardSummary } from '../../src/domain/dashboard';
import type { AuditEntryWithActor } from '../db/repositories/audit';
import type { Repositories } from '../db/repositories';
import type { ProviderHealth } from './provider-health';
import { accountStatus } from './provider-accounts';

export const RECENT_ACTIVITY_LIMIT = 10;

export interface DashboardService {
  summary(): Promise<DashboardSummary>;
}

export function createDashboardService(deps: {
  repos: Repositories;
  providerHealth: () => Promise<ProviderHealth>;
}): DashboardService {
  const { repos } = deps;
  return {
    async summary() {
      const [counts, recent, providerHealth, accounts] = await Promise.all([
        repos.dashboard.counts(),
        repos.audit.listRecent(RECENT_ACTIVITY_LIMIT),
        deps.providerHealth(),
        repos.dashboard.perAccount(),
      ]);
      return {
        totalCustomers: counts.customers,
        // Unknown (not zero) until the inventory has been synced from the provider at least once.
        activeTerminals: counts.inventorySynced ? counts.activeTerminals : null,
        systemUsers: counts.users,
        providerHealth,
        recentActivity: recent.map(toActivityEntry),
        accounts: accounts.map((a) => ({
          id: a.id,
          name: a.name,
          status: accountStatus({ enabled: a.enabled, authFailedAt: a.authFailed ? new Date(0) : null }),
          currency: a.currency,
          terminals: a.terminals,
          activeTerminals: a.activeTerminals,
        })),
      };
    },
  };
}

function toActivityEntry(entry: AuditEntryWithActor): ActivityEntry {
  return {
    id: String(entry.id),
    action: entry.action,
    description: describeActivity(entry),
    actorName: entry.actorName,
    createdAt: entry.createdAt.toISOString(),
  };
}

/** One human sentence per audited action; later issues add theirs here. */
/** The service line an audit entry's `after` names. */
const lineOf = (after: Record<string, unknown>) => (typeof after.serviceLineNumber === 'string' ? after.serviceLineNumber : 'a service line');

export function describeActivity(
  entry: Pick<AuditEntryWithActor, 'action' | 'actorName' | 'actorType' | 'after'> & Partial<Pick<AuditEntryWithActor, 'before'>>,
): string {
  const who = entry.actorName ?? (entry.actorType === 'system' ? 'System' : 'Someone');
  const after = (entry.after ?? {}) as Record<string, unknown>;
  const before = (entry.before ?? {}) as Record<string, unknown>;
  const email = typeof after.email === 'string' ? after.email : 'an unknown account';
  switch (entry.action) {
    case 'auth.login':
      return after.mfa === 'backup_code' ? `${who} signed in with a backup code` : `${who} signed in`;
    case 'customer.login':
      return `${who} signed in to the customer portal`;
    case 'auth.login_failed':
      return after.reason === 'wrong_mfa_code' || after.reason === 'used_backup_code'
        ? `Failed sign-in code for ${email}`
        : `Failed sign-in for ${email}`;
    case 'auth.mfa_challenge':
      return `Sign-in code requested for ${email}`;
    case 'auth.mfa_setup_started':
      return `${who} started setting up multi-factor authentication`;
    case 'auth.mfa_enabled':
      return `${who} enabled multi-factor authentication`;
    case 'auth.mfa_enable_failed':
      return `${who} entered a wrong code while enabling multi-factor authentication`;
    case 'auth.mfa_disabled':
      return `${who} disabled multi-factor authentication`;
    case 'auth.mfa_disable_failed':
      return `${who} failed to disable multi-factor authentication`;
    case 'customer.login_failed':
      return `Failed customer sign-in for ${email}`;
    case 'system.admin_created':
      return `Administrator ${email} created at first start`;
    case 'system.demo_seeded':
      return 'Demo users and customers added';
    case 'system.demo_terminals_assigned': {
      const lines = typeof after.lines === 'number' ? after.lines : 0;
      const customers = typeof after.customers === 'number' ? after.customers : 0;
      return `Demo terminals assigned: ${lines} service line${lines === 1 ? '' : 's'} to ${customers} customer${customers === 1 ? '' : 's'}`;
    }
    case 'customer.created':
      return `${who} created customer ${email}`;
    case 'customer.updated':
      return `${who} updated customer ${email}`;
    case 'customer.blocked':
      return `${who} blocked customer ${email}`;
    case 'customer.unblocked':
      return `${who} unblocked customer ${email}`;
    case 'customer.activated':
      return `${who} activated customer ${email}`;
    case 'customer.deactivated':
      return `${who} deactivated customer ${email}`;
    case 'customer.extended': {
      const days = typeof after.days === 'number' ? after.days : null;
      return days === null ? `${who} extended customer ${email}` : `${who} extended customer ${email} by ${days} day${days === 1 ? '' : 's'}`;
    }
    case 'customer.deleted':
      return `${who} deleted customer ${email}`;
    case 'customer.password_link_sent':
      return `${who} sent a password setup link to ${email}`;
    case 'customer.password_set':
      return `${entry.actorName ?? email} set their password`;
    case 'user.created':
      return `${who} created user ${email}`;
    case 'user.updated':
      return `${who} updated user ${email}`;
    case 'user.activated':
      return `${who} activated user ${email}`;
    case 'user.suspended':
      return `${who} suspended user ${email}`;
    case 'user.blocked':
      return `${who} blocked user ${email}`;
    case 'user.unblocked':
      return `${who} unblocked user ${email}`;
    case 'user.deleted':
      return `${who} deleted user ${email}`;
    case 'user.hard_deleted':
      return `${who} permanently deleted user ${email}`;
    case 'user.restored':
      return `${who} restored user ${email}`;
    case 'user.mfa_disabled':
      return `${who} disabled multi-factor authentication for ${email}`;
    case 'user.extended': {
      const days = typeof after.days === 'number' ? after.days : null;
      return days === null ? `${who} extended user ${email}` : `${who} extended user ${email} by ${days} day${days === 1 ? '' : 's'}`;
    }
    case 'user.login_attempts_reset':
      return `${who} reset the login attempts of ${email}`;
    case 'user.password_set':
      return `${entry.actorName ?? email} set their password`;
    case 'user.profile_updated':
    case 'customer.profile_updated':
      return `${entry.actorName ?? email} updated their profile`;
    case 'user.password_changed':
    case 'customer.password_changed':
      return `${entry.actorName ?? email} changed their password`;
    case 'user.password_change_failed':
    case 'customer.password_change_failed':
      return `Failed password change for ${email}`;
    case 'terminal.assigned': {
      const line = typeof after.serviceLineNumber === 'string' ? after.serviceLineNumber : 'a terminal';
      const customer = typeof after.assignedToCustomer === 'string' ? after.assignedToCustomer : 'a customer';
      return `${who} assigned ${line} to ${customer}`;
    }
    case 'terminal.unassigned': {
      const line = typeof after.serviceLineNumber === 'string' ? after.serviceLineNumber : 'a terminal';
      const customer = typeof before.assignedToCustomer === 'string' ? before.assignedToCustomer : 'a customer';
      return `${who} unassigned ${line} from ${customer}`;
    }
    case 'terminal.issue_reported': {
      const line = typeof after.serviceLineNumber === 'string' ? after.serviceLineNumber : 'a terminal';
      return `${who} reported an issue with ${line}`;
    }
    case 'terminal.refreshed':
      return `${who} refreshed a terminal from the provider`;
    case 'terminal.sync_started':
      return `${who} started a terminal sync`;
    case 'subscription.plan_changed': {
      const line = typeof after.serviceLineNumber === 'string' ? after.serviceLineNumber : 'a service line';
      const plan = typeof after.plan === 'string' ? after.plan : 'another plan';
      return `${who} moved ${line} to the ${plan} plan`;
    }
    case 'service_line.renamed':
      return `${who} renamed ${lineOf(after)} to "${typeof after.nickname === 'string' ? after.nickname : ''}"`;
    case 'service_line.public_ip_changed':
      return `${who} turned public IP ${after.publicIp === true ? 'on' : 'off'} on ${lineOf(after)}`;
    case 'service_line.priority_data_changed':
      return `${who} turned priority data past the limit ${after.optedIn === true ? 'on' : 'off'} on ${lineOf(after)}`;
    case 'service_line.recurring_blocks_changed':
      return `${who} set the recurring data blocks of ${lineOf(after)}`;
    case 'service_line.topped_up':
      return `${who} bought ${typeof after.count === 'number' ? after.count : 'a'} top-up block${after.count === 1 ? '' : 's'} for ${lineOf(after)}`;
    case 'service_line.deactivation_scheduled':
      return `${who} set ${lineOf(after)} to end at the end of its billing cycle`;
    case 'service_line.deactivated':
      return `${who} deactivated ${lineOf(after)}`;
    default:
      return `${who}: ${entry.action}`;
  }
}
