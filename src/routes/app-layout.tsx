import { createContext, useContext, useEffect, useMemo, useRef, type MutableRefObject } from 'react';
import { Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { alertBellMachine } from '../machines/alert-bell';
import { AlertBell } from '../ui/shell/AlertBell';
import { AppShell } from '../ui/shell/AppShell';
import { CommandPaletteLauncher } from './command-palette';
import { outcome } from './outcome';
import { menuFor, pageMeta } from '../domain/navigation';
import { NoPermission } from '../ui/common/NoPermission';
import { mayOpenPage } from './guards';
import { useAppServices, useCan, usePageActor, usePermissions } from './services';

/** What a page tells the shell when it changed alerts (an acknowledgement): the bell reads again. */
const AlertsChangedContext = createContext<() => void>(() => {});
export const useAlertsChanged = () => useContext(AlertsChangedContext);

/** The admin portal's signed-in frame: sidebar, top bar, and the page (customers never get here: guards.ts). */
export function AppLayout() {
  const { session } = useAppServices();
  const router = useRouter();
  const name = useSelector(session, (s) => s.context.profile?.name ?? '');
  const email = useSelector(session, (s) => s.context.profile?.email ?? '');
  const currentPath = useRouterState({ select: (s) => s.location.pathname });
  // The menu offers the pages the user's roles let them read; a page opened by its address
  // anyway says so instead of showing the server's refusals.
  const permissions = usePermissions();
  const menu = useMemo(() => ({ items: menuFor(permissions) }), [permissions]);
  const mayOpen = mayOpenPage(permissions, currentPath);

  // The bell reads alerts: a user whose roles do not include them has none (the server refuses it).
  const readsAlerts = useCan('alerts:read');
  const bellChanged = useRef<(() => void) | null>(null);
  const alertsChanged = useMemo(() => () => bellChanged.current?.(), []);

  return (
    <AppShell
      user={{ name, email }}
      menu={menu}
      currentPath={currentPath}
      onNavigate={(url) => void router.navigate({ href: url })}
      onLogout={() => session.send({ type: 'session.logout' })}
      topBar={
        <>
          <CommandPaletteLauncher />
          {readsAlerts && <ShellBell changedRef={bellChanged} />}
        </>
      }
    >
      <AlertsChangedContext.Provider value={alertsChanged}>
        {mayOpen ? <Outlet /> : <NoPermission meta={pageMeta(currentPath)} onNavigate={(url) => void router.navigate({ href: url })} />}
      </AlertsChangedContext.Provider>
    </AppShell>
  );
}

/** The top bar's bell: its actor reads while the tab is visible, and again when a page changed alerts. */
function ShellBell({ changedRef }: { changedRef: MutableRefObject<(() => void) | null> }) {
  const { api } = useAppServices();
  const router = useRouter();
  const bell = usePageActor(
    alertBellMachine.provide({
      actors: {
        loadBell: fromPromise(({ signal }) => outcome(() => api.alerts.bell(signal))),
        markSeen: fromPromise(({ signal }) => outcome(() => api.alerts.seen(signal))),
      },
    }),
  );
  // The bell reads while the tab is visible; a hidden tab asks nothing.
  useEffect(() => {
    const follow = () => bell.send({ type: document.visibilityState === 'hidden' ? 'page.hidden' : 'page.visible' });
    follow();
    document.addEventListener('visibilitychange', follow);
    changedRef.current = () => bell.send({ type: 'alerts.changed' });
    return () => {
      document.removeEventListener('visibilitychange', follow);
      changedRef.current = null;
    };
  }, [bell, changedRef]);
  const unread = useSelector(bell, (s) => s.context.bell?.unread ?? 0);
  const latest = useSelector(bell, (s) => s.context.bell?.latest ?? null);
  return <AlertBell unread={unread} latest={latest} onOpen={() => bell.send({ type: 'user.open' })} onNavigate={(url) => void router.navigate({ href: url })} />;
}
