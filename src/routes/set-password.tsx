// The public page of the emailed password-setup or reset link: `/set-password?token=…`. It sits outside the
// signed-in layout, so whoever is (or is not) signed in on this browser sees the same page.
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { passwordSetupMachine } from '../machines/customer-password-setup';
import { SetPasswordView, type SetPasswordStage } from '../ui/set-password/SetPasswordView';
import { useAppServices, usePageActor } from './services';

export { validateSetPasswordSearch, type SetPasswordSearch } from './search-params';

const routeApi = getRouteApi('/set-password');

function stageOf(s: SnapshotFrom<typeof passwordSetupMachine>): SetPasswordStage {
  if (s.matches('ready')) return 'ready';
  if (s.matches('submitting')) return 'submitting';
  if (s.matches('done')) return 'done';
  if (s.matches('invalid')) return 'invalid';
  if (s.matches('gone')) return 'gone';
  if (s.matches('checkFailed')) return 'checkFailed';
  return 'checking';
}

export function SetPasswordRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const { token } = routeApi.useSearch();
  const setup = usePageActor(
    passwordSetupMachine.provide({
      actors: {
        checkToken: fromPromise(({ input, signal }) => api.passwordSetup.check(input, signal)),
        setPassword: fromPromise(({ input, signal }) => api.passwordSetup.complete(input, signal)),
      },
    }),
    { input: { token } },
  );
  const stage = useSelector(setup, stageOf);
  const account = useSelector(setup, (s) => s.context.account);
  const password = useSelector(setup, (s) => s.context.password);
  const confirmPassword = useSelector(setup, (s) => s.context.confirmPassword);
  const problem = useSelector(setup, (s) => s.context.problem);
  const linkMessage = useSelector(setup, (s) => s.context.linkMessage);
  const email = useSelector(setup, (s) => s.context.email);
  // A forgot-password link reads "Reset your password" once the server has said so.
  const purpose = useSelector(setup, (s) => s.context.account?.purpose ?? 'setup');

  return (
    <SetPasswordView
      stage={stage}
      account={account}
      password={password}
      confirmPassword={confirmPassword}
      problem={problem}
      linkMessage={linkMessage}
      email={email}
      purpose={purpose}
      onField={(field, value) => setup.send({ type: 'user.field', field, value })}
      onSubmit={() => setup.send({ type: 'user.submit' })}
      onRetry={() => setup.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
