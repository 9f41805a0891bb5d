// "Terminal Details" (spec section 2 "Terminal Details dialog"): an overview over five tabs.
// Renders props and calls callbacks; the only local state is what the viewer is doing inside the
// dialog (the open tab and the draft of an issue report), which resets each time it opens.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { ProgressBar } from 'primereact/progressbar';
import { Skeleton } from 'primereact/skeleton';
import { TabPanel, TabView } from 'primereact/tabview';
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
  type TerminalListItem,
  type TerminalSyncStatus,
  type TerminalTelemetry,
} from '../../domain/terminals';
import {
  calendarDay,
  count,
  dateTime,
  DASH,
  duration,
  percent,
  relative,
  SIGNAL_GRADE_LABEL,
  signalClass,
  signalGrade,
  SYNC_STATUS_LABEL,
  text,
  usageClass,
} from './format';
import { DailyUsageChart } from '../common/DailyUsageChart';
import { MonthSelect } from '../common/MonthSelect';
import './terminals.css';

export const TERMINAL_DETAIL_TABS = ['information', 'usage', 'status', 'settings', 'actions'] as const;
export type TerminalDetailTab = (typeof TERMINAL_DETAIL_TABS)[number];
const TAB_TITLES: Record<TerminalDetailTab, string> = {
  information: 'Information',
  usage: 'Usage',
  status: 'Status',
  settings: 'Settings',
  actions: 'Actions',
};

/** An issue report is 1 to 2000 characters (after trimming). */
export const REPORT_ISSUE_MAX_LENGTH = 2000;
export const REPORT_ISSUE_TEXTS = {
  label: 'Describe the issue',
  submit: 'Send Report',
  sending: 'Sending...',
  cancel: 'Cancel',
  required: 'Please describe the issue.',
  tooLong: `Keep the description to ${REPORT_ISSUE_MAX_LENGTH} characters or fewer.`,
} as const;

export interface TerminalDetailNotice {
  kind: 'success' | 'error';
  text: string;
}

export interface TerminalDetailDialogProps {
  open: boolean;
  /** The list record the dialog was opened from: shown at once and kept as the fallback. */
  terminal: TerminalListItem | null;
  /** `GET /api/v1/terminals/{id}`; null while loading or when it failed. */
  detail: TerminalDetail | null;
  loading: boolean;
  /** The detail fetch failed: a warning card with Try Again, and the basic record is shown. */
  fallback: { message: string } | null;
  /** Why the month's usage could not be loaded (shown with Try Again); null unless it failed. */
  usageError: string | null;
  /** Try Again: loads what failed (the detail, the usage, or both) again. */
  onRetry(): void;
  /** The chosen month's usage; null while loading or when none was fetched. */
  usage: ServiceLineUsageWire | null;
  usageLoading: boolean;
  months: MonthOption[];
  month: string;
  onMonth(value: string): void;
  refreshing: boolean;
  onRefresh(): void;
  onReportIssue(note: string): void;
  reporting: boolean;
  /** The outcome of Refresh Data or Report Issue. */
  notice: TerminalDetailNotice | null;
  onDismissNotice(): void;
  onClose(): void;
  now: number;
  /** The tab shown on opening (Information unless said otherwise). */
  initialTab?: TerminalDetailTab;
}

interface Owner {
  uuid: string;
  name: string;
  company: string | null;
}

/** What the overview and the tabs show, from the detail when it came, else the list record. */
interface Basics {
  active: boolean;
  userTerminalId: string;
  kitSerialNumber: string;
  dishSerialNumber: string;
  serviceLineNumber: string;
  syncStatus: TerminalSyncStatus;
  lastSyncedAt: string | null;
  owner: Owner | null;
}

function basicsOf(terminal: TerminalListItem | null, detail: TerminalDetail | null, usage: ServiceLineUsageWire | null): Basics | null {
  // The detail is a list record plus more, so one reading serves both; the detail wins when it came.
  const record = detail ?? terminal;
  if (!record) return null;
  return {
    active: record.active,
    userTerminalId: record.userTerminalId,
    kitSerialNumber: record.kitSerialNumber,
    dishSerialNumber: record.dishSerialNumber,
    serviceLineNumber: record.serviceLineNumber,
    syncStatus: record.syncStatus,
    lastSyncedAt: record.lastSyncedAt,
    owner:
      detail?.owner ??
      (record.assignedTo ? { uuid: record.assignedTo, name: record.assignedToCustomer ?? 'Customer', company: null } : null) ??
      usage?.owner ??
      null,
  };
}

// ---- Small parts ---------------------------------------------------------------------------

function Fields({ items }: { items: ReadonlyArray<readonly [label: string, value: ReactNode]> }) {
  return (
    <dl className="terminal-fields">
      {items.map(([label, value]) => (
        <div key={label} className="terminal-field">
          <dt>{label}</dt>
          <dd>{value ?? DASH}</dd>
        </div>
      ))}
    </dl>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="terminal-section" aria-labelledby={id}>
      <h3 id={id} className="terminal-section-title">
        {title}
      </h3>
      {children}
    </section>
  );
}

function EmptyNotice({ icon, title, children }: { icon: string; title: string; children: ReactNode }) {
  return (
    <div className="terminal-empty">
      <i className={`${icon} terminal-empty-icon`} aria-hidden="true" />
      <h3 className="terminal-empty-title">{title}</h3>
      <p className="text-muted">{children}</p>
    </div>
  );
}

function ActiveTag({ active }: { active: boolean }) {
  return <Tag value={active ? 'Active' : 'Inactive'} severity={active ? 'success' : 'danger'} rounded />;
}

/** synced in the default style; pending and error destructive (spec). */
function SyncTag({ status }: { status: TerminalSyncStatus }) {
  return <Tag value={SYNC_STATUS_LABEL[status]} severity={status === 'synced' ? undefined : 'danger'} className="sync-status-tag" />;
}

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="form-field terminal-readonly">
      <label htmlFor={id}>{label}</label>
      <InputText id={id} value={value} readOnly />
    </div>
  );
}

// ---- Overview ------------------------------------------------------------------------------

function Overview({ basics, removedAt }: { basics: Basics; removedAt: string | null }) {
  return (
    <section className="terminal-overview" aria-label="Overview">
      <div className="terminal-overview-head">
        <ActiveTag active={basics.active} />
        {removedAt && <Tag value={`Removed by the provider ${calendarDay(removedAt)}`} severity="secondary" rounded />}
      </div>
      <Fields
        items={[
          ['User Terminal ID', basics.userTerminalId],
          ['Kit Serial', basics.kitSerialNumber],
          ['Dish Serial', basics.dishSerialNumber],
          ['Service Line Number', basics.serviceLineNumber],
        ]}
      />
    </section>
  );
}

// ---- Information ---------------------------------------------------------------------------

function InformationTab({ basics, detail, usage }: { basics: Basics; detail: TerminalDetail | null; usage: ServiceLineUsageWire | null }) {
  const owner = basics.owner;
  const facts: [string, string][] = [];
  const add = (label: string, value: string | null | undefined) => {
    if (value != null && value.trim() !== '') facts.push([label, value]);
  };
  add('Nickname', detail?.nickname);
  add('Plan', detail?.plan ?? usage?.plan);
  add('Terminal Type', detail?.terminalType ?? usage?.terminalType);
  add('Model', detail?.model);
  add('Location', detail?.address?.formattedAddress ?? detail?.location ?? usage?.location);
  add('Region', detail?.address?.region ?? detail?.region);
  add('Account', detail?.accountNumber);
  if (detail?.serviceLine?.startDate) add('Service Start', calendarDay(detail.serviceLine.startDate));

  return (
    <div className="terminal-tab">
      <Section title="Owner">
        {owner ? (
          <div className="terminal-owner">
            <ReadOnlyField label="Customer Name" value={owner.name} />
            <ReadOnlyField label="Company" value={owner.company || 'N/A'} />
            <ReadOnlyField label="Customer UUID" value={owner.uuid} />
          </div>
        ) : (
          <EmptyNotice icon="pi pi-user-minus" title={TERMINAL_MESSAGES.noOwnerTitle}>
            {TERMINAL_MESSAGES.noOwnerText}
          </EmptyNotice>
        )}
      </Section>
      {facts.length > 0 && (
        <Section title="Terminal">
          <Fields items={facts} />
        </Section>
      )}
    </div>
  );
}

// ---- Usage ---------------------------------------------------------------------------------

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

function UsageTab(props: {
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

// ---- Status --------------------------------------------------------------------------------

function Telemetry({ telemetry, now }: { telemetry: TerminalTelemetry; now: number }) {
  const signal = telemetry.signalQuality;
  const mbps = (value: number | null) => (value == null ? DASH : `${value.toFixed(1)} Mbps`);
  return (
    <Section title="Telemetry">
      <Fields
        items={[
          [
            'Signal Quality',
            signal == null ? (
              DASH
            ) : (
              <span className={signalClass(signal)}>
                {percent(signal)} ({SIGNAL_GRADE_LABEL[signalGrade(signal)]})
              </span>
            ),
          ],
          ['Latency', telemetry.latencyMs == null ? DASH : `${count(Math.round(telemetry.latencyMs))} ms`],
          ['Downlink', mbps(telemetry.downlinkMbps)],
          ['Uplink', mbps(telemetry.uplinkMbps)],
          ['Obstruction', telemetry.obstructionPercent == null ? DASH : `${telemetry.obstructionPercent.toFixed(1)}%`],
          ['Uptime', telemetry.uptimeSeconds == null ? DASH : duration(telemetry.uptimeSeconds)],
          ['Software Version', text(telemetry.softwareVersion)],
          ['Last Report', relative(telemetry.reportedAt, now)],
          [
            'Alerts',
            telemetry.alerts.length === 0 ? (
              'None'
            ) : (
              <span className="terminal-alerts">
                {telemetry.alerts.map((alert) => (
                  <Tag key={alert} value={alert} severity="warning" />
                ))}
              </span>
            ),
          ],
        ]}
      />
    </Section>
  );
}

function StatusTab({ basics, detail, now }: { basics: Basics; detail: TerminalDetail | null; now: number }) {
  const on = basics.active;
  return (
    <div className="terminal-tab">
      <Section title="Connection">
        <Fields
          items={[
            ['Connection', on ? 'Connected' : 'Disconnected'],
            ['Power', on ? 'On' : 'Off'],
            ['Network', on ? 'Online' : 'Offline'],
          ]}
        />
        <p className={on ? 'status-line status-line-active' : 'status-line status-line-inactive'}>
          <i className={on ? 'pi pi-check-circle' : 'pi pi-times-circle'} aria-hidden="true" />{' '}
          {on ? TERMINAL_MESSAGES.activeStatusText : TERMINAL_MESSAGES.inactiveStatusText}
        </p>
      </Section>
      <Section title="Sync">
        <Fields
          items={[
            [
              'Last Synced',
              basics.lastSyncedAt ? (
                <span title={dateTime(basics.lastSyncedAt)}>
                  {dateTime(basics.lastSyncedAt)} ({relative(basics.lastSyncedAt, now)})
                </span>
              ) : (
                'Never'
              ),
            ],
            ['Sync Status', <SyncTag key="sync" status={basics.syncStatus} />],
            ...(detail?.syncError ? ([['Sync Error', detail.syncError]] as const) : []),
          ]}
        />
      </Section>
      {detail?.telemetry && <Telemetry telemetry={detail.telemetry} now={now} />}
    </div>
  );
}

// ---- Actions -------------------------------------------------------------------------------

function ReportIssueForm({
  reporting,
  busy,
  onSubmit,
  onCancel,
}: {
  reporting: boolean;
  /** Either action runs: a report cannot be sent now. */
  busy: boolean;
  onSubmit(note: string): void;
  onCancel(): void;
}) {
  const id = useId();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = note.trim();
    if (trimmed === '') return setError(REPORT_ISSUE_TEXTS.required);
    if (trimmed.length > REPORT_ISSUE_MAX_LENGTH) return setError(REPORT_ISSUE_TEXTS.tooLong);
    setError(null);
    onSubmit(trimmed);
  };
  return (
    <form className="report-issue-form" onSubmit={submit} noValidate aria-label={TERMINAL_MESSAGES.reportIssue}>
      <div className="form-field">
        <label htmlFor={`${id}-note`}>{REPORT_ISSUE_TEXTS.label}</label>
        <InputTextarea
          id={`${id}-note`}
          value={note}
          rows={4}
          maxLength={REPORT_ISSUE_MAX_LENGTH}
          required
          disabled={reporting}
          invalid={error !== null}
          aria-invalid={error !== null || undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => {
            setNote(event.target.value);
            setError(null);
          }}
        />
        <span id={`${id}-hint`} className="field-hint">
          {note.length}/{REPORT_ISSUE_MAX_LENGTH}
        </span>
        {error && (
          <span id={`${id}-error`} className="field-error" role="alert">
            {error}
          </span>
        )}
      </div>
      <div className="report-issue-buttons">
        <Button type="button" label={REPORT_ISSUE_TEXTS.cancel} text disabled={reporting} onClick={onCancel} />
        <Button
          type="submit"
          label={reporting ? REPORT_ISSUE_TEXTS.sending : REPORT_ISSUE_TEXTS.submit}
          icon="pi pi-send"
          loading={reporting}
          disabled={busy}
        />
      </div>
    </form>
  );
}

function ActionsTab(props: {
  refreshing: boolean;
  onRefresh(): void;
  reporting: boolean;
  onReportIssue(note: string): void;
  notice: TerminalDetailNotice | null;
  onDismissNotice(): void;
}) {
  const [reportOpen, setReportOpen] = useState(false);
  // The dialog runs one action at a time: while either runs, neither button starts the other.
  const busy = props.refreshing || props.reporting;
  // A report that went through closes (and so clears) the form: adjust state when the notice changes.
  const [seenNotice, setSeenNotice] = useState(props.notice);
  if (props.notice !== seenNotice) {
    setSeenNotice(props.notice);
    if (props.notice?.kind === 'success') setReportOpen(false);
  }
  return (
    <div className="terminal-tab">
      {props.notice && (
        <div className={`terminal-notice terminal-notice-${props.notice.kind}`} role={props.notice.kind === 'error' ? 'alert' : 'status'}>
          <i className={props.notice.kind === 'error' ? 'pi pi-times-circle' : 'pi pi-check-circle'} aria-hidden="true" />
          <p className="terminal-notice-text">{props.notice.text}</p>
          <Button type="button" icon="pi pi-times" text rounded size="small" aria-label="Dismiss" onClick={props.onDismissNotice} />
        </div>
      )}
      <div className="terminal-actions">
        <Button
          type="button"
          label={TERMINAL_MESSAGES.refreshData}
          icon="pi pi-refresh"
          outlined
          loading={props.refreshing}
          disabled={busy}
          aria-busy={props.refreshing || undefined}
          onClick={props.onRefresh}
        />
        <Button
          type="button"
          label={TERMINAL_MESSAGES.reportIssue}
          icon="pi pi-flag"
          outlined
          severity="warning"
          aria-expanded={reportOpen}
          disabled={reportOpen || busy}
          onClick={() => setReportOpen(true)}
        />
      </div>
      {reportOpen && (
        <ReportIssueForm reporting={props.reporting} busy={busy} onSubmit={props.onReportIssue} onCancel={() => setReportOpen(false)} />
      )}
    </div>
  );
}

// ---- The dialog ----------------------------------------------------------------------------

function DialogBody(props: TerminalDetailDialogProps) {
  const [tab, setTab] = useState<TerminalDetailTab>(props.initialTab ?? 'information');
  const basics = basicsOf(props.terminal, props.detail, props.usage);
  return (
    <div className="terminal-detail">
      {props.fallback && (
        <div className="terminal-warning" role="status">
          <i className="pi pi-exclamation-triangle" aria-hidden="true" />
          <div>
            <h3 className="terminal-warning-title">{TERMINAL_MESSAGES.basicInfoWarning}</h3>
            <p>{props.fallback.message}</p>
          </div>
          <Button type="button" label="Try Again" icon="pi pi-refresh" size="small" outlined onClick={props.onRetry} />
        </div>
      )}
      {props.loading && (
        <p className="terminal-detail-loading" role="status">
          <i className="pi pi-spin pi-spinner" aria-hidden="true" /> Loading terminal details...
        </p>
      )}
      {basics && (
        <>
          <Overview basics={basics} removedAt={props.detail?.removedAt ?? null} />
          <TabView
            className="terminal-tabs"
            activeIndex={TERMINAL_DETAIL_TABS.indexOf(tab)}
            onTabChange={(event) => setTab(TERMINAL_DETAIL_TABS[event.index] ?? 'information')}
            pt={{ nav: { 'aria-label': 'Terminal details' } }}
          >
            <TabPanel header={TAB_TITLES.information}>
              <InformationTab basics={basics} detail={props.detail} usage={props.usage} />
            </TabPanel>
            <TabPanel header={TAB_TITLES.usage}>
              <UsageTab
                basics={basics}
                detail={props.detail}
                usage={props.usage}
                loading={props.usageLoading}
                months={props.months}
                month={props.month}
                onMonth={props.onMonth}
                error={props.usageError}
                onRetry={props.onRetry}
              />
            </TabPanel>
            <TabPanel header={TAB_TITLES.status}>
              <StatusTab basics={basics} detail={props.detail} now={props.now} />
            </TabPanel>
            <TabPanel header={TAB_TITLES.settings}>
              <div className="terminal-tab">
                <p className="terminal-settings-text">{TERMINAL_MESSAGES.settingsText}</p>
              </div>
            </TabPanel>
            <TabPanel header={TAB_TITLES.actions}>
              <ActionsTab
                refreshing={props.refreshing}
                onRefresh={props.onRefresh}
                reporting={props.reporting}
                onReportIssue={props.onReportIssue}
                notice={props.notice}
                onDismissNotice={props.onDismissNotice}
              />
            </TabPanel>
          </TabView>
        </>
      )}
    </div>
  );
}

export function TerminalDetailDialog(props: TerminalDetailDialogProps) {
  const key = props.terminal?.userTerminalId ?? props.detail?.userTerminalId ?? 'none';
  return (
    <Dialog
      header={TERMINAL_MESSAGES.detailTitle}
      visible={props.open}
      onHide={props.onClose}
      className="terminal-dialog"
      modal
      blockScroll
      dismissableMask
    >
      {/* A different terminal or starting tab starts the dialog afresh (tab, report draft). */}
      <DialogBody key={`${key}:${props.initialTab ?? 'information'}`} {...props} />
    </Dialog>
  );
}
