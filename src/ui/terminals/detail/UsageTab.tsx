import { Button } from 'primereact/button';
import { ProgressBar } from 'primereact/progressbar';
import { Skeleton } from 'primereact/skeleton';
import { Tag } from 'primereact/tag';
import {
  barPercent,
  formatTerminalData,
  TERMINAL_MESSAGES,
  usageBalance,
  usageLevel,
  type MonthOption,
  type ServiceLineUsageWire,
  type TerminalDetail,
} from '../../../domain/terminals';
import { DailyUsageChart } from '../../common/DailyUsageChart';
import { MonthSelect } from '../../common/MonthSelect';
import { calendarDay, count, percent, text, usageClass } from '../format';
import { EmptyNotice, Fields, Section, type Basics } from './parts';

function BillingCycle({ cycle }: { cycle: NonNullable<ServiceLineUsageWire['currentBillingCycle']> }) {
  const priority = cycle.priorityData;
  const level = usageLevel(priority.percentage);
  const balance = usageBalance(priority.used, priority.total);
  return (
    <Section title="Current Billing Cycle Usage">
      <Fields
        items={[
          ['Period Start', calendarDay(cycle.startDate)],
          ['Period End', calendarDay(cycle.endDate)],
        ]}
      />
      <div className={`priority-usage ${usageClass(level)}`} data-level={level}>
        <div className="priority-usage-head">
          <span className="priority-usage-title">Priority Data</span>
          <span className="priority-usage-percent">
            {percent(priority.percentage)} used
            {level === 'exceeded' && <Tag value="EXCEEDED" severity="danger" className="exceeded-tag" />}
          </span>
        </div>
        <ProgressBar
          value={barPercent(Math.round(priority.percentage))}
          showValue={false}
          className={`usage-bar ${usageClass(level)}`}
          aria-label="Priority data used"
        />
        <div className="priority-usage-foot">
          <span>
            {formatTerminalData(priority.used, priority.unit)} of {formatTerminalData(priority.total, priority.unit)}
          </span>
          {balance.exceeded ? (
            <span className="usage-overage">Overage: {formatTerminalData(balance.amount, priority.unit)}</span>
          ) : (
            <span className="usage-remaining">Remaining: {formatTerminalData(balance.amount, priority.unit)}</span>
          )}
        </div>
      </div>
      <Fields
        items={[
          ['Standard Data', formatTerminalData(cycle.deprioritizedData.used, cycle.deprioritizedData.unit)],
          ['Total Usage This Cycle', formatTerminalData(cycle.totalUsed, cycle.totalUnit)],
        ]}
      />
    </Section>
  );
}

export function UsageTab(props: {
  basics: Basics;
  detail: TerminalDetail | null;
  usage: ServiceLineUsageWire | null;
  loading: boolean;
  months: MonthOption[];
  month: string;
  onMonth(value: string): void;
  error: string | null;
  onRetry(): void;
}) {
  const { usage, detail } = props;
  const cap = usage?.dataCap ?? detail?.dataCap ?? null;
  const assigned = props.basics.owner !== null || (usage?.owner ?? null) !== null;
  const cycle = usage?.currentBillingCycle ?? null;
  const records = usage?.rawUsageRecords ?? [];
  return (
    <div className="terminal-tab">
      <div className="form-field terminal-month">
        <MonthSelect months={props.months} month={props.month} onMonth={props.onMonth} showLabel />
      </div>
      {props.loading ? (
        <div className="terminal-usage-loading" role="status" aria-label="Loading usage">
          <Skeleton width="100%" height="4rem" />
          <Skeleton width="100%" height="6rem" />
        </div>
      ) : (
        <>
          <Section title="Data Cap and Plan">
            <Fields
              items={[
                ['Data Cap', cap ? `${count(cap.amount)} ${cap.unit}` : 'Not set'],
                ['Plan', text(usage?.plan ?? detail?.plan)],
                ['Terminal Type', text(usage?.terminalType ?? detail?.terminalType)],
              ]}
            />
          </Section>
          {props.error ? (
            // A failed month is not an empty one: say so, and offer it again.
            <div className="terminal-warning" role="alert">
              <i className="pi pi-exclamation-triangle" aria-hidden="true" />
              <div>
                <h3 className="terminal-warning-title">{props.error}</h3>
              </div>
              <Button type="button" label="Try Again" icon="pi pi-refresh" size="small" outlined onClick={props.onRetry} />
            </div>
          ) : cycle ? (
            <BillingCycle cycle={cycle} />
          ) : (
            <EmptyNotice icon="pi pi-chart-bar" title={TERMINAL_MESSAGES.noUsageTitle}>
              {assigned ? TERMINAL_MESSAGES.noUsageAssigned : TERMINAL_MESSAGES.noUsageUnassigned}
            </EmptyNotice>
          )}
          {records.length > 0 && (
            <Section title="Daily Usage">
              <DailyUsageChart records={records} format={(gb) => formatTerminalData(gb)} />
            </Section>
          )}
        </>
      )}
    </div>
  );
}
