// The Terminal Details dialog as a route opens it (the terminals list and a customer's usage page):
// its own terminalDetail actor, started for one terminal and stopped when the dialog closes, with
// the API calls provided here.
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { TerminalListItem } from '../domain/terminals';
import { terminalDetailMachine } from '../machines/terminal-detail';
import { TerminalDetailDialog, type TerminalDetailTab } from '../ui/terminals/TerminalDetailDialog';
import { useNow } from '../ui/common/useNow';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

/** A record to show while a deep-linked terminal's details load: only its id (and what the caller knows) is known. */
export function placeholderTerminal(known: Pick<TerminalListItem, 'userTerminalId'> & Partial<TerminalListItem>): TerminalListItem {
  return {
    kitSerialNumber: 'Unknown',
    dishSerialNumber: 'Unknown',
    serviceLineNumber: 'Unknown',
    nickname: null,
    active: false,
    syncStatus: 'pending',
    lastSyncedAt: null,
    dataCapUpdatedAt: null,
    updatedAt: null,
    condition: null,
    terminalType: null,
    plan: null,
    location: null,
    region: null,
    ...known,
  };
}

/** One open dialog: its own terminalDetail actor, started for this terminal and stopped on close. */
export function TerminalDetailPanel(props: {
  terminal: TerminalListItem;
  initialTab: TerminalDetailTab | undefined;
  onClose: () => void;
  onChanged: () => void;
}) {
  const { api } = useAppServices();
  const now = useNow();
  const detail = usePageActor(
    terminalDetailMachine.provide({
      actors: {
        loadDetail: fromPromise(({ input, signal }) => outcome(() => api.terminals.terminalDetail(input, signal))),
        loadUsage: fromPromise(({ input, signal }) =>
          outcome(() => api.terminals.serviceLineUsage(input.serviceLineNumber, { year: input.year, month: input.month }, signal)),
        ),
        refreshTerminal: fromPromise(({ input, signal }) => outcome(() => api.terminals.refreshTerminal(input, signal))),
        reportIssue: fromPromise(({ input, signal }) => outcome(() => api.terminals.reportTerminalIssue(input.userTerminalId, input.note, signal))),
      },
      actions: { terminalChanged: () => props.onChanged() },
    }),
    { input: { terminal: props.terminal } },
  );

  const terminal = useSelector(detail, (s) => s.context.terminal);
  const record = useSelector(detail, (s) => s.context.detail);
  const loading = useSelector(detail, (s) => s.hasTag('loadingDetail'));
  const fallback = useSelector(detail, (s) => (s.matches({ detail: 'fallback' }) ? s.context.detailError : null));
  const usage = useSelector(detail, (s) => (s.matches({ usage: 'loaded' }) ? s.context.usage : null));
  const usageLoading = useSelector(detail, (s) => s.hasTag('loadingUsage'));
  const usageError = useSelector(detail, (s) => (s.matches({ usage: 'failed' }) ? s.context.usageError : null));
  const months = useSelector(detail, (s) => s.context.months);
  const month = useSelector(detail, (s) => s.context.month);
  const refreshing = useSelector(detail, (s) => s.hasTag('refreshing'));
  const reporting = useSelector(detail, (s) => s.hasTag('reporting'));
  const notice = useSelector(detail, (s) => s.context.notice);

  return (
    <TerminalDetailDialog
      open
      terminal={terminal}
      detail={record}
      loading={loading}
      fallback={fallback === null ? null : { message: fallback }}
      usage={usage}
      usageLoading={usageLoading}
      usageError={usageError}
      onRetry={() => detail.send({ type: 'user.retry' })}
      months={months}
      month={month}
      onMonth={(value) => detail.send({ type: 'user.selectMonth', value })}
      refreshing={refreshing}
      onRefresh={() => detail.send({ type: 'user.refresh' })}
      onReportIssue={(note) => detail.send({ type: 'user.reportIssue', note })}
      reporting={reporting}
      notice={notice}
      onDismissNotice={() => detail.send({ type: 'user.dismissNotice' })}
      onClose={props.onClose}
      now={now}
      {...(props.initialTab ? { initialTab: props.initialTab } : {})}
    />
  );
}
