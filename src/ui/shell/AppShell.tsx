import type { CSSProperties, ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Sidebar } from 'primereact/sidebar';
import {
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_MOBILE,
} from '../../domain/navigation';
import { AppSidebar, type AppSidebarProps, type SidebarUser } from './AppSidebar';
import { useSidebarState } from './useSidebarState';
import { ThemeToggle } from '../theme/ThemeToggle';

export interface AppShellProps {
  user: SidebarUser;
  currentPath: string;
  onNavigate(url: string): void;
  onLogout(): void;
  /** The sidebar's menu, title, home and account item: the admin portal's unless given (the customer area gives its own). */
  menu?: Pick<AppSidebarProps, 'items' | 'title' | 'homeUrl' | 'accountItem' | 'leaveItem'>;
  /** Shown in the top bar beside the sidebar toggle. */
  topBar?: ReactNode;
  children?: ReactNode;
}

const widths = {
  '--sidebar-width': SIDEBAR_WIDTH,
  '--sidebar-width-mobile': SIDEBAR_WIDTH_MOBILE,
  '--sidebar-width-collapsed': SIDEBAR_WIDTH_COLLAPSED,
} as CSSProperties;

/** The signed-in frame: collapsible sidebar (a sheet below 768 px), top bar, content area. */
export function AppShell({ user, currentPath, onNavigate, onLogout, menu = {}, topBar, children }: AppShellProps) {
  const sidebar = useSidebarState();

  const navigateFromSheet = (url: string) => {
    sidebar.setOpenMobile(false);
    onNavigate(url);
  };
  const logoutFromSheet = () => {
    sidebar.setOpenMobile(false);
    onLogout();
  };

  return (
    <div className="app-shell" style={widths} data-sidebar-state={sidebar.state} data-mobile={sidebar.isMobile || undefined}>
      {sidebar.isMobile ? (
        <Sidebar
          visible={sidebar.openMobile}
          onHide={() => sidebar.setOpenMobile(false)}
          position="left"
          className="app-sidebar-sheet"
          style={{ width: SIDEBAR_WIDTH_MOBILE }}
          aria-label="Navigation menu"
          ariaCloseLabel="Close navigation menu"
        >
          <AppSidebar
            mobile
            {...menu}
            user={user}
            currentPath={currentPath}
            onNavigate={navigateFromSheet}
            onLogout={logoutFromSheet}
          />
        </Sidebar>
      ) : (
        <AppSidebar
          collapsed={!sidebar.open}
          {...menu}
          user={user}
          currentPath={currentPath}
          onNavigate={onNavigate}
          onLogout={onLogout}
        />
      )}

      <div className="app-main">
        <header className="app-topbar">
          <Button
            type="button"
            icon="pi pi-bars"
            text
            rounded
            severity="secondary"
            aria-label="Toggle sidebar"
            aria-expanded={sidebar.isMobile ? sidebar.openMobile : sidebar.open}
            title="Toggle sidebar (Ctrl+B)"
            onClick={sidebar.toggleSidebar}
          />
          {topBar}
          <ThemeToggle />
        </header>
        <main className="app-content">{children}</main>
      </div>
    </div>
  );
}
