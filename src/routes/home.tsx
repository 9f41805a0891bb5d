import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import type { DashboardSummary } from '../domain/dashboard';
import { createResourceMachine } from '../machines/resource';
import { DashboardView } from '../ui/dashboard/DashboardView';
import { useAppServices, usePageActor } from './services';

const dashboardMachine = createResourceMachine<DashboardSummary>('dashboard');

export function HomeRoute() {
  const { api, session } = useAppServices();
  const router = useRouter();
  const profile = useSelector(session, (s) => s.context.profile);
  const dashboard = usePageActor(
    dashboardMachine.provide({
      actors: {
        load: fromPromise(async ({ signal }) => {
          const result = await api.dashboard.summary(signal);
          return result.ok ? { ok: true as const, data: result.data } : { ok: false as const, message: result.message };
        }),
      },
    }),
  );
  const summary = useSelector(dashboard, (s) => s.context.data);
  const loading = useSelector(dashboard, (s) => s.hasTag('loading'));
  const error = useSelector(dashboard, (s) => (s.matches('failed') ? s.context.error : null));

  return (
    <DashboardView
      profile={profile}
      summary={summary}
      loading={loading}
      error={error}
      onRetry={() => dashboard.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
