// One of the customer's terminals: its name and service line, status and telemetry, the month's
// daily usage (priority vs standard) with a month select of the last 12 months, the billing cycle
// and the forecast; Rename and Reboot unless `readOnly` (the admin "View as customer" preview).
import { Button } from 'primereact/button';
import { MY_AREA_MESSAGES as M, monthLabel, type MyTerminalDetailWire } from '../../domain/my-area';
import { PAGE_TITLES } from '../../domain/navigation';
import { formatTerminalData } from '../../domain/terminals';
import { DailyUsageChart } from '../common/DailyUsageChart';
import { ErrorCard } from '../common/ErrorCard';
import { DASH, formatDateTime } from '../common/format';
import { MonthSelect } from '../common/MonthSelect';
import { PageHeader } from '../common/PageHeader';
import { StatCard } from '../common/StatCard';
import { calendarDay } from '../terminals/format';
import { formatMoney, formatSignal, formatUptime, LineStatusTag, OnlineTag, UsageBar } from './parts';
import { TerminalActionDialogs, type TerminalActionsProps } from './TerminalActionDialogs';

export interface MyTerminalViewProps {
  detail: MyTerminalDetailWire | null;
  loading: boolean;
  error: string | null;
  onRetry(): void;
  onNavigate(url: string): void;
  onMonth(month: string): void;
  /** Hides every action (the admin preview). */
  readOnly: boolean;
  actions: TerminalActionsProps;
}

export function MyTerminalView({ detail, loading, error, onRetry, onNavigate, onMonth, readOnly, actions }: MyTerminalViewProps) {
  const meta = PAGE_TITLES['/my/terminals/$terminalId'];
  const terminal = detail?.terminal ?? null;
  const title = terminal ? terminal.nickname || terminal.terminalId : meta.title;
  const breadcrumb = [...meta.breadcrumb.slice(0, -1), { label: title }];
  const canAct = !readOnly && terminal !== null;

  return (
    <div className="page">
      <PageHeader
        title={title}
        subtitle={terminal ? `Service line ${terminal.serviceLineNumber ?? DASH} · Terminal ${terminal.terminalId}` : undefined}
        breadcrumb={breadcrumb}
        onNavigate={onNavigate}
        actions={
          canAct ? (
            <div className="my-terminal-actions">
              <Button type="button" label="Rename" icon="pi pi-pencil" outlined onClick={actions.onRename} />
              <Button type="button" label="Reboot" icon="pi pi-power-off" severity="danger" outlined onClick={actions.onReboot} disabled={terminal.status !== 'Active' || !terminal.online} />
            </div>
          ) : undefined
        }
      />
      {error && !detail ? (
        <ErrorCard title={M.loadFailed} message={error} onRetry={onRetry} />
      ) : (
        <>
          <div className="my-stats">
            <StatCard title="Status" icon="pi pi-info-circle" loading={loading} value={terminal ? <LineStatusTag status={terminal.status} /> : null}>
              {terminal?.lineEndDate && <p className="text-muted">Service ends {calendarDay(terminal.lineEndDate)}</p>}
            </StatCard>
            <StatCard title="Connection" icon="pi pi-wifi" loading={loading} value={terminal ? <OnlineTag online={terminal.online} /> : null}>
              {terminal && (
                <dl className="my-facts">
                  <dt>Signal</dt>
                  <dd>{formatSignal(terminal.signalQuality)}</dd>
                  <dt>Uptime</dt>
                  <dd>{formatUptime(terminal.uptimeSeconds)}</dd>
                  <dt>Read</dt>
                  <dd>{formatDateTime(terminal.telemetryAt, 'Never')}</dd>
                </dl>
              )}
            </StatCard>
            <StatCard title="This billing cycle" icon="pi pi-calendar" loading={loading} value={terminal ? formatTerminalData(terminal.usage.usedGB) : null}>
              {terminal && (
                <>
                  <UsageBar usage={terminal.usage} label="Priority data used this cycle" />
                  <p className="text-muted">
                    {terminal.billingCycle ? `${calendarDay(terminal.billingCycle.startDate)} to ${calendarDay(terminal.billingCycle.endDate)}` : 'No billing cycle stored yet'}
                    {terminal.planName ? ` · ${terminal.planName}` : ''}
                  </p>
                </>
              )}
            </StatCard>
            <StatCard
              title="Forecast"
              icon="pi pi-chart-line"
              loading={loading}
              value={detail ? (detail.forecast ? formatTerminalData(detail.forecast.projectedUsedGB) : 'Not enough data yet') : null}
            >
              {detail?.forecast && (
                <p className="text-muted">
                  {detail.forecast.projectedOverageGB > 0
                    ? `${formatTerminalData(detail.forecast.projectedOverageGB)} over the plan: about ${formatMoney(detail.forecast.projectedCharges, detail.currency)}`
                    : 'Within the plan at the current rate'}
                </p>
              )}
            </StatCard>
          </div>
          <section className="my-section" aria-labelledby="my-daily-heading">
            <div className="my-terminal-head">
              <h2 id="my-daily-heading">Daily usage{detail ? `, ${monthLabel(detail.month)}` : ''}</h2>
              {detail && <MonthSelect months={detail.months.map((m) => ({ value: m, label: monthLabel(m) }))} month={detail.month} onMonth={onMonth} />}
            </div>
            {detail && (
              <>
                <DailyUsageChart records={detail.daily} format={(gb) => formatTerminalData(gb)} />
                <p className="text-muted">
                  {formatTerminalData(detail.totals.priorityGB)} priority, {formatTerminalData(detail.totals.standardGB)} standard this month
                </p>
              </>
            )}
          </section>
        </>
      )}
      {!readOnly && <TerminalActionDialogs {...actions} />}
    </div>
  );
}
