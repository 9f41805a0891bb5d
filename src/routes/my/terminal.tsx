// One of the customer's terminals (/my/terminals/$terminalId?month=YYYY-MM): a resource machine
// for the page (keyed by terminal and month, so a new month loads afresh) and the terminal
// actions machine for Rename and Reboot, both provided with the API here. Two tabs: Details (the
// page as it was) and Telemetry, whose telemetryHistory actor starts when the tab shows and reads
// through the area's source (the customer's own history, or the admin preview's read of it).
import { useState } from 'react';
import { useParams, useRouter, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { TabPanel, TabView } from 'primereact/tabview';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import type { MyTerminalDetailWire } from '../../domain/my-area';
import { PAGE_TITLES } from '../../domain/navigation';
import { createResourceMachine } from '../../machines/resource';
import { terminalActionsMachine } from '../../machines/terminal-actions';
import { PageHeader } from '../../ui/common/PageHeader';
import { MyTerminalView } from '../../ui/my/MyTerminalView';
import { outcome } from '../outcome';
import { useAppServices, usePageActor } from '../services';
import { TelemetryPanel } from '../telemetry-panel';
import { validateMyTerminalSearch } from './search';
import { useMyAreaSource } from './source';

export const myTerminalMachine = createResourceMachine<MyTerminalDetailWire>('myTerminal');

export function MyTerminalRoute() {
  // Not strict: the same page is mounted under /my and under the admin preview.
  const { terminalId = '' } = useParams({ strict: false });
  const { month } = validateMyTerminalSearch(useSearch({ strict: false }));
  // A new terminal or month is a new page: its machines start afresh.
  return <MyTerminalPage key={`${terminalId}|${month ?? ''}`} terminalId={terminalId} month={month} />;
}

const TABS = ['Details', 'Telemetry'] as const;

function MyTerminalPage({ terminalId, month }: { terminalId: string; month: string | undefined }) {
  const { api } = useAppServices();
  const source = useMyAreaSource();
  const router = useRouter();
  const page = usePageActor(myTerminalMachine.provide({ actors: { load: fromPromise(({ signal }) => outcome(() => source.terminal({ terminalId, month }, signal))) } }));
  const actions = usePageActor(
    terminalActionsMachine.provide({
      actors: {
        renameTerminal: fromPromise(({ input, signal }) => outcome(() => api.myArea.rename(input, signal))),
        rebootTerminal: fromPromise(({ input, signal }) => outcome(() => api.myArea.reboot(input, signal))),
      },
      actions: {
        notifySuccess: (_, message: string) => void toast.success(message, { id: 'my-terminal' }),
        notifyFailure: (_, message: string) => void toast.error(message, { id: 'my-terminal' }),
        terminalChanged: () => page.send({ type: 'user.refresh' }),
      },
    }),
    { input: { terminalId } },
  );
  const detail = useSelector(page, (s) => s.context.data);
  const loading = useSelector(page, (s) => s.hasTag('loading'));
  const error = useSelector(page, (s) => (s.matches('failed') ? s.context.error : null));
  const dialog = useSelector(actions, (s) => (s.matches('renaming') ? 'rename' : s.matches('rebooting') ? 'reboot' : null));
  const busy = useSelector(actions, (s) => s.hasTag('busy'));
  const name = useSelector(actions, (s) => s.context.name);
  const nameError = useSelector(actions, (s) => s.context.nameError);
  const failure = useSelector(actions, (s) => s.context.failure);
  // What the viewer is looking at on the page: a new terminal or month opens on Details again.
  const [tab, setTab] = useState(0);
  const onNavigate = (url: string) => void router.navigate({ href: source.href(url) });
  const meta = PAGE_TITLES['/my/terminals/$terminalId'];
  const title = detail ? detail.terminal.nickname || detail.terminal.terminalId : meta.title;

  const details = (
    <MyTerminalView
      detail={detail}
      loading={loading}
      error={error}
      onRetry={() => page.send({ type: 'user.retry' })}
      onNavigate={onNavigate}
      onMonth={(value) => void router.navigate({ href: source.href(`/my/terminals/${encodeURIComponent(terminalId)}?month=${value}`) })}
      readOnly={source.readOnly}
      actions={{
        dialog,
        busy,
        name,
        nameError,
        failure,
        onRename: () => actions.send({ type: 'user.rename', name: detail?.terminal.nickname ?? '' }),
        onReboot: () => actions.send({ type: 'user.reboot' }),
        onName: (value) => actions.send({ type: 'user.name', value }),
        onConfirm: () => actions.send({ type: 'user.confirm' }),
        onClose: () => actions.send({ type: 'user.close' }),
      }}
    />
  );
  return (
    <TabView className="my-terminal-tabs" activeIndex={tab} onTabChange={(event) => setTab(event.index)} pt={{ nav: { 'aria-label': 'Terminal' } }}>
      <TabPanel header={TABS[0]}>{details}</TabPanel>
      <TabPanel header={TABS[1]}>
        <div className="page">
          <PageHeader title={title} breadcrumb={[...meta.breadcrumb.slice(0, -1), { label: title }]} onNavigate={onNavigate} />
          <TelemetryPanel
            terminalId={terminalId}
            load={source.telemetry}
            headingLevel={2}
          />
        </div>
      </TabPanel>
    </TabView>
  );
}
