// Pages whose capability arrives with a later issue: each shows its real title and breadcrumb and
// says plainly what it will hold. No fake data.
import { useRouter } from '@tanstack/react-router';
import { PAGE_TITLES, type PagePath } from '../domain/navigation';
import { PlaceholderPage } from '../ui/common/PlaceholderPage';

const UPCOMING: Record<Exclude<PagePath, '/home'>, string> = {
  '/customers':
    'Enterprise customers: search, status filters, creation with a password-setup link, editing, blocking, extending and terminal assignment.',
  '/customers/starlink-simulator':
    "A console for the provider's API: service-line search, user terminals, usage and raw responses.",
  '/customer/terminals/$customerUuid': "This customer's terminals and their data usage by month, with terminal assignment.",
  '/terminals': "The terminal inventory kept in step with the provider by a background sync, with each terminal's details.",
  '/subscription': "Every terminal's plan for the current billing cycle, usage, overage and plan changes.",
  '/settings': 'Your account details, password change and multi-factor authentication.',
  '/users': 'Portal users: roles, status, multi-factor authentication and account actions.',
};

export function placeholderRoute(path: Exclude<PagePath, '/home'>) {
  function Placeholder() {
    const router = useRouter();
    const meta = PAGE_TITLES[path];
    return (
      <PlaceholderPage
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        description={UPCOMING[path]}
        onNavigate={(url) => void router.navigate({ href: url })}
      />
    );
  }
  Placeholder.displayName = `Placeholder(${path})`;
  return Placeholder;
}
