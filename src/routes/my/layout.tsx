// The customer area's signed-in frame (/my/…): its own shell around the page. Admins never get
// here (guards.ts sends them to /home).
import { Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { MyShell } from '../../ui/my/MyShell';
import { useAppServices } from '../services';
import { MyAreaSourceContext, type MyAreaSource } from './source';

export function MyLayout() {
  const { api, session } = useAppServices();
  const router = useRouter();
  const organisationRole = useSelector(session, (s) => (s.context.profile && 'organisationRole' in s.context.profile ? s.context.profile.organisationRole : 'owner'));
  const serviceLines = useSelector(session, (s) => (s.context.profile && 'serviceLines' in s.context.profile ? s.context.profile.serviceLines : null));
  const seat = useMemo(() => ({ organisationRole, serviceLines }), [organisationRole, serviceLines]);
  // The customer's own area: their own routes, every action on, except for a viewer, who reads only.
  const source = useMemo<MyAreaSource>(
    () => ({
      overview: api.myArea.overview,
      terminals: api.myArea.terminals,
      terminal: api.myArea.terminal,
      telemetry: api.telemetry.myTerminalHistory,
      requests: api.requests.mine,
      alerts: api.alerts.mine,
      statements: api.statements.mine.list,
      statement: api.statements.mine.get,
      account: api.ledger.mine,
      href: (path) => path,
      readOnly: organisationRole === 'viewer',
    }),
    [api, organisationRole],
  );
  const name = useSelector(session, (s) => s.context.profile?.name ?? '');
  const email = useSelector(session, (s) => s.context.profile?.email ?? '');
  const company = useSelector(session, (s) => (s.context.profile && 'company' in s.context.profile ? s.context.profile.company : ''));
  const currentPath = useRouterState({ select: (s) => s.location.pathname });

  return (
    <MyShell
      customer={{ name, company, email }}
      currentPath={currentPath}
      seat={seat}
      onNavigate={(url) => void router.navigate({ href: url })}
      onLogout={() => session.send({ type: 'session.logout' })}
    >
      <MyAreaSourceContext.Provider value={source}>
        <Outlet />
      </MyAreaSourceContext.Provider>
    </MyShell>
  );
}
