// /my/account: the signed-in customer's profile (account-profile machine, PUT
// /customers/profile, the session's profile updated), and the security shared with /settings
// (account-security.ts: Change Password renews the token, the MFA card uses /customers/mfa).
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise } from 'xstate';
import type { CustomerProfile } from '../domain/auth';
import { accountProfileMachine } from '../machines/account-profile';
import { AccountView } from '../ui/account/AccountView';
import { useAccountSecurity } from './account-security';
import { useAppServices, usePageActor } from './services';

const isCustomerProfile = (profile: unknown): profile is CustomerProfile =>
  typeof profile === 'object' && profile !== null && 'company' in profile;

export function MyAccountRoute() {
  const { api, session } = useAppServices();
  const router = useRouter();
  const stored = useSelector(session, (s) => s.context.profile);
  const profile = isCustomerProfile(stored) ? stored : null;
  const security = useAccountSecurity('customer');
  const editor = usePageActor(
    accountProfileMachine.provide({
      actors: {
        saveProfile: fromPromise(async ({ input, signal }) => {
          const result = await api.auth.updateProfile('customer', input, signal);
          if (!result.ok) return { ok: false as const, message: result.message, status: result.status, ...(result.errors ? { errors: result.errors } : {}) };
          return isCustomerProfile(result.data) ? { ok: true as const, data: result.data } : { ok: false as const, message: 'Unexpected response from the server' };
        }),
      },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'account-profile' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'account-profile' }),
        profileSaved: (_, saved) =>
          session.send({ type: 'profile.update', patch: { name: saved.name, company: saved.company, phone: saved.phone, address: saved.address, updatedAt: saved.updatedAt } }),
      },
    }),
    { input: { profile: profile ?? { name: '', company: '', phone: null, address: null } } },
  );
  const form = useSelector(editor, (s) => s.context.form);
  const errors = useSelector(editor, (s) => s.context.errors);
  const failure = useSelector(editor, (s) => s.context.failure);
  const busy = useSelector(editor, (s) => s.hasTag('busy'));

  if (!profile) return null;
  return (
    <AccountView
      account={{ email: profile.email, name: profile.name, company: profile.company, phone: profile.phone, address: profile.address, mfaEnabled: profile.mfaEnabled }}
      profile={{
        form,
        errors,
        failure,
        busy,
        // A member's own row has a name only; the company, phone and address are the organisation's owner's.
        ...(profile.organisationRole !== 'owner' || profile.serviceLines !== null ? { fields: ['name'] as const } : {}),
        onField: (field, value) => editor.send({ type: 'user.field', field, value }),
        onSubmit: () => editor.send({ type: 'user.submit' }),
      }}
      passwordChange={security.passwordChange}
      mfa={security.mfa}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
