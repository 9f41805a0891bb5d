import { Outlet, useMatches, useRouter, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AppShell } from '../ui/shell/AppShell';
import { AdminOnlyNotice } from '../ui/common/AdminOnlyNotice';
import { useAppServices } from './services';

/** The signed-in frame: sidebar, top bar, and the page — or the notice when a customer opens an admin page. */
export function AppLayout() {
  const { session } = useAppServices();
  const router = useRouter();
  const name = useSelector(session, (s) => s.context.profile?.name ?? '');
  const email = useSelector(session, (s) => s.context.profile?.email ?? '');
  const isCustomer = useSelector(session, (s) => s.context.userType === 'customer');
  const currentPath = useRouterState({ select: (s) => s.location.pathname });
  const adminOnly = useMatches({ select: (matches) => matches.some((match) => match.staticData?.adminOnly) });

  return (
    <AppShell
      user={{ name, email }}
      currentPath={currentPath}
      onNavigate={(url) => void router.navigate({ href: url })}
      onLogout={() => session.send({ type: 'session.logout' })}
    >
      {isCustomer && adminOnly ? <AdminOnlyNotice /> : <Outlet />}
    </AppShell>
  );
}
