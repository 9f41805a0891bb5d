// The security of the signed-in account — Change Password and the MFA card — wired once for both
// pages that show it: /settings (portal users) and /my/account (customers). The same
// machines, the same forms; the API calls go to the account kind's own routes.
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { UserType } from '../domain/auth';
import { mfaSetupMachine } from '../machines/mfa-setup';
import { passwordChangeMachine } from '../machines/password-change';
import type { ChangePasswordFormProps } from '../ui/settings/ChangePasswordForm';
import type { MfaCardMode, MfaCardProps } from '../ui/settings/MfaCard';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

const MFA_MODES: readonly MfaCardMode[] = ['starting', 'setup', 'verifying', 'confirmingDisable', 'disabling', 'enabled'];

/** The card's mode is the machine's state ('start' only decides the first one). */
function mfaMode(s: SnapshotFrom<typeof mfaSetupMachine>): MfaCardMode {
  return MFA_MODES.find((mode) => s.matches(mode)) ?? 'disabled';
}

/** The props of Change Password and of the MFA card for the signed-in account of `userType`. */
export function useAccountSecurity(userType: UserType): { passwordChange: ChangePasswordFormProps; mfa: MfaCardProps } {
  const { api, session } = useAppServices();
  const mfaEnabled = useSelector(session, (s) => s.context.profile?.mfaEnabled ?? false);
  const mfaApi = api.mfa.for(userType);

  const password = usePageActor(
    passwordChangeMachine.provide({
      actors: {
        changePassword: fromPromise(async ({ input, signal }) => {
          const result = await api.auth.changePassword(userType, input, signal);
          // The server ends every token issued before the change: keep the fresh one.
          if (result.ok && result.data.token) session.send({ type: 'session.renew', token: result.data.token, profile: result.data.profile });
          return result;
        }),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'settings-password' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'settings-password' }),
      },
    }),
  );

  const mfa = usePageActor(
    mfaSetupMachine.provide({
      actors: {
        startSetup: fromPromise(({ signal }) => outcome(() => mfaApi.setup(signal))),
        verifyCode: fromPromise(({ input, signal }) => outcome(() => mfaApi.verify(input.code, signal))),
        disableMfa: fromPromise(({ input, signal }) => outcome(() => mfaApi.disable(input, signal))),
      },
      actions: {
        copyText: (_, text) => void navigator.clipboard?.writeText(text).catch(() => undefined),
        notifySuccess: (_, message) => void toast.success(message, { id: 'settings-mfa' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'settings-mfa' }),
        mfaChanged: (_, enabled) => session.send({ type: 'profile.update', patch: { mfaEnabled: enabled } }),
      },
    }),
    { input: { mfaEnabled } },
  );

  const form = useSelector(password, (s) => s.context.form);
  const passwordError = useSelector(password, (s) => s.context.error);
  const passwordBusy = useSelector(password, (s) => s.hasTag('busy'));
  const mode = useSelector(mfa, mfaMode);
  const setup = useSelector(mfa, (s) => s.context.setup);
  const code = useSelector(mfa, (s) => s.context.code);
  const canVerify = useSelector(mfa, (s) => s.can({ type: 'user.verify' }));
  const backupCodes = useSelector(mfa, (s) => s.context.backupCodes);
  const proof = useSelector(mfa, (s) => s.context.proof);
  const mfaError = useSelector(mfa, (s) => s.context.error);

  return {
    passwordChange: {
      form,
      error: passwordError,
      busy: passwordBusy,
      onField: (field, value) => password.send({ type: 'user.field', field, value }),
      onSubmit: () => password.send({ type: 'user.submit' }),
    },
    mfa: {
      mode,
      setup,
      code,
      canVerify,
      backupCodes,
      proof,
      error: mfaError,
      onEnable: () => mfa.send({ type: 'user.enable' }),
      onCode: (value) => mfa.send({ type: 'user.code', value }),
      onVerify: () => mfa.send({ type: 'user.verify' }),
      onCancel: () => mfa.send({ type: 'user.cancel' }),
      onCopy: (text) => mfa.send({ type: 'user.copy', text }),
      onDisable: () => mfa.send({ type: 'user.disable' }),
      onProof: (value) => mfa.send({ type: 'user.proof', ...value }),
      onConfirmDisable: () => mfa.send({ type: 'user.confirm' }),
    },
  };
}
