// The Terminal Details dialog as a route opens it (the terminals list and a customer's usage page):
// its own terminalDetail actor, started for one terminal and stopped when the dialog closes, with
// the API calls provided here. Its Settings tab (a terminal on a service line) runs a lineSettings
// actor of its own, started when the tab shows and stopped when it goes, and offers the schedule
// dialog for the line. Its Telemetry tab runs a telemetryHistory actor the same way, over the
// admin's read of the terminal's history.
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { TerminalListItem } from '../domain/terminals';
import { lineSettingsMachine } from '../machines/line-settings';
import { terminalDetailMachine } from '../machines/terminal-detail';
import { TerminalDetailDialog, type TerminalDetailTab } from '../ui/terminals/TerminalDetailDialog';
import { SettingsTab, type LineSettingsOffered, type LineSettingsStep } from '../ui/terminals/detail/SettingsTab';
import { useNow } from '../ui/common/useNow';
import { outcome } from './outcome';
import { useScheduleDialog } from './schedule';
import { useAppServices, useCan, usePageActor } from './services';
import { TelemetryPanel } from './telemetry-panel';

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
    accountId: null,
    accountName: null,
    ...known,
  };
}

/** One open dialog: its own terminalDetail actor, started for this terminal and stopped on close. */
export function TerminalDetailPanel(props: {
  terminal: TerminalListItem;
  initialTab: TerminalDetailTab | undefined;
  onClose: () => void;
  onChanged: () => void;
  /** The portal holds more than one provider account: the dialog names the terminal's. */
  showAccount?: boolean;
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
  const canAct = useCan('terminals:manage');

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
      canAct={canAct}
      refreshing={refreshing}
      onRefresh={() => detail.send({ type: 'user.refresh' })}
      onReportIssue={(note) => detail.send({ type: 'user.reportIssue', note })}
      reporting={reporting}
      notice={notice}
      onDismissNotice={() => detail.send({ type: 'user.dismissNotice' })}
      onClose={props.onClose}
      now={now}
      {...(props.initialTab ? { initialTab: props.initialTab } : {})}
      showAccount={props.showAccount === true}
      renderSettings={(serviceLineNumber) => <LineSettingsPanel key={serviceLineNumber} serviceLineNumber={serviceLineNumber} />}
      renderTelemetry={(userTerminalId) => <TelemetryPanel key={userTerminalId} terminalId={userTerminalId} load={api.telemetry.terminalHistory} />}
    />
  );
}

type LineSettingsSnapshot = SnapshotFrom<typeof lineSettingsMachine>;

/** The dialog step the machine is in, for the view. */
function stepOf(s: LineSettingsSnapshot): LineSettingsStep {
  const c = s.context;
  if (s.matches({ loaded: 'renaming' })) return { kind: 'rename', nickname: c.nickname, error: c.nicknameError };
  if (s.matches({ loaded: 'publicIp' })) return { kind: 'publicIp' };
  if (s.matches({ loaded: 'priority' })) return { kind: 'priority' };
  if (s.matches({ loaded: 'blocks' })) {
    return { kind: 'blocks', step: s.matches({ loaded: { blocks: 'editing' } }) ? 'edit' : 'confirm', productId: c.blockProductId, count: c.blockCount, applyNow: c.applyNow };
  }
  if (s.matches({ loaded: 'topUp' })) return { kind: 'topUp', step: s.matches({ loaded: { topUp: 'choosing' } }) ? 'choose' : 'confirm', count: c.topUpCount };
  if (s.matches({ loaded: 'deactivating' })) {
    return { kind: 'deactivate', step: s.matches({ loaded: { deactivating: 'form' } }) ? 'form' : 'confirm', when: c.when, reason: c.reason, errors: c.deactivationErrors };
  }
  if (s.matches({ loaded: 'moving' })) return { kind: 'move', deviceId: c.deviceId, target: c.target, error: c.targetError };
  if (s.matches({ loaded: 'removing' })) return { kind: 'remove', deviceId: c.deviceId };
  if (s.matches({ loaded: 'routerReboot' })) return { kind: 'routerReboot', routerId: c.routerId };
  if (s.matches({ loaded: 'routerConfig' })) return { kind: 'routerConfig', routerId: c.routerId, configId: c.configId };
  return { kind: 'none' };
}

const firstRouter = (s: LineSettingsSnapshot) => s.context.settings?.terminals.flatMap((t) => t.routers)[0]?.routerId ?? '';

/** The actions the chart takes from here: what the view offers. */
const offeredOf = (s: LineSettingsSnapshot): LineSettingsOffered => ({
  rename: s.can({ type: 'user.rename' }),
  publicIp: s.can({ type: 'user.togglePublicIp' }),
  priority: s.can({ type: 'user.togglePriority' }),
  blocks: s.can({ type: 'user.editBlocks' }),
  topUp: s.can({ type: 'user.topUp' }),
  deactivate: s.can({ type: 'user.deactivate' }),
  // Per terminal and per router the chart asks the same of each: the first stands for them all.
  terminals: s.can({ type: 'user.move', deviceId: s.context.settings?.terminals[0]?.deviceId ?? '' }),
  routers: s.can({ type: 'user.rebootRouter', routerId: firstRouter(s) }),
  routerConfig: s.can({ type: 'user.routerConfig', routerId: firstRouter(s) }),
});

const sameOffer = (a: LineSettingsOffered, b: LineSettingsOffered) => (Object.keys(a) as (keyof LineSettingsOffered)[]).every((k) => a[k] === b[k]);
const sameStep = (a: LineSettingsStep, b: LineSettingsStep) => JSON.stringify(a) === JSON.stringify(b);

/** Terminal Details → Settings for one service line: the lineSettings actor and its effects. */
export function LineSettingsPanel({ serviceLineNumber }: { serviceLineNumber: string }) {
  const { api } = useAppServices();
  const now = useNow();
  // What the user's roles allow (the server holds each change to the same): the line's
  // configuration with terminals:manage, its service and bill with lifecycle:manage.
  const canEdit = useCan('terminals:manage');
  const canOperate = useCan('lifecycle:manage');
  const lines = api.serviceLines;
  const notify = {
    notifySuccess: (_: unknown, message: string) => void toast.success(message, { id: 'line-settings' }),
    notifyFailure: (_: unknown, message: string) => void toast.error(message, { id: 'line-settings' }),
  };
  const actor = usePageActor(
    lineSettingsMachine.provide({
      actors: {
        loadSettings: fromPromise(({ input, signal }) => outcome(() => lines.settings(input, signal))),
        renameLine: fromPromise(({ input, signal }) => outcome(() => lines.rename(input.serviceLineNumber, input.payload, signal))),
        setPublicIp: fromPromise(({ input, signal }) => outcome(() => lines.setPublicIp(input.serviceLineNumber, input.payload, signal))),
        setPriorityData: fromPromise(({ input, signal }) => outcome(() => lines.setPriorityData(input.serviceLineNumber, input.payload, signal))),
        setRecurringBlocks: fromPromise(({ input, signal }) => outcome(() => lines.setRecurringBlocks(input.serviceLineNumber, input.payload, signal))),
        topUp: fromPromise(({ input, signal }) => outcome(() => lines.topUp(input.serviceLineNumber, input.payload, signal))),
        deactivateLine: fromPromise(({ input, signal }) => outcome(() => lines.deactivate(input.serviceLineNumber, input.payload, signal))),
        moveTerminal: fromPromise(({ input, signal }) =>
          outcome(() => lines.moveTerminal(input.serviceLineNumber, input.payload.deviceId, { toServiceLineNumber: input.payload.toServiceLineNumber }, signal)),
        ),
        removeTerminal: fromPromise(({ input, signal }) => outcome(() => lines.removeTerminal(input.serviceLineNumber, input.payload, signal))),
        rebootRouter: fromPromise(({ input, signal }) => outcome(() => lines.rebootRouter(input.serviceLineNumber, input.payload, signal))),
        setRouterConfig: fromPromise(({ input, signal }) =>
          outcome(() => lines.setRouterConfig(input.serviceLineNumber, input.payload.routerId, { configId: input.payload.configId }, signal)),
        ),
      },
      actions: notify,
    }),
    { input: { serviceLineNumber, canEdit, canOperate } },
  );
  const settings = useSelector(actor, (s) => (s.matches('loaded') ? s.context.settings : null));
  const loading = useSelector(actor, (s) => s.hasTag('loading'));
  const loadError = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null));
  const offered = useSelector(actor, offeredOf, sameOffer);
  const step = useSelector(actor, stepOf, sameStep);
  const busy = useSelector(actor, (s) => s.hasTag('busy'));
  const failure = useSelector(actor, (s) => s.context.failure);
  // A scheduled change shows on the Schedule page, not in the line's settings: nothing reloads here.
  const schedule = useScheduleDialog({ onScheduled: () => {} });
  const send = actor.send;
  // Scheduling is a lifecycle change, offered for a line that is still active.
  const onSchedule =
    canOperate && settings?.active
      ? () => schedule.open({ type: 'line', id: settings.serviceLineNumber, label: settings.nickname, blockProducts: settings.blockProducts.map((p) => p.productId) })
      : undefined;
  return (
    <>
      <SettingsTab
        loading={loading}
        loadError={loadError}
        settings={settings}
        offered={offered}
        step={step}
        busy={busy}
        failure={failure}
        now={now}
        onRetry={() => send({ type: 'user.retry' })}
        {...(onSchedule ? { onSchedule } : {})}
        onRename={() => send({ type: 'user.rename' })}
        onTogglePublicIp={() => send({ type: 'user.togglePublicIp' })}
        onTogglePriority={() => send({ type: 'user.togglePriority' })}
        onEditBlocks={() => send({ type: 'user.editBlocks' })}
        onTopUp={() => send({ type: 'user.topUp' })}
        onDeactivate={() => send({ type: 'user.deactivate' })}
        onMove={(deviceId) => send({ type: 'user.move', deviceId })}
        onRemove={(deviceId) => send({ type: 'user.remove', deviceId })}
        onRebootRouter={(routerId) => send({ type: 'user.rebootRouter', routerId })}
        onRouterConfig={(routerId) => send({ type: 'user.routerConfig', routerId })}
        onTarget={(value) => send({ type: 'user.target', value })}
        onConfigId={(configId) => send({ type: 'user.configId', configId })}
        onNickname={(value) => send({ type: 'user.nickname', value })}
        onBlockProduct={(productId) => send({ type: 'user.blockProduct', productId })}
        onBlockCount={(count) => send({ type: 'user.blockCount', count })}
        onApplyNow={(value) => send({ type: 'user.applyNow', value })}
        onTopUpCount={(count) => send({ type: 'user.topUpCount', count })}
        onWhen={(when) => send({ type: 'user.when', when })}
        onReason={(value) => send({ type: 'user.reason', value })}
        onSubmit={() => send({ type: 'user.submit' })}
        onConfirm={() => send({ type: 'user.confirm' })}
        onBack={() => send({ type: 'user.back' })}
        onClose={() => send({ type: 'user.close' })}
      />
      {schedule.dialog}
    </>
  );
}
