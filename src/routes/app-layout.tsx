import { createContext, useContext, useEffect, useMemo } from 'react';
import { Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { alertBellMachine } from '../machines/alert-bell';
import { AlertBell } from '../ui/shell/AlertBell';
import { AppShell } from '../ui/shell/AppShell';
import { CommandPaletteLauncher } from './command-palette';
import { outcome } from './outcome';
import { menuFor } from '../domain/navigation';
import { useAppServices, useIsAdministrator, usePageActor } from './services';

/** What a page tells the shell when it changed alerts (an acknowledgement): the bell reads again. */
const AlertsChangedContext = createContext<() => void>(() => {});
export const useAlertsChanged = () => useContext(AlertsChangedContext);

/** The admin portal's signed-in frame: sidebar, top bar, and the page (customers never get here: guards.ts). */
export function AppLayout() {
  const { api, session } = useAppServices();
  const router = useRouter();
  const name = useSelector(session, (s) => s.context.profile?.name ?? '');
  const email = useSelector(session, (s) => s.context.profile?.email ?? '');
  const currentPath = useRouterState({ select: (s) => s.location.pathname });
  // Administrator-only pages (the audit log) are not offered to the other portal users.
  const administrator = useIsAdministrator();
  const menu = useMemo(() => ({ items: menuFor(administrator ? 'admin' : 'user') }), [administrator]);

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
    return () => document.removeEventListener('visibilitychange', follow);
  }, [bell]);
  const unread = useSelector(bell, (s) => s.context.bell?.unread ?? 0);
  const latest = useSelector(bell, (s) => s.context.bell?.latest ?? null);
  const alertsChanged = useMemo(() => () => bell.send({ type: 'alerts.changed' }), [bell]);

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
          <AlertBell unread={unread} latest={latest} onOpen={() => bell.send({ type: 'user.open' })} onNavigate={(url) => void router.navigate({ href: url })} />
        </>
      }
    >
      <AlertsChangedContext.Provider value={alertsChanged}>
        <Outlet />
      </AlertsChangedContext.Provider>
    </AppShell>
  );
}
