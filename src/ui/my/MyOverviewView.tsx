// The customer area's overview: their terminals, how many are online, this cycle's use against
// their plans, the projection to the cycle's end with its overage charge, and the open alerts.
// Under the header, what the page puts in `balance` (the customer's balance in one line). Props
// in, callbacks out: the admin "View as customer" preview renders it from its own data.
import type { ReactNode } from 'react';
import { Message } from 'primereact/message';
import { MY_AREA_MESSAGES as M, type MyOverviewWire } from '../../domain/my-area';
import { PAGE_TITLES } from '../../domain/navigation';
import { formatTerminalData } from '../../domain/terminals';
import { ErrorCard } from '../common/ErrorCard';
import { count } from '../common/format';
import { PageHeader } from '../common/PageHeader';
import { StatCard } from '../common/StatCard';
import { formatMoney, UsageBar } from './parts';

export interface MyOverviewViewProps {
  overview: MyOverviewWire | null;
  loading: boolean;
  error: string | null;
  /** The customer's balance in one line, where the area can read it. */
  balance?: ReactNode;
  onRetry(): void;
  onNavigate(url: string): void;
  /** Opens a terminal's page (from an alert). */
  onOpenTerminal(terminalId: string): void;
}

export function MyOverviewView({ overview, loading, error, balance, onRetry, onNavigate, onOpenTerminal }: MyOverviewViewProps) {
  const meta = PAGE_TITLES['/my'];
  const value = (figure: (o: MyOverviewWire) => string) => (overview ? figure(overview) : null);
  return (
    <div className="page">
      <PageHeader title={meta.title} breadcrumb={meta.breadcrumb} onNavigate={onNavigate} />
      {balance}
      {error && !overview ? (
        <ErrorCard title={M.overviewLoadFailed} message={error} onRetry={onRetry} />
      ) : (
        <>
          <div className="my-stats">
            <StatCard title="Terminals" icon="pi pi-wifi" loading={loading} value={value((o) => count(o.terminals))} />
            <StatCard title="Online now" icon="pi pi-check-circle" loading={loading} value={value((o) => `${count(o.onlineNow)} of ${count(o.terminals)}`)} />
            <StatCard title="Data used this cycle" icon="pi pi-chart-bar" loading={loading} value={value((o) => formatTerminalData(o.usage.usedGB))}>
              {overview && <UsageBar usage={overview.usage} label="Data used of your plans" />}
            </StatCard>
            <StatCard
              title="Projected at cycle end"
              icon="pi pi-chart-line"
              loading={loading}
              value={value((o) => (o.forecast ? formatTerminalData(o.forecast.projectedUsedGB) : 'Not enough data yet'))}
            >
              {overview?.forecast && (
                <p className="text-muted">
                  {overview.forecast.projectedOverageGB > 0
                    ? `${formatTerminalData(overview.forecast.projectedOverageGB)} over your plans: about ${formatMoney(overview.forecast.projectedCharges, overview.currency)} in overage charges`
                    : 'Within your plans: no overage charge expected'}
                </p>
              )}
            </StatCard>
          </div>
          <section className="my-section" aria-labelledby="my-alerts-heading">
            <h2 id="my-alerts-heading">Open alerts{overview ? ` (${overview.alerts.count})` : ''}</h2>
            {overview && overview.alerts.count === 0 && <p className="text-muted">{M.noAlerts}</p>}
            {overview && overview.alerts.count > 0 && (
              <ul className="my-alerts">
                {overview.alerts.items.map((alert) => (
                  <li key={alert.id} className="my-alert">
                    <Message severity={alert.severity === 'critical' ? 'error' : 'warn'} text={`${alert.title}: ${alert.message}`} />
                    {alert.terminalId !== null && (
                      <button type="button" className="p-link" onClick={() => onOpenTerminal(alert.terminalId!)}>
                        Open terminal {alert.terminalId}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </div>
  );
}
