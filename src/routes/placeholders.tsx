// Pages whose capability arrives with a later issue: each shows its real title and breadcrumb and
// says plainly what it will hold. No fake data.
import { useRouter } from '@tanstack/react-router';
import { PAGE_TITLES, type PagePath } from '../domain/navigation';
import { PlaceholderPage } from '../ui/common/PlaceholderPage';

/** The pages still to come (the others have their own route modules). */
type UpcomingPath = Extract<PagePath, '/subscription'>;

const UPCOMING: Record<UpcomingPath, string> = {
  '/subscription': "Every terminal's plan for the current billing cycle, usage, overage and plan changes.",
};

export function placeholderRoute(path: UpcomingPath) {
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
