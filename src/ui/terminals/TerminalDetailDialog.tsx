// "Terminal Details" (spec section 2 "Terminal Details dialog"): an overview over five tabs, and a
// sixth, Telemetry (the terminal's history), when the caller renders one (`renderTelemetry`).
// Renders props and calls callbacks; the only local state is what the viewer is doing inside the
// dialog (the open tab and the draft of an issue report), which resets each time it opens.
// Each tab is its own file in ./detail so that one tab growing leaves the others small; this file
// stays the one the rest of the app imports. The Settings tab is the terminal's service line: it
// shows only for a terminal on a line, with what the caller renders for that line (`renderSettings`).
import { useState, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { TabPanel, TabView } from 'primereact/tabview';
import {
  TERMINAL_MESSAGES,
  type MonthOption,
  type ServiceLineUsageWire,
  type TerminalDetail,
  type TerminalListItem,
} from '../../domain/terminals';
import { ActionsTab, type TerminalDetailNotice } from './detail/ActionsTab';
import { InformationTab } from './detail/InformationTab';
import { Overview } from './detail/Overview';
import { basicsOf, type Basics } from './detail/parts';
import { StatusTab } from './detail/StatusTab';
import { UsageTab } from './detail/UsageTab';
import './terminals.css';

export { REPORT_ISSUE_MAX_LENGTH, REPORT_ISSUE_TEXTS, type TerminalDetailNotice } from './detail/ActionsTab';

export const TERMINAL_DETAIL_TABS = ['information', 'usage', 'status', 'telemetry', 'settings', 'actions'] as const;
export type TerminalDetailTab = (typeof TERMINAL_DETAIL_TABS)[number];
const TAB_TITLES: Record<TerminalDetailTab, string> = {
  information: 'Information',
  usage: 'Usage',
  status: 'Status',
  telemetry: 'Telemetry',
  settings: 'Settings',
  actions: 'Actions',
};

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
  /** Refresh Data and Report Issue are offered (terminals:manage); absent: they are. */
  canAct?: boolean;
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
  /** The Settings tab's content for the terminal's service line; without it (or a line) there is no Settings tab. */
  renderSettings?: (serviceLineNumber: string) => ReactNode;
  /** The Telemetry tab's content for the terminal; without it there is no Telemetry tab. */
  renderTelemetry?: (userTerminalId: string) => ReactNode;
  /** The overview names the terminal's provider account (the portal holds more than one). */
  showAccount?: boolean;
}

/** A terminal on no service line: the list and the detail say 'Unknown' or nothing. */
const hasServiceLine = (serviceLineNumber: string) => serviceLineNumber.trim() !== '' && serviceLineNumber !== 'Unknown';

function TabContent({ tab, basics, line, ...props }: TerminalDetailDialogProps & { tab: TerminalDetailTab; basics: Basics; line: string | null }) {
  switch (tab) {
    case 'information':
      return <InformationTab basics={basics} detail={props.detail} usage={props.usage} />;
    case 'usage':
      return (
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
      );
    case 'status':
      return <StatusTab basics={basics} detail={props.detail} now={props.now} />;
    case 'telemetry':
      return props.renderTelemetry ? props.renderTelemetry(basics.userTerminalId) : null;
    case 'settings':
      return line !== null && props.renderSettings ? props.renderSettings(line) : null;
    case 'actions':
      return (
        <ActionsTab
          canAct={props.canAct !== false}
          refreshing={props.refreshing}
          onRefresh={props.onRefresh}
          reporting={props.reporting}
          onReportIssue={props.onReportIssue}
          notice={props.notice}
          onDismissNotice={props.onDismissNotice}
        />
      );
  }
}

function DialogBody(props: TerminalDetailDialogProps) {
  const [tab, setTab] = useState<TerminalDetailTab>(props.initialTab ?? 'information');
  const basics = basicsOf(props.terminal, props.detail, props.usage);
  const line = basics && props.renderSettings && hasServiceLine(basics.serviceLineNumber) ? basics.serviceLineNumber : null;
  const tabs = TERMINAL_DETAIL_TABS.filter((t) => (t !== 'settings' || line !== null) && (t !== 'telemetry' || props.renderTelemetry !== undefined));
  // A tab not shown (Settings without a line, Telemetry without its content) opens as Information.
  const active = Math.max(0, tabs.indexOf(tab));
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
          <Overview basics={basics} removedAt={props.detail?.removedAt ?? null} showAccount={props.showAccount === true} />
          <TabView
            className="terminal-tabs"
            activeIndex={active}
            onTabChange={(event) => setTab(tabs[event.index] ?? 'information')}
            pt={{ nav: { 'aria-label': 'Terminal details' } }}
          >
            {/* Only the tabs shown: TabView counts a false child as a tab, which would shift the indices. */}
            {tabs.map((t) => (
              <TabPanel key={t} header={TAB_TITLES[t]}>
                <TabContent tab={t} basics={basics} line={line} {...props} />
              </TabPanel>
            ))}
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
