// The login screen: the login machine with the admin and customer attempts and, when the account
// has MFA on, the code step (sent to the admin or the customer endpoint, as the machine says),
// provided with the API; a sign-in hands the session its token.
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise } from 'xstate';
import { loginMachine } from '../machines/login';
import { LoginView } from '../ui/login/LoginView';
import { useAppServices, usePageActor } from './services';

export function LoginRoute() {
  const { api, session } = useAppServices();
  const router = useRouter();
  const login = usePageActor(
    loginMachine.provide({
      actors: {
        adminLogin: fromPromise(({ input, signal }) => api.auth.loginAdmin(input, signal)),
        customerLogin: fromPromise(({ input, signal }) => api.auth.loginCustomer(input, signal)),
        verifyLoginCode: fromPromise(({ input: { userType, ...payload }, signal }) => api.auth.loginMfa(userType, payload, signal)),
      },
      actions: {
        // The session change re-runs the /login guard, which leaves for the remembered path or /home.
        completeSignIn: (_, outcome) =>
          session.send({ type: 'session.login', token: outcome.token, profile: outcome.profile, userType: outcome.userType }),
      },
    }),
  );
  const busy = useSelector(login, (s) => s.hasTag('busy'));
  const error = useSelector(login, (s) => (s.matches('failed') ? s.context.error : null));
  const codeStep = useSelector(login, (s) => s.hasTag('codeStep'));
  const code = useSelector(login, (s) => s.context.code);
  const codeError = useSelector(login, (s) => (s.hasTag('codeStep') ? s.context.error : null));

  return (
    <LoginView
      busy={busy}
      error={error}
      onSubmit={(credentials) => login.send({ type: 'user.submit', ...credentials })}
      onNavigate={(url) => void router.navigate({ href: url })}
      {...(codeStep
        ? {
            codeStep: {
              code,
              error: codeError,
              busy,
              onCode: (value: string) => login.send({ type: 'user.code', value }),
              onSubmit: () => login.send({ type: 'user.submitCode' }),
              onBack: () => login.send({ type: 'user.back' }),
            },
          }
        : {})}
    />
  );
}
