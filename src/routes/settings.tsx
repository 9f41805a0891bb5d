// Settings (/settings): the account's own details from the session, and its security (Change
// Password and the MFA card, wired in account-security.ts and shared with /my/account).
// Customers have their own page (/my/account); here MFA is shown to portal users only.
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { SettingsView } from '../ui/settings/SettingsView';
import { useAccountSecurity } from './account-security';
import { useAppServices } from './services';

export function SettingsRoute() {
  const { session } = useAppServices();
  const router = useRouter();
  const profile = useSelector(session, (s) => s.context.profile);
  const userType = useSelector(session, (s) => s.context.userType) ?? 'admin';
  const security = useAccountSecurity(userType);

  if (!profile) return null;
  return (
    <SettingsView
      account={{
        email: profile.email,
        name: profile.name,
        isActive: profile.isActive,
        createdAt: profile.createdAt || null,
        updatedAt: profile.updatedAt || null,
      }}
      passwordChange={security.passwordChange}
      mfa={userType === 'admin' ? security.mfa : null}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
