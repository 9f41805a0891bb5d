import { useId, useRef, useState } from 'react';
import type { FocusEvent, MouseEvent, SyntheticEvent } from 'react';
import { createPortal } from 'react-dom';
import { Avatar } from 'primereact/avatar';
import { Menu } from 'primereact/menu';
import type { MenuItem as PrimeMenuItem } from 'primereact/menuitem';
import {
  APP_TITLE,
  HOME_URL,
  SIDEBAR_MENU,
  initiallyOpenGroups,
  isItemActive,
  normalizePath,
  type MenuItem,
} from '../../domain/navigation';
import { NavLink } from '../common/NavLink';
import { SatelliteLogo } from '../common/SatelliteLogo';

export interface SidebarUser {
  name: string;
  email: string;
}

export interface AppSidebarProps {
  user: SidebarUser;
  currentPath: string;
  onNavigate(url: string): void;
  onLogout(): void;
  /** Desktop only: icons (3rem) with tooltips instead of the full 16rem menu. */
  collapsed?: boolean;
  /** Rendered inside the mobile sheet (always expanded, fills the sheet). */
  mobile?: boolean;
  /** Defaults to the portal menu of the spec. */
  items?: readonly MenuItem[];
  /** The brand's title and where it leads: the admin portal's unless the customer area gives its own. */
  title?: string;
  homeUrl?: string;
  /** The user menu's first item: the admin portal's Settings unless given (the customer area's Account). */
  accountItem?: { label: string; url: string; icon: string };
  /** The user menu's last item: Log out unless given (the admin preview's "Exit preview"). */
  leaveItem?: { label: string; icon: string };
}

const SETTINGS_ITEM = { label: 'Settings', url: '/settings', icon: 'pi pi-cog' };
const LOG_OUT_ITEM = { label: 'Log out', icon: 'pi pi-sign-out' };

interface TooltipState {
  text: string;
  top: number;
  left: number;
}

function initials(name: string): string {
  const letters = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '');
  return letters.join('') || '?';
}

function ItemIcon({ icon }: { icon: string | undefined }) {
  return <i className={`sidebar-icon ${icon ?? 'pi pi-circle'}`} aria-hidden="true" />;
}

export function AppSidebar({
  user,
  currentPath,
  onNavigate,
  onLogout,
  collapsed = false,
  mobile = false,
  items = SIDEBAR_MENU,
  title = APP_TITLE,
  homeUrl = HOME_URL,
  accountItem = SETTINGS_ITEM,
  leaveItem = LOG_OUT_ITEM,
}: AppSidebarProps) {
  const isCollapsed = collapsed && !mobile;
  const idPrefix = useId();
  const menuId = `${idPrefix}-user-menu`;
  const userMenu = useRef<Menu>(null);
  const [userMenuOpen, setUserMenuOpen] = useState(false);
  // Groups the user opened or closed by hand; the others follow the current path.
  const [toggledGroups, setToggledGroups] = useState<Record<string, boolean>>({});
  const [tooltip, setTooltip] = useState<TooltipState | null>(null);

  const openByPath = new Set(initiallyOpenGroups(items, currentPath));
  const isGroupOpen = (title: string) => toggledGroups[title] ?? openByPath.has(title);
  const isCurrent = (url: string) => normalizePath(url) === normalizePath(currentPath);

  const userMenuModel: PrimeMenuItem[] = [
    { label: accountItem.label, icon: accountItem.icon, command: () => onNavigate(accountItem.url) },
    { separator: true },
    { label: leaveItem.label, icon: leaveItem.icon, command: () => onLogout() },
  ];

  // Collapsed icons name themselves in a small floating label (aria-hidden: the links keep their text).
  const showTooltip = (event: MouseEvent<HTMLElement> | FocusEvent<HTMLElement>) => {
    if (!isCollapsed) return;
    const source = (event.target as HTMLElement).closest<HTMLElement>('[data-tooltip]');
    if (!source) {
      setTooltip(null);
      return;
    }
    const text = source.dataset.tooltip ?? '';
    const box = source.getBoundingClientRect();
    setTooltip((current) =>
      current?.text === text ? current : { text, top: box.top + box.height / 2, left: box.right + 8 },
    );
  };
  const hideTooltip = () => setTooltip(null);

  const link = (item: MenuItem, extraClass = '') => (
    <NavLink
      url={item.url}
      onNavigate={onNavigate}
      className={`sidebar-link ${extraClass}`.trim()}
      aria-current={isCurrent(item.url) ? 'page' : undefined}
      data-active={isItemActive(item, currentPath) || undefined}
      data-tooltip={item.title}
    >
      <ItemIcon icon={item.icon} />
      <span className="sidebar-label">{item.title}</span>
    </NavLink>
  );

  return (
    <div
      className="app-sidebar"
      data-state={isCollapsed ? 'collapsed' : 'expanded'}
      data-variant={mobile ? 'mobile' : 'desktop'}
      onMouseOver={showTooltip}
      onMouseLeave={hideTooltip}
      onFocus={showTooltip}
      onBlur={hideTooltip}
      onKeyDown={(event) => event.key === 'Escape' && hideTooltip()}
    >
      <div className="app-sidebar-header">
        <NavLink url={homeUrl} onNavigate={onNavigate} className="sidebar-brand" data-tooltip={title}>
          <SatelliteLogo size={32} className="sidebar-logo" />
          <span className="sidebar-label sidebar-brand-title">{title}</span>
        </NavLink>
      </div>

      <nav aria-label="Main navigation" className="app-sidebar-nav">
        <ul className="sidebar-menu">
          {items.map((item) => {
            const children = item.items ?? [];
            if (children.length === 0 || isCollapsed) {
              // Collapsed, a group is its icon: a link to the group's own page.
              return <li key={item.title}>{link(item)}</li>;
            }
            const open = isGroupOpen(item.title);
            const submenuId = `${idPrefix}-group-${item.title.replace(/\W+/g, '-')}`;
            return (
              <li key={item.title} className="sidebar-group" data-open={open || undefined}>
                <button
                  type="button"
                  className="sidebar-link"
                  aria-expanded={open}
                  aria-controls={submenuId}
                  data-active={isItemActive(item, currentPath) || undefined}
                  onClick={() => setToggledGroups((current) => ({ ...current, [item.title]: !open }))}
                >
                  <ItemIcon icon={item.icon} />
                  <span className="sidebar-label">{item.title}</span>
                  <i className="pi pi-chevron-down sidebar-chevron" aria-hidden="true" />
                </button>
                <ul id={submenuId} className="sidebar-submenu" hidden={!open}>
                  {children.map((child) => (
                    <li key={child.url + child.title}>{link(child, 'sidebar-sublink')}</li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      </nav>

      <div className="app-sidebar-footer">
        <button
          type="button"
          className="sidebar-user"
          aria-haspopup="menu"
          aria-expanded={userMenuOpen}
          aria-controls={menuId}
          data-tooltip={user.name}
          onClick={(event: SyntheticEvent) => userMenu.current?.toggle(event)}
        >
          <Avatar label={initials(user.name)} shape="circle" className="sidebar-avatar" aria-hidden="true" />
          <span className="sidebar-label sidebar-user-text">
            <span className="sidebar-user-name">{user.name}</span>
            <span className="sidebar-user-email">{user.email}</span>
          </span>
          <i className="pi pi-angle-up sidebar-label sidebar-user-chevron" aria-hidden="true" />
        </button>
        <Menu
          id={menuId}
          ref={userMenu}
          model={userMenuModel}
          popup
          aria-label="Account"
          className="sidebar-user-menu"
          onShow={() => setUserMenuOpen(true)}
          onHide={() => setUserMenuOpen(false)}
        />
      </div>

      {isCollapsed &&
        tooltip &&
        createPortal(
          <div className="sidebar-tooltip" aria-hidden="true" style={{ top: tooltip.top, left: tooltip.left }}>
            {tooltip.text}
          </div>,
          document.body,
        )}
    </div>
  );
}
