import { Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AppShell } from '../ui/shell/AppShell';
import { useAppServices } from './services';

/** The admin portal's signed-in frame: sidebar, top bar, and the page (customers never get here: guards.ts). */
export function AppLayout() {
  const { session } = useAppServices();
  const router = useRouter();
  const name = useSelector(session, (s) => s.context.profile?.name ?? '');
  const email = useSelector(session, (s) => s.context.profile?.email ?? '');
  const currentPath = useRouterState({ select: (s) => s.location.pathname });

  return (
    <AppShell
      user={{ name, email }}
      currentPath={currentPath}
      onNavigate={(url) => void router.navigate({ href: url })}
      onLogout={() => session.send({ type: 'session.logout' })}
    >
      <Outlet />
    </AppShell>
  );
}
