// /forgot-password (public): the forgot-password machine provided with the API. The
// router sends a signed-in account home before this renders.
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { forgotPasswordMachine } from '../machines/forgot-password';
import { ForgotPasswordView, type ForgotPasswordStage } from '../ui/forgot-password/ForgotPasswordView';
import { useAppServices, usePageActor } from './services';

function stageOf(s: SnapshotFrom<typeof forgotPasswordMachine>): ForgotPasswordStage {
  if (s.matches('sent')) return 'sent';
  return s.hasTag('busy') ? 'sending' : 'editing';
}

export function ForgotPasswordRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const forgot = usePageActor(
    forgotPasswordMachine.provide({
      actors: {
        requestReset: fromPromise(async ({ input, signal }) => {
          const result = await api.auth.forgotPassword(input, signal);
          return result.ok ? { ok: true as const, data: null } : { ok: false as const, message: result.message };
        }),
      },
    }),
  );
  const stage = useSelector(forgot, stageOf);
  const email = useSelector(forgot, (s) => s.context.email);
  const error = useSelector(forgot, (s) => s.context.error);

  return (
    <ForgotPasswordView
      stage={stage}
      email={email}
      error={error}
      onEmail={(value) => forgot.send({ type: 'user.email', value })}
      onSubmit={() => forgot.send({ type: 'user.submit' })}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
