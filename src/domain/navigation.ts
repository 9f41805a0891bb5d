// The sidebar menu, its remembered open state, and the title and breadcrumb of every page
// (spec section 2 "Route table", "Sidebar" and the screen headings; section 9 constants).
import { allows, type Permission } from './permissions';

export interface MenuItem {
  title: string;
  url: string;
  /** primeicons class names, e.g. "pi pi-home". */
  icon?: string;
  items?: MenuItem[];
  /** What the user must hold to see the item (its page's read permission); none: everyone. */
  permission?: Permission;
}

export const APP_TITLE = 'Admin Portal';
/** Where the logo and the Home item lead, and where a signed-in user lands. */
export const HOME_URL = '/home';

export const SIDEBAR_MENU: readonly MenuItem[] = [
  { title: 'Home', url: '/home', icon: 'pi pi-home' },
  {
    title: 'Customers',
    url: '/customers',
    icon: 'pi pi-users',
    items: [
      { title: 'Customer Management', url: '/customers', icon: 'pi pi-briefcase', permission: 'customers:read' },
      { title: 'Starlink API Simulator', url: '/customers/starlink-simulator', icon: 'pi pi-server', permission: 'provider:read' },
      { title: 'Provider accounts', url: '/customers/provider-accounts', icon: 'pi pi-building', permission: 'provider:read' },
    ],
  },
  { title: 'Terminals', url: '/terminals', icon: 'pi pi-wifi', permission: 'terminals:read' },
  // Beside the list rather than in a group with it: a group hides the Terminals link until opened.
  { title: 'Map', url: '/terminals/map', icon: 'pi pi-map', permission: 'terminals:read' },
  { title: 'Requests', url: '/requests', icon: 'pi pi-inbox', permission: 'lifecycle:read' },
  // Beside the requests: both are queues of line changes waiting for an admin's decision.
  { title: 'Automatic actions', url: '/alerts/actions', icon: 'pi pi-bolt', permission: 'lifecycle:read' },
  { title: 'Schedule', url: '/schedule', icon: 'pi pi-calendar-clock', permission: 'lifecycle:read' },
  { title: 'Bulk actions', url: '/bulk', icon: 'pi pi-clone', permission: 'bulk:read' },
  {
    title: 'Alerts',
    url: '/alerts',
    icon: 'pi pi-bell',
    items: [
      { title: 'Alerts', url: '/alerts', icon: 'pi pi-bell', permission: 'alerts:read' },
      { title: 'Alert rules', url: '/alerts/rules', icon: 'pi pi-sliders-h', permission: 'alerts:read' },
      { title: 'Webhooks', url: '/alerts/webhooks', icon: 'pi pi-send', permission: 'alerts:read' },
    ],
  },
  {
    title: 'Billing',
    url: '/billing/statements',
    icon: 'pi pi-wallet',
    items: [
      { title: 'Statements', url: '/billing/statements', icon: 'pi pi-file', permission: 'billing:read' },
      { title: 'Payments', url: '/billing/payments', icon: 'pi pi-wallet', permission: 'billing:read' },
      { title: 'Ageing', url: '/billing/ageing', icon: 'pi pi-hourglass', permission: 'billing:read' },
      { title: 'Prices', url: '/billing/prices', icon: 'pi pi-tags', permission: 'billing:read' },
      { title: 'Reconciliation', url: '/billing/reconciliation', icon: 'pi pi-chart-bar', permission: 'billing:read' },
    ],
  },
  { title: 'Users', url: '/users', icon: 'pi pi-user', permission: 'users:read' },
  { title: 'Roles', url: '/users/roles', icon: 'pi pi-id-card', permission: 'users:read' },
  { title: 'API keys', url: '/users/api-keys', icon: 'pi pi-key', permission: 'users:read' },
  { title: 'Audit log', url: '/audit', icon: 'pi pi-history', permission: 'audit:read' },
  { title: 'Settings', url: '/settings', icon: 'pi pi-cog' },
];

/**
 * The menu a portal user sees: the items their permissions reach. A group shows while any of its
 * children does, and leads to the first of them (its own url may be a page the user cannot read).
 */
export function menuFor(permissions: readonly Permission[], items: readonly MenuItem[] = SIDEBAR_MENU): MenuItem[] {
  return items.flatMap((item): MenuItem[] => {
    if (item.permission && !allows(permissions, item.permission)) return [];
    if (!item.items) return [item];
    const children = menuFor(permissions, item.items);
    if (children.length === 0) return [];
    const url = children.some((child) => child.url === item.url) ? item.url : children[0]!.url;
    return [{ ...item, url, items: children }];
  });
}

/**
 * What a page of the admin portal needs the user to hold; null for the pages every portal user
 * opens (home, settings). The router shows "no permission" for the rest (routes/app-layout.tsx).
 */
export const PAGE_PERMISSIONS: Readonly<Record<Exclude<PagePath, `/my${string}`>, Permission | null>> = {
  '/home': null,
  '/settings': null,
  '/customers': 'customers:read',
  '/customers/starlink-simulator': 'provider:read',
  '/customers/provider-accounts': 'provider:read',
  '/customer/terminals/$customerUuid': 'customers:read',
  '/terminals': 'terminals:read',
  '/terminals/map': 'terminals:read',
  '/subscription': 'subscriptions:read',
  '/subscription/provider-billing': 'billing:read',
  '/users': 'users:read',
  '/users/roles': 'users:read',
  '/users/api-keys': 'users:read',
  '/requests': 'lifecycle:read',
  '/alerts': 'alerts:read',
  '/alerts/rules': 'alerts:read',
  '/alerts/actions': 'lifecycle:read',
  '/schedule': 'lifecycle:read',
  '/alerts/webhooks': 'alerts:read',
  '/billing/statements': 'billing:read',
  '/billing/statements/$statementId': 'billing:read',
  '/billing/payments': 'billing:read',
  '/billing/ageing': 'billing:read',
  '/billing/prices': 'billing:read',
  '/billing/reconciliation': 'billing:read',
  '/audit': 'audit:read',
  '/bulk': 'bulk:read',
};

/** The permission the page at a concrete path needs; null for open pages and paths outside the admin table. */
export function pagePermission(path: string): Permission | null {
  const match = matchPagePath(path);
  if (!match || match.startsWith('/my')) return null;
  return PAGE_PERMISSIONS[match as keyof typeof PAGE_PERMISSIONS];
}

// ---- The customer area: its own frame under /my ----

export const MY_PORTAL_TITLE = 'Customer Portal';
/** Where a signed-in customer lands, and the customer area's logo and Overview item. */
export const MY_HOME_URL = '/my';
export const MY_ACCOUNT_URL = '/my/account';

export const MY_SIDEBAR_MENU: readonly MenuItem[] = [
  { title: 'Overview', url: '/my', icon: 'pi pi-home' },
  { title: 'Terminals', url: '/my/terminals', icon: 'pi pi-wifi' },
  { title: 'Requests', url: '/my/requests', icon: 'pi pi-inbox' },
  { title: 'Alerts', url: '/my/alerts', icon: 'pi pi-bell' },
  { title: 'Statements', url: '/my/statements', icon: 'pi pi-file' },
  { title: 'Account', url: '/my/account', icon: 'pi pi-user' },
];

/** A path of the customer area: /my and below (not /myself). */
export function isMyAreaPath(path: string): boolean {
  const current = normalizePath(path);
  return current === '/my' || current.startsWith('/my/');
}

/** The home of each kind of signed-in account. */
export function homeOf(userType: 'admin' | 'customer'): string {
  return userType === 'customer' ? MY_HOME_URL : HOME_URL;
}

/** A path belongs to an account's own area: the customer area for customers, everything else for admins. */
export function isOwnArea(userType: 'admin' | 'customer', path: string): boolean {
  return userType === 'customer' ? isMyAreaPath(path) : !isMyAreaPath(path);
}

/** "/customers/" and "/customers?page=2" both compare as "/customers"; "/" stays "/". */
export function normalizePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0] ?? '';
  const trimmed = bare.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Active when the path equals the item's url or one of its children's urls. */
export function isItemActive(item: MenuItem, path: string): boolean {
  const current = normalizePath(path);
  if (normalizePath(item.url) === current) return true;
  return (item.items ?? []).some((child) => normalizePath(child.url) === current);
}

/** Titles of the groups that start open: those with an active child. */
export function initiallyOpenGroups(items: readonly MenuItem[], path: string): string[] {
  return items
    .filter((item) => (item.items ?? []).some((child) => isItemActive(child, path)))
    .map((item) => item.title);
}

// ---- Sidebar state (remembered in a cookie, toggled with Ctrl/Meta + B) ----

export const SIDEBAR_COOKIE = 'sidebar_state';
/** 7 days. */
export const SIDEBAR_COOKIE_MAX_AGE = 604800;
export const SIDEBAR_WIDTH = '16rem';
export const SIDEBAR_WIDTH_MOBILE = '18rem';
export const SIDEBAR_WIDTH_COLLAPSED = '3rem';
/** Below this width (px) the sidebar is a mobile sheet. */
export const MOBILE_BREAKPOINT = 768;
export const SIDEBAR_SHORTCUT_KEY = 'b';

/** The remembered open state in a `document.cookie` string; null when absent or unreadable. */
export function parseSidebarCookie(cookieString: string): boolean | null {
  for (const pair of cookieString.split(';')) {
    const [rawName, ...rest] = pair.split('=');
    if (rawName?.trim() !== SIDEBAR_COOKIE) continue;
    const value = rest.join('=').trim();
    if (value === 'true') return true;
    if (value === 'false') return false;
    return null;
  }
  return null;
}

/** The `document.cookie` assignment that remembers the open state for 7 days. */
export function sidebarCookie(open: boolean): string {
  return `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE}`;
}

// ---- Page titles and breadcrumbs ----

export interface Crumb {
  label: string;
  /** Absent on the current page (the last crumb). */
  url?: string;
}

export interface PageMeta {
  title: string;
  breadcrumb: Crumb[];
}

/** Signed-in routes of the route table, in TanStack Router's path syntax. */
export type PagePath =
  | '/home'
  | '/customers'
  | '/customers/starlink-simulator'
  | '/customers/provider-accounts'
  | '/customer/terminals/$customerUuid'
  | '/terminals'
  | '/terminals/map'
  | '/subscription'
  | '/subscription/provider-billing'
  | '/settings'
  | '/users'
  | '/users/roles'
  | '/users/api-keys'
  | '/requests'
  | '/alerts'
  | '/alerts/rules'
  | '/alerts/actions'
  | '/schedule'
  | '/alerts/webhooks'
  | '/billing/statements'
  | '/billing/statements/$statementId'
  | '/billing/payments'
  | '/billing/ageing'
  | '/billing/prices'
  | '/billing/reconciliation'
  | '/audit'
  | '/bulk'
  | '/my'
  | '/my/terminals'
  | '/my/terminals/$terminalId'
  | '/my/requests'
  | '/my/alerts'
  | '/my/statements'
  | '/my/statements/$statementId'
  | '/my/account';

const home: Crumb = { label: 'Home', url: '/home' };
const myHome: Crumb = { label: 'Overview', url: MY_HOME_URL };

export const PAGE_TITLES: Readonly<Record<PagePath, PageMeta>> = {
  '/home': { title: 'Enterprise Dashboard', breadcrumb: [] },
  '/customers': { title: 'Customer Management', breadcrumb: [home, { label: 'Customers' }] },
  '/customers/starlink-simulator': {
    title: 'Starlink API Simulator',
    breadcrumb: [home, { label: 'Customers', url: '/customers' }, { label: 'Starlink API Simulator' }],
  },
  '/customers/provider-accounts': {
    title: 'Provider accounts',
    breadcrumb: [home, { label: 'Customers', url: '/customers' }, { label: 'Provider accounts' }],
  },
  '/customer/terminals/$customerUuid': {
    title: 'Customer Terminal Usage',
    breadcrumb: [{ label: 'Customers', url: '/customers' }, { label: 'Terminal Usage' }],
  },
  '/terminals': { title: 'Terminal Management', breadcrumb: [home, { label: 'Terminals' }] },
  '/terminals/map': { title: 'Fleet map', breadcrumb: [home, { label: 'Terminals', url: '/terminals' }, { label: 'Fleet map' }] },
  '/subscription': { title: 'Subscriptions', breadcrumb: [home, { label: 'Subscriptions' }] },
  '/subscription/provider-billing': {
    title: 'Provider Billing',
    breadcrumb: [home, { label: 'Subscriptions', url: '/subscription' }, { label: 'Provider Billing' }],
  },
  '/settings': { title: 'Settings', breadcrumb: [{ label: 'Settings' }] },
  // The spec's users page links "Dashboard" to /dashboard, which the router sends on to /home.
  '/users': { title: 'User Management', breadcrumb: [{ label: 'Dashboard', url: '/dashboard' }, { label: 'Users' }] },
  '/users/roles': { title: 'Roles and permissions', breadcrumb: [home, { label: 'Users', url: '/users' }, { label: 'Roles' }] },
  '/users/api-keys': { title: 'API keys', breadcrumb: [home, { label: 'Users', url: '/users' }, { label: 'API keys' }] },
  '/requests': { title: 'Customer Requests', breadcrumb: [home, { label: 'Requests' }] },
  '/alerts': { title: 'Alerts', breadcrumb: [home, { label: 'Alerts' }] },
  '/alerts/rules': { title: 'Alert rules', breadcrumb: [home, { label: 'Alerts', url: '/alerts' }, { label: 'Alert rules' }] },
  '/alerts/actions': { title: 'Automatic actions', breadcrumb: [home, { label: 'Automatic actions' }] },
  '/schedule': { title: 'Schedule', breadcrumb: [home, { label: 'Schedule' }] },
  '/alerts/webhooks': { title: 'Webhooks', breadcrumb: [home, { label: 'Alerts', url: '/alerts' }, { label: 'Webhooks' }] },
  '/billing/statements': { title: 'Statements', breadcrumb: [home, { label: 'Billing' }, { label: 'Statements' }] },
  '/billing/statements/$statementId': {
    title: 'Statement',
    breadcrumb: [home, { label: 'Statements', url: '/billing/statements' }, { label: 'Statement' }],
  },
  '/billing/payments': { title: 'Payments', breadcrumb: [home, { label: 'Billing' }, { label: 'Payments' }] },
  '/billing/ageing': { title: 'Ageing', breadcrumb: [home, { label: 'Billing' }, { label: 'Ageing' }] },
  '/billing/prices': { title: 'Prices', breadcrumb: [home, { label: 'Billing' }, { label: 'Prices' }] },
  '/billing/reconciliation': { title: 'Reconciliation', breadcrumb: [home, { label: 'Billing' }, { label: 'Reconciliation' }] },
  '/audit': { title: 'Audit log', breadcrumb: [home, { label: 'Audit log' }] },
  '/bulk': { title: 'Bulk actions', breadcrumb: [home, { label: 'Bulk actions' }] },
  '/my': { title: 'Overview', breadcrumb: [] },
  '/my/terminals': { title: 'My Terminals', breadcrumb: [myHome, { label: 'Terminals' }] },
  '/my/terminals/$terminalId': { title: 'Terminal', breadcrumb: [myHome, { label: 'Terminals', url: '/my/terminals' }, { label: 'Terminal' }] },
  '/my/requests': { title: 'My Requests', breadcrumb: [myHome, { label: 'Requests' }] },
  '/my/alerts': { title: 'My Alerts', breadcrumb: [myHome, { label: 'Alerts' }] },
  '/my/statements': { title: 'My Statements', breadcrumb: [myHome, { label: 'Statements' }] },
  '/my/statements/$statementId': { title: 'Statement', breadcrumb: [myHome, { label: 'Statements', url: '/my/statements' }, { label: 'Statement' }] },
  '/my/account': { title: 'My Account', breadcrumb: [myHome, { label: 'Account' }] },
};

export const LOGIN_TITLE = 'Login';

/** The route-table entry a concrete path belongs to, or null for paths outside it. */
export function matchPagePath(path: string): PagePath | null {
  const current = normalizePath(path);
  if (Object.hasOwn(PAGE_TITLES, current) && !current.includes('$')) return current as PagePath;
  if (/^\/customer\/terminals\/[^/]+$/.test(current)) return '/customer/terminals/$customerUuid';
  if (/^\/my\/terminals\/[^/]+$/.test(current)) return '/my/terminals/$terminalId';
  if (/^\/billing\/statements\/[^/]+$/.test(current)) return '/billing/statements/$statementId';
  if (/^\/my\/statements\/[^/]+$/.test(current)) return '/my/statements/$statementId';
  return null;
}

/** Title and breadcrumb for a concrete path, or null for paths outside the route table. */
export function pageMeta(path: string): PageMeta | null {
  const match = matchPagePath(path);
  return match ? PAGE_TITLES[match] : null;
}

/** Browser tab title: "Terminal Management · Admin Portal", "My Terminals · Customer Portal". */
export function documentTitle(path: string): string {
  const meta = pageMeta(path);
  if (normalizePath(path) === '/login') return `${LOGIN_TITLE} · ${APP_TITLE}`;
  const portal = isMyAreaPath(path) ? MY_PORTAL_TITLE : APP_TITLE;
  return meta ? `${meta.title} · ${portal}` : portal;
}
