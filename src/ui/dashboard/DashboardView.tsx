import { PROVIDER_ACCOUNT_STATUS_LABELS, type ProviderAccountStatus } from '../../domain/provider-accounts';
import type { ReactNode } from 'react';
import { Card } from 'primereact/card';
import { StatCard } from '../common/StatCard';
import { ErrorCard } from '../common/ErrorCard';
import { Skeleton } from 'primereact/skeleton';
import { Tag } from 'primereact/tag';
import {
  accountId,
  greetingName,
  lastLoginLabel,
  type DashboardSummary,
  type ProviderHealthStatus,
} from '../../domain/dashboard';
import { NavLink } from '../common/NavLink';
import { formatLocalDateTime, formatRelativeTime } from '../common/relativeTime';
import { useNow } from '../common/useNow';

export interface DashboardProfile {
  uuid?: string;
  name?: string;
  updatedAt?: string;
}

export interface DashboardViewProps {
  profile: DashboardProfile | null;
  summary: DashboardSummary | null;
  loading: boolean;
  error: string | null;
  onRetry(): void;
  onNavigate(url: string): void;
}

interface Module {
  title: string;
  url: string;
  icon: string;
  description: string;
}

export const DASHBOARD_MODULES: readonly Module[] = [
  {
    title: 'Customers',
    url: '/customers',
    icon: 'pi pi-users',
    description: 'Create and manage enterprise customer accounts and the terminals assigned to them.',
  },
  {
    title: 'Terminals',
    url: '/terminals',
    icon: 'pi pi-wifi',
    description: 'Browse the terminal inventory and sync it from the provider.',
  },
  {
    title: 'Users',
    url: '/users',
    icon: 'pi pi-user',
    description: 'See portal users, their roles and status; suspend or activate them.',
  },
  {
    title: 'Settings',
    url: '/settings',
    icon: 'pi pi-cog',
    description: 'Your account details, password and multi-factor authentication.',
  },
];

const HEALTH_SEVERITY: Record<ProviderHealthStatus, 'success' | 'warning' | 'danger' | 'secondary'> = {
  Healthy: 'success',
  Degraded: 'warning',
  Down: 'danger',
  'Not connected': 'secondary',
};

const count = (value: number) => value.toLocaleString('en-US');

/** A dashboard card: its figure, and a hint line beneath (a second skeleton while loading). */
function DashboardCard({ title, icon, loading, value, hint }: { title: string; icon: string; loading: boolean; value: ReactNode; hint?: ReactNode }) {
  return (
    <StatCard title={title} icon={icon} loading={loading} value={value} headingLevel={3}>
      {loading ? <Skeleton width="70%" height="0.875rem" /> : hint != null && <p className="stat-card-hint">{hint}</p>}
    </StatCard>
  );
}

const ACCOUNT_SEVERITY: Record<ProviderAccountStatus, 'success' | 'warning' | 'danger'> = {
  active: 'success',
  disabled: 'warning',
  auth_failed: 'danger',
};

/** "Enterprise Dashboard": greeting, live figures, module shortcuts and recent activity. */
export function DashboardView({ profile, summary, loading, error, onRetry, onNavigate }: DashboardViewProps) {
  const now = useNow();
  // The domain helpers take a full profile slice; missing fields read as blank and fall back.
  const who = profile && { name: profile.name ?? '', uuid: profile.uuid ?? '', updatedAt: profile.updatedAt ?? '' };
  const showSkeletons = loading || (!summary && !error);
  const health = summary?.providerHealth;
  // An older server answers without the split: nothing to show then.
  const accounts = summary?.accounts ?? [];

  return (
    <div className="page dashboard">
      <header className="page-header">
        <div className="page-header-row">
          <div className="page-header-text">
            <h1 className="page-title">Enterprise Dashboard</h1>
            <p className="page-subtitle">Welcome back, {greetingName(who)}</p>
          </div>
        </div>
        <dl className="account-facts">
          <div>
            <dt>Account ID</dt>
            <dd>{accountId(who)}</dd>
          </div>
          <div>
            <dt>Last login</dt>
            <dd>{lastLoginLabel(who)}</dd>
          </div>
        </dl>
      </header>

      {error && (
        <ErrorCard title="Error loading dashboard" message={error} onRetry={onRetry} />
      )}

      {(showSkeletons || summary) && (
        <section className="stat-grid" aria-label="Key figures">
          <DashboardCard
            title="Total Customers"
            icon="pi pi-users"
            loading={showSkeletons}
            value={summary && count(summary.totalCustomers)}
            hint="Enterprise customer accounts"
          />
          <DashboardCard
            title="Active Terminals"
            icon="pi pi-wifi"
            loading={showSkeletons}
            value={summary?.activeTerminals == null ? '—' : count(summary.activeTerminals)}
            hint={
              summary?.activeTerminals == null ? 'Available after the first terminal sync' : 'On an active service line'
            }
          />
          <DashboardCard
            title="System Users"
            icon="pi pi-user"
            loading={showSkeletons}
            value={summary && count(summary.systemUsers)}
            hint="Portal user accounts"
          />
          <DashboardCard
            title="Starlink-style API Health"
            icon="pi pi-server"
            loading={showSkeletons}
            value={
              health && (
                <span className={`health-status health-${HEALTH_SEVERITY[health.status]}`}>
                  <i className="pi pi-circle-fill health-dot" aria-hidden="true" />
                  {health.status}
                </span>
              )
            }
            hint={
              health &&
              (health.detail ??
                (health.checkedAt ? `Checked ${formatRelativeTime(health.checkedAt, now)}` : 'Not checked yet'))
            }
          />
        </section>
      )}

      {accounts.length > 1 && (
        <section className="dashboard-section" aria-labelledby="dashboard-accounts-heading">
          <div className="section-head">
            <h2 id="dashboard-accounts-heading" className="section-title">
              Provider accounts
            </h2>
          </div>
          <Card className="accounts-card">
            <table className="dashboard-accounts">
              <caption className="sr-only">The fleet by provider account; the figures above sum across them</caption>
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Status</th>
                  <th scope="col">Currency</th>
                  <th scope="col" className="numeric">Terminals</th>
                  <th scope="col" className="numeric">Active</th>
                </tr>
              </thead>
              <tbody>
                {accounts.map((account) => (
                  <tr key={account.id}>
                    <th scope="row">{account.name}</th>
                    <td>
                      <Tag value={PROVIDER_ACCOUNT_STATUS_LABELS[account.status]} severity={ACCOUNT_SEVERITY[account.status]} rounded />
                    </td>
                    <td>{account.currency ?? '—'}</td>
                    <td className="numeric">{count(account.terminals)}</td>
                    <td className="numeric">{count(account.activeTerminals)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </section>
      )}

      <section className="dashboard-section" aria-labelledby="dashboard-modules-heading">
        <div className="section-head">
          <h2 id="dashboard-modules-heading" className="section-title">
            Modules
          </h2>
          <Tag value={`${DASHBOARD_MODULES.length} active modules`} severity="info" rounded />
        </div>
        <div className="module-grid">
          {DASHBOARD_MODULES.map((module) => (
            <article key={module.url} className="module-card" aria-label={module.title}>
              <div className="module-card-head">
                <span className="module-icon" aria-hidden="true">
                  <i className={module.icon} />
                </span>
                <h3 className="module-title">{module.title}</h3>
              </div>
              <p className="module-description">{module.description}</p>
              <NavLink
                url={module.url}
                onNavigate={onNavigate}
                className="p-button p-button-outlined p-button-sm module-open"
                aria-label={`Open ${module.title}`}
              >
                <span className="p-button-label">Open</span>
                <i className="pi pi-arrow-right" aria-hidden="true" />
              </NavLink>
            </article>
          ))}
        </div>
      </section>

      {(showSkeletons || summary) && (
        <section className="dashboard-section" aria-labelledby="dashboard-activity-heading">
          <div className="section-head">
            <h2 id="dashboard-activity-heading" className="section-title">
              Recent Activity
            </h2>
          </div>
          <Card className="activity-card">
            {showSkeletons ? (
              <ul className="activity-list" aria-busy="true" aria-label="Loading recent activity">
                {[0, 1, 2].map((row) => (
                  <li key={row} className="activity-item">
                    <Skeleton width="60%" height="1rem" />
                    <Skeleton width="5rem" height="0.875rem" />
                  </li>
                ))}
              </ul>
            ) : summary && summary.recentActivity.length > 0 ? (
              <ul className="activity-list">
                {summary.recentActivity.map((entry) => (
                  <li key={entry.id} className="activity-item">
                    <span className="activity-description">{entry.description}</span>
                    <time
                      className="activity-time"
                      dateTime={entry.createdAt}
                      title={formatLocalDateTime(entry.createdAt)}
                    >
                      {formatRelativeTime(entry.createdAt, now)}
                    </time>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="empty-text">No recent activity</p>
            )}
          </Card>
        </section>
      )}
    </div>
  );
}
