import { describe, expect, it } from 'vitest';
import {
  APP_TITLE,
  HOME_URL,
  MOBILE_BREAKPOINT,
  PAGE_TITLES,
  SIDEBAR_COOKIE,
  SIDEBAR_COOKIE_MAX_AGE,
  SIDEBAR_MENU,
  SIDEBAR_SHORTCUT_KEY,
  SIDEBAR_WIDTH,
  SIDEBAR_WIDTH_COLLAPSED,
  SIDEBAR_WIDTH_MOBILE,
  documentTitle,
  initiallyOpenGroups,
  isItemActive,
  matchPagePath,
  menuFor,
  pagePermission,
  normalizePath,
  pageMeta,
  parseSidebarCookie,
  sidebarCookie,
  type MenuItem,
} from '../../src/domain/navigation';
import { builtInRole, type Permission } from '../../src/domain/permissions';

const customers = SIDEBAR_MENU.find((item) => item.title === 'Customers') as MenuItem;
const home = SIDEBAR_MENU.find((item) => item.title === 'Home') as MenuItem;

describe('the sidebar menu', () => {
  it('is titled "Admin Portal" and its logo leads home', () => {
    expect(APP_TITLE).toBe('Admin Portal');
    expect(HOME_URL).toBe('/home');
  });

  it('lists Home, Customers, Terminals, Map, Requests, Automatic actions, Schedule, Bulk actions, Alerts, Billing, Users, Roles, API keys, Audit log and Settings in that order with their urls', () => {
    expect(SIDEBAR_MENU.map((item) => [item.title, item.url])).toEqual([
      ['Home', '/home'],
      ['Customers', '/customers'],
      ['Terminals', '/terminals'],
      ['Map', '/terminals/map'],
      ['Requests', '/requests'],
      ['Automatic actions', '/alerts/actions'],
      ['Schedule', '/schedule'],
      ['Bulk actions', '/bulk'],
      ['Alerts', '/alerts'],
      ['Billing', '/billing/statements'],
      ['Users', '/users'],
      ['Roles', '/users/roles'],
      ['API keys', '/users/api-keys'],
      ['Audit log', '/audit'],
      ['Settings', '/settings'],
    ]);
  });

  it('shows each item to those whose permissions read its page; Home and Settings to everyone', () => {
    const titles = (permissions: readonly Permission[]) => menuFor(permissions).map((item) => [item.title, ...(item.items ?? []).map((child) => child.title)].join(' > '));
    expect(menuFor(builtInRole('owner').permissions)).toEqual(SIDEBAR_MENU);
    expect(titles([])).toEqual(['Home', 'Settings']);
    expect(titles(builtInRole('billing').permissions)).toEqual([
      'Home',
      'Customers > Customer Management',
      'Terminals',
      'Map',
      'Requests',
      // Line changes waiting or set for later are lifecycle work, which Billing reads.
      'Automatic actions',
      'Schedule',
      'Billing > Statements > Payments > Ageing > Prices > Reconciliation',
      'Settings',
    ]);
    expect(titles(builtInRole('user_management_read_only').permissions)).toEqual(['Home', 'Users', 'Roles', 'API keys', 'Audit log', 'Settings']);
    // Manage includes read.
    expect(titles(['alerts:manage'])).toEqual(['Home', 'Alerts > Alerts > Alert rules > Webhooks', 'Settings']);
  });

  it('shows a group while any child shows, leading to the first child the user may open', () => {
    expect(menuFor(['provider:read']).find((item) => item.title === 'Customers')).toMatchObject({
      url: '/customers/starlink-simulator',
      items: [{ title: 'Starlink API Simulator' }, { title: 'Provider accounts' }],
    });
    const audit = SIDEBAR_MENU.find((item) => item.url === '/audit') as MenuItem;
    expect(audit).toMatchObject({ title: 'Audit log', icon: 'pi pi-history', permission: 'audit:read' });
    expect(menuFor([], [{ title: 'G', url: '/g', items: [audit, home] }])).toEqual([{ title: 'G', url: '/home', items: [home] }]);
    expect(menuFor([], [{ title: 'G', url: '/g', items: [audit] }])).toEqual([]);
  });

  it('names the permission each admin page needs; open pages and paths outside the table need none', () => {
    expect(pagePermission('/billing/statements/abc')).toBe('billing:read');
    expect(pagePermission('/billing/payments')).toBe('billing:read');
    expect(pagePermission('/billing/ageing')).toBe('billing:read');
    expect(pagePermission('/users/roles')).toBe('users:read');
    expect(pagePermission('/audit?page=2')).toBe('audit:read');
    expect(pagePermission('/customer/terminals/u-1')).toBe('customers:read');
    expect(pagePermission('/customers/provider-accounts')).toBe('provider:read');
    expect(pagePermission('/terminals/map?status=warning')).toBe('terminals:read');
    expect(pagePermission('/home')).toBeNull();
    expect(pagePermission('/settings')).toBeNull();
    expect(pagePermission('/my/terminals')).toBeNull();
    expect(pagePermission('/nowhere')).toBeNull();
    // Every item of the menu asks for what its page needs.
    for (const item of SIDEBAR_MENU.flatMap((i) => i.items ?? [i])) expect(item.permission ?? null).toBe(pagePermission(item.url));
  });

  it('nests Customer Management, the Starlink API Simulator and the provider accounts under Customers', () => {
    expect(customers.items?.map((item) => [item.title, item.url])).toEqual([
      ['Customer Management', '/customers'],
      ['Starlink API Simulator', '/customers/starlink-simulator'],
      ['Provider accounts', '/customers/provider-accounts'],
    ]);
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/customers/provider-accounts')).toEqual(['Customers']);
  });

  it('puts the fleet map right under Terminals, for those who read terminals, marking only itself on its page', () => {
    const index = SIDEBAR_MENU.findIndex((item) => item.title === 'Terminals');
    expect(SIDEBAR_MENU[index + 1]).toEqual({ title: 'Map', url: '/terminals/map', icon: 'pi pi-map', permission: 'terminals:read' });
    expect(menuFor(['terminals:read']).map((item) => item.title)).toEqual(['Home', 'Terminals', 'Map', 'Settings']);
    expect(isItemActive(SIDEBAR_MENU[index + 1]!, '/terminals/map?status=warning')).toBe(true);
    expect(isItemActive(SIDEBAR_MENU[index]!, '/terminals/map')).toBe(false);
  });

  it('nests the alerts list, the alert rules and the webhooks under Alerts, open on any of them', () => {
    const alerts = SIDEBAR_MENU.find((item) => item.title === 'Alerts') as MenuItem;
    expect(alerts.icon).toBe('pi pi-bell');
    expect(alerts.items?.map((item) => [item.title, item.url, item.icon])).toEqual([
      ['Alerts', '/alerts', 'pi pi-bell'],
      ['Alert rules', '/alerts/rules', 'pi pi-sliders-h'],
      ['Webhooks', '/alerts/webhooks', 'pi pi-send'],
    ]);
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/alerts/webhooks')).toEqual(['Alerts']);
  });

  it('nests Statements, Payments, Ageing, Prices and Reconciliation under Billing, open on any of them', () => {
    const billing = SIDEBAR_MENU.find((item) => item.title === 'Billing') as MenuItem;
    expect(billing.items?.map((item) => [item.title, item.url, item.icon])).toEqual([
      ['Statements', '/billing/statements', 'pi pi-file'],
      ['Payments', '/billing/payments', 'pi pi-wallet'],
      ['Ageing', '/billing/ageing', 'pi pi-hourglass'],
      ['Prices', '/billing/prices', 'pi pi-tags'],
      ['Reconciliation', '/billing/reconciliation', 'pi pi-chart-bar'],
    ]);
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/billing/reconciliation')).toEqual(['Billing']);
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/billing/ageing')).toEqual(['Billing']);
  });

  it('gives every item a primeicons class', () => {
    const all = SIDEBAR_MENU.flatMap((item) => [item, ...(item.items ?? [])]);
    for (const item of all) expect(item.icon).toMatch(/^pi pi-[a-z-]+$/);
  });
});

describe('isItemActive', () => {
  it('is true when the path equals the item url', () => {
    expect(isItemActive(home, '/home')).toBe(true);
  });

  it('ignores a trailing slash on either side', () => {
    expect(isItemActive(home, '/home/')).toBe(true);
    expect(isItemActive({ title: 'T', url: '/terminals/' }, '/terminals')).toBe(true);
  });

  it('is true for a group when the path equals one of its children', () => {
    expect(isItemActive(customers, '/customers/starlink-simulator')).toBe(true);
  });

  it('is false for unrelated and merely prefixed paths', () => {
    expect(isItemActive(home, '/customers')).toBe(false);
    expect(isItemActive(home, '/home/extra')).toBe(false);
    expect(isItemActive(customers, '/customer/terminals/abc')).toBe(false);
  });

  it('marks only the matching child of a group active', () => {
    const [management, simulator] = customers.items ?? [];
    expect(isItemActive(management as MenuItem, '/customers/starlink-simulator')).toBe(false);
    expect(isItemActive(simulator as MenuItem, '/customers/starlink-simulator')).toBe(true);
  });
});

describe('initiallyOpenGroups', () => {
  it('opens the Customers group on either of its child pages', () => {
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/customers')).toEqual(['Customers']);
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/customers/starlink-simulator/')).toEqual(['Customers']);
  });

  it('keeps every group closed elsewhere', () => {
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/home')).toEqual([]);
    expect(initiallyOpenGroups(SIDEBAR_MENU, '/terminals')).toEqual([]);
  });
});

describe('normalizePath', () => {
  it('drops trailing slashes, query and hash but keeps the root', () => {
    expect(normalizePath('/customers/')).toBe('/customers');
    expect(normalizePath('/customers?page=2#top')).toBe('/customers');
    expect(normalizePath('/')).toBe('/');
    expect(normalizePath('')).toBe('/');
  });
});

describe('the sidebar cookie and constants', () => {
  it('match the spec: sidebar_state for 7 days, 16/18/3 rem, 768 px, the b key', () => {
    expect(SIDEBAR_COOKIE).toBe('sidebar_state');
    expect(SIDEBAR_COOKIE_MAX_AGE).toBe(604800);
    expect([SIDEBAR_WIDTH, SIDEBAR_WIDTH_MOBILE, SIDEBAR_WIDTH_COLLAPSED]).toEqual(['16rem', '18rem', '3rem']);
    expect(MOBILE_BREAKPOINT).toBe(768);
    expect(SIDEBAR_SHORTCUT_KEY).toBe('b');
  });

  it('writes the open state for the whole site for 7 days', () => {
    expect(sidebarCookie(true)).toBe('sidebar_state=true; path=/; max-age=604800');
    expect(sidebarCookie(false)).toBe('sidebar_state=false; path=/; max-age=604800');
  });

  it('reads the open state among other cookies', () => {
    expect(parseSidebarCookie('theme=dark; sidebar_state=false; lang=en')).toBe(false);
    expect(parseSidebarCookie('sidebar_state=true')).toBe(true);
  });

  it('reads null when the cookie is absent or holds something else', () => {
    expect(parseSidebarCookie('')).toBeNull();
    expect(parseSidebarCookie('other_sidebar_state=true')).toBeNull();
    expect(parseSidebarCookie('sidebar_state=maybe')).toBeNull();
  });
});

describe('page titles and breadcrumbs', () => {
  const trail = (path: string) => pageMeta(path)?.breadcrumb.map((c) => (c.url ? `${c.label}(${c.url})` : c.label));

  it('cover every signed-in route of the route table', () => {
    expect(Object.keys(PAGE_TITLES).sort()).toEqual(
      [
        '/home',
        '/customers',
        '/customers/starlink-simulator',
        '/customers/provider-accounts',
        '/customer/terminals/$customerUuid',
        '/terminals',
        '/terminals/map',
        '/subscription',
        '/subscription/provider-billing',
        '/settings',
        '/users',
        '/users/roles',
        '/users/api-keys',
        '/requests',
        '/alerts',
        '/alerts/rules',
        '/alerts/actions',
        '/schedule',
        '/alerts/webhooks',
        '/billing/statements',
        '/billing/statements/$statementId',
        '/billing/payments',
        '/billing/ageing',
        '/billing/prices',
        '/billing/reconciliation',
        '/audit',
        '/bulk',
        '/my',
        '/my/terminals',
        '/my/terminals/$terminalId',
        '/my/requests',
        '/my/alerts',
        '/my/statements',
        '/my/statements/$statementId',
        '/my/account',
      ].sort(),
    );
  });

  it('follow the spec breadcrumbs with links on every crumb but the current page', () => {
    expect(trail('/customers')).toEqual(['Home(/home)', 'Customers']);
    expect(trail('/terminals')).toEqual(['Home(/home)', 'Terminals']);
    expect(trail('/terminals/map')).toEqual(['Home(/home)', 'Terminals(/terminals)', 'Fleet map']);
    expect(trail('/users')).toEqual(['Dashboard(/dashboard)', 'Users']);
    expect(trail('/customers/starlink-simulator')).toEqual([
      'Home(/home)',
      'Customers(/customers)',
      'Starlink API Simulator',
    ]);
    expect(trail('/customers/provider-accounts')).toEqual(['Home(/home)', 'Customers(/customers)', 'Provider accounts']);
    expect(trail('/customer/terminals/0b7c1e52-aaaa')).toEqual(['Customers(/customers)', 'Terminal Usage']);
    expect(trail('/subscription')).toEqual(['Home(/home)', 'Subscriptions']);
    expect(trail('/subscription/provider-billing')).toEqual(['Home(/home)', 'Subscriptions(/subscription)', 'Provider Billing']);
    expect(trail('/settings')).toEqual(['Settings']);
    expect(trail('/requests')).toEqual(['Home(/home)', 'Requests']);
    expect(trail('/alerts')).toEqual(['Home(/home)', 'Alerts']);
    expect(trail('/alerts/rules')).toEqual(['Home(/home)', 'Alerts(/alerts)', 'Alert rules']);
    expect(trail('/alerts/webhooks')).toEqual(['Home(/home)', 'Alerts(/alerts)', 'Webhooks']);
    expect(trail('/audit')).toEqual(['Home(/home)', 'Audit log']);
    expect(trail('/bulk')).toEqual(['Home(/home)', 'Bulk actions']);
    expect(trail('/billing/payments')).toEqual(['Home(/home)', 'Billing', 'Payments']);
    expect(trail('/billing/ageing')).toEqual(['Home(/home)', 'Billing', 'Ageing']);
    expect(trail('/my/alerts')).toEqual(['Overview(/my)', 'Alerts']);
    expect(trail('/my/terminals/UT1')).toEqual(['Overview(/my)', 'Terminals(/my/terminals)', 'Terminal']);
    expect(trail('/my/account')).toEqual(['Overview(/my)', 'Account']);
  });

  it('title the dashboard "Enterprise Dashboard"', () => {
    expect(pageMeta('/home')?.title).toBe('Enterprise Dashboard');
  });

  it('match the customer usage route by its parameter and nothing outside the table', () => {
    expect(matchPagePath('/customer/terminals/abc/')).toBe('/customer/terminals/$customerUuid');
    expect(matchPagePath('/customer/terminals')).toBeNull();
    expect(matchPagePath('/nowhere')).toBeNull();
  });

  it('build tab titles from the page title and the portal name', () => {
    expect(documentTitle('/terminals')).toBe('Terminal Management · Admin Portal');
    expect(documentTitle('/terminals/map')).toBe('Fleet map · Admin Portal');
    expect(documentTitle('/login')).toBe('Login · Admin Portal');
    expect(documentTitle('/alerts/rules')).toBe('Alert rules · Admin Portal');
    expect(documentTitle('/billing/payments')).toBe('Payments · Admin Portal');
    expect(documentTitle('/my/alerts')).toBe('My Alerts · Customer Portal');
    expect(documentTitle('/nowhere')).toBe('Admin Portal');
  });
});
