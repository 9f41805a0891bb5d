// The customer area's frame: the shared shell with the customer's own menu (Overview, Terminals,
// Requests, Account), "Customer Portal" as its title, and the customer's name and company. It
// never shows the admin portal's menu. In the admin "View as customer" preview it carries a
// banner above every page and the user menu's last item leaves the preview instead of logging out.
import type { ReactNode } from 'react';
import { myMenuFor, type OrganisationSeat } from '../../domain/members';
import { MY_ACCOUNT_URL, MY_HOME_URL, MY_PORTAL_TITLE, MY_SIDEBAR_MENU } from '../../domain/navigation';
import { AppShell } from '../shell/AppShell';

export interface MyShellProps {
  customer: { name: string; company: string; email: string };
  currentPath: string;
  onNavigate(url: string): void;
  /** Log out; in the preview, leave it. */
  onLogout(): void;
  /** The signed-in person's place in their organisation: owners get Team, limited members no Statements. */
  seat?: OrganisationSeat;
  /** The admin preview: its banner, and the user menu's "Exit preview" in place of Log out. */
  preview?: { banner: ReactNode };
  children?: ReactNode;
}

const MENU = {
  items: MY_SIDEBAR_MENU,
  title: MY_PORTAL_TITLE,
  homeUrl: MY_HOME_URL,
  accountItem: { label: 'Account', url: MY_ACCOUNT_URL, icon: 'pi pi-user' },
};
const PREVIEW_MENU = { ...MENU, leaveItem: { label: 'Exit preview', icon: 'pi pi-times' } };

export function MyShell({ customer, currentPath, onNavigate, onLogout, seat, preview, children }: MyShellProps) {
  const menu = preview ? PREVIEW_MENU : seat ? { ...MENU, items: myMenuFor(MY_SIDEBAR_MENU, seat) } : MENU;
  return (
    <AppShell
      // The sidebar's second line: the company the customer signs in for, else their email.
      user={{ name: customer.name, email: customer.company || customer.email }}
      currentPath={currentPath}
      onNavigate={onNavigate}
      onLogout={onLogout}
      menu={menu}
      topBar={
        <div className="my-topbar">
          <span className="my-topbar-title">{MY_PORTAL_TITLE}</span>
          {customer.company && <span className="my-topbar-company text-muted">{customer.company}</span>}
        </div>
      }
    >
      {preview?.banner}
      {children}
    </AppShell>
  );
}
