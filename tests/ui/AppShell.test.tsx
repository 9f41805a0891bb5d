import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { AppShell } from '../../src/ui/shell/AppShell';
import { AppSidebar } from '../../src/ui/shell/AppSidebar';
import { renderStrict } from './render';

const user = { name: 'Ana Lima', email: 'ana@example.com' };

function renderShell(currentPath = '/home', handlers: { onNavigate?: (url: string) => void; onLogout?: () => void } = {}) {
  const onNavigate = vi.fn(handlers.onNavigate);
  const onLogout = vi.fn(handlers.onLogout);
  const result = renderStrict(
    <AppShell user={user} currentPath={currentPath} onNavigate={onNavigate} onLogout={onLogout}>
      <p>Page content</p>
    </AppShell>,
  );
  return { ...result, onNavigate, onLogout };
}

const sidebarElement = () => screen.getByRole('navigation', { name: 'Main navigation' }).closest('[data-state]') as HTMLElement;

/** Makes matchMedia report a phone-sized viewport. */
function stubMobileViewport() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: true,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

describe('AppShell and AppSidebar', () => {
  it('renders every menu item, the portal title and the page content', async () => {
    const { user: u } = renderShell('/home');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });

    await u.click(within(nav).getByRole('button', { name: 'Customers' }));
    for (const [name, href] of [
      ['Home', '/home'],
      ['Customer Management', '/customers'],
      ['Starlink API Simulator', '/customers/starlink-simulator'],
      ['Terminals', '/terminals'],
      ['Users', '/users'],
      ['Settings', '/settings'],
    ]) {
      expect(within(nav).getByRole('link', { name }).getAttribute('href')).toBe(href);
    }
    expect(screen.getByRole('link', { name: 'Admin Portal' }).getAttribute('href')).toBe('/home');
    expect(screen.getByRole('main').textContent).toBe('Page content');
  });

  it('marks the Home link as the current page on /home and keeps the Customers group closed', () => {
    renderShell('/home');
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('button', { name: 'Customers' }).getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Starlink API Simulator' })).toBeNull();
  });

  it('opens the Customers group and marks the simulator active on /customers/starlink-simulator', () => {
    renderShell('/customers/starlink-simulator');
    const group = screen.getByRole('button', { name: 'Customers' });

    expect(group.getAttribute('aria-expanded')).toBe('true');
    expect(group.hasAttribute('data-active')).toBe(true);
    expect(screen.getByRole('link', { name: 'Starlink API Simulator' }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: 'Customer Management' }).getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
  });

  it('lets the user close a group that the current path opened', async () => {
    const { user: u } = renderShell('/customers');
    const group = screen.getByRole('button', { name: 'Customers' });

    await u.click(group);
    expect(group.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('link', { name: 'Customer Management' })).toBeNull();
  });

  it('hands a plain click on a menu link to onNavigate instead of the browser', async () => {
    const { user: u, onNavigate } = renderShell('/home');
    await u.click(screen.getByRole('link', { name: 'Terminals' }));
    expect(onNavigate).toHaveBeenCalledWith('/terminals');
    expect(onNavigate).toHaveBeenCalledTimes(1);
  });

  it('leaves Ctrl-click and middle-click on a menu link to the browser', () => {
    const { onNavigate } = renderShell('/home');
    const link = screen.getByRole('link', { name: 'Users' });

    const ctrlClick = new MouseEvent('click', { bubbles: true, cancelable: true, ctrlKey: true });
    link.dispatchEvent(ctrlClick);
    const middleClick = new MouseEvent('click', { bubbles: true, cancelable: true, button: 1 });
    link.dispatchEvent(middleClick);

    expect(onNavigate).not.toHaveBeenCalled();
    expect(ctrlClick.defaultPrevented).toBe(false);
    expect(middleClick.defaultPrevented).toBe(false);
  });

  it('navigates home from the logo link', async () => {
    const { user: u, onNavigate } = renderShell('/users');
    await u.click(screen.getByRole('link', { name: 'Admin Portal' }));
    expect(onNavigate).toHaveBeenCalledWith('/home');
  });

  it('starts expanded when no sidebar cookie is set', () => {
    renderShell();
    expect(sidebarElement().getAttribute('data-state')).toBe('expanded');
  });

  it('starts collapsed when the cookie says sidebar_state=false', () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderShell();
    expect(sidebarElement().getAttribute('data-state')).toBe('collapsed');
  });

  it('collapses and expands with Ctrl+B and remembers the state in the sidebar_state cookie', () => {
    renderShell();

    const collapse = new KeyboardEvent('keydown', { key: 'b', ctrlKey: true, bubbles: true, cancelable: true });
    fireEvent(window, collapse);
    expect(collapse.defaultPrevented).toBe(true);
    expect(sidebarElement().getAttribute('data-state')).toBe('collapsed');
    expect(document.cookie).toContain('sidebar_state=false');

    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(sidebarElement().getAttribute('data-state')).toBe('expanded');
    expect(document.cookie).toContain('sidebar_state=true');
  });

  it('collapses and expands with Meta+B as well', () => {
    renderShell();
    fireEvent.keyDown(window, { key: 'b', metaKey: true });
    expect(sidebarElement().getAttribute('data-state')).toBe('collapsed');
    fireEvent.keyDown(window, { key: 'B', metaKey: true });
    expect(sidebarElement().getAttribute('data-state')).toBe('expanded');
  });

  it('ignores the b key without Ctrl or Meta', () => {
    renderShell();
    fireEvent.keyDown(window, { key: 'b' });
    expect(sidebarElement().getAttribute('data-state')).toBe('expanded');
    expect(document.cookie).not.toContain('sidebar_state');
  });

  it('toggles with the "Toggle sidebar" button and writes the cookie', async () => {
    const { user: u } = renderShell();
    await u.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    expect(sidebarElement().getAttribute('data-state')).toBe('collapsed');
    expect(document.cookie).toContain('sidebar_state=false');
  });

  it('keeps every item reachable by name when collapsed to icons, groups becoming links', () => {
    document.cookie = 'sidebar_state=false; path=/';
    renderShell('/customers/starlink-simulator');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });

    const customers = within(nav).getByRole('link', { name: 'Customers' });
    expect(customers.getAttribute('href')).toBe('/customers');
    expect(customers.hasAttribute('data-active')).toBe(true);
    for (const name of ['Home', 'Terminals', 'Users', 'Settings']) {
      expect(within(nav).getByRole('link', { name })).toBeTruthy();
    }
  });

  it('shows a tooltip naming a collapsed icon on hover', async () => {
    document.cookie = 'sidebar_state=false; path=/';
    const { user: u } = renderShell();
    await u.hover(screen.getByRole('link', { name: 'Terminals' }));
    expect(document.querySelector('.sidebar-tooltip')?.textContent).toBe('Terminals');
    await u.unhover(sidebarElement());
    expect(document.querySelector('.sidebar-tooltip')).toBeNull();
  });

  it('shows the signed-in name and email in the footer', () => {
    renderShell();
    const account = screen.getByRole('button', { name: /Ana Lima/ });
    expect(account.textContent).toContain('Ana Lima');
    expect(account.textContent).toContain('ana@example.com');
    expect(account.getAttribute('aria-haspopup')).toBe('menu');
  });

  it('logs out from the footer menu', async () => {
    const { user: u, onLogout, onNavigate } = renderShell();
    await u.click(screen.getByRole('button', { name: /Ana Lima/ }));
    await u.click(await screen.findByRole('menuitem', { name: 'Log out' }));
    expect(onLogout).toHaveBeenCalledTimes(1);
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it('opens Settings from the footer menu', async () => {
    const { user: u, onNavigate, onLogout } = renderShell();
    await u.click(screen.getByRole('button', { name: /Ana Lima/ }));
    await u.click(await screen.findByRole('menuitem', { name: 'Settings' }));
    expect(onNavigate).toHaveBeenCalledWith('/settings');
    expect(onNavigate).toHaveBeenCalledTimes(1);
    expect(onLogout).not.toHaveBeenCalled();
  });

  it('uses a sheet on a narrow screen, opened by the toggle and closed after navigating', async () => {
    stubMobileViewport();
    const { user: u, onNavigate } = renderShell('/home');

    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    const sheet = await screen.findByRole('complementary', { name: 'Navigation menu' });
    expect(within(sheet).getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();

    await u.click(within(sheet).getByRole('link', { name: 'Terminals' }));
    expect(onNavigate).toHaveBeenCalledWith('/terminals');
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Navigation menu' })).toBeNull());
    expect(document.cookie).not.toContain('sidebar_state');
  });

  it('renders on its own with the spec menu when given a path and a collapsed flag', () => {
    renderStrictSidebar();
    expect(screen.getByRole('navigation', { name: 'Main navigation' }).closest('[data-state]')?.getAttribute('data-state')).toBe(
      'collapsed',
    );
  });
});

function renderStrictSidebar() {
  return renderStrict(
    <AppSidebar user={user} currentPath="/terminals" onNavigate={() => {}} onLogout={() => {}} collapsed />,
  );
}
