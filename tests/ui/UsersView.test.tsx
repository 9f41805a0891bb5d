import { describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { UsersView, type UsersViewProps } from '../../src/ui/users/UsersView';
import { USER_MESSAGES, type PortalUser } from '../../src/domain/users';
import { formatDateTime } from '../../src/ui/common/format';
import { renderStrict } from './render';
import { portalUserFixture } from '../fixtures/portal-users';

const rows: PortalUser[] = [
  portalUserFixture({ uuid: 'u-admin', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', mfaEnabled: true }),
  portalUserFixture({ uuid: 'u-blocked', name: 'Bo Blocked', email: 'bo@example.com', blockedEnabled: true, blockedReason: 'Left the company', lastLogin: null }),
  portalUserFixture({ uuid: 'u-inactive', name: 'Ines Inactive', email: 'ines@example.com', isActive: false, failedLoginAttempts: 3 }),
  portalUserFixture({ uuid: 'u-deleted', name: 'Dan Deleted', email: 'dan@example.com', deletedAt: '2026-11-01T00:00:00.000Z' }),
];

function renderView(props: Partial<UsersViewProps> = {}) {
  const callbacks = {
    onSearchInput: vi.fn(),
    onStatusChange: vi.fn(),
    onIncludeDeletedChange: vi.fn(),
    onRefresh: vi.fn(),
    onRetry: vi.fn(),
    onAddUser: vi.fn(),
    onAction: vi.fn(),
    onNavigate: vi.fn(),
  };
  const { user } = renderStrict(
    <UsersView
      users={rows}
      total={rows.length}
      stats={{ total: 12, active: 9, mfaEnabled: 4 }}
      loading={false}
      error={null}
      searchInput=""
      status="all"
      includeDeleted={false}
      togglingUuid={null}
      {...callbacks}
      {...props}
    />,
  );
  return { user, ...callbacks };
}

const rowOf = (name: string) => screen.getByRole('cell', { name: new RegExp(name) }).closest('tr') as HTMLElement;

describe('UsersView: page frame', () => {
  it('shows the breadcrumb Dashboard > Users with Dashboard linking to /dashboard', async () => {
    const { user, onNavigate } = renderView();
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByText('Users')).toBeTruthy();
    await user.click(within(crumbs).getByRole('link', { name: 'Dashboard' }));
    expect(onNavigate).toHaveBeenCalledWith('/dashboard');
  });

  it('heads the page with the user count and offers Refresh and Add User', async () => {
    const { user, onRefresh, onAddUser } = renderView();
    expect(screen.getByRole('heading', { level: 1, name: 'User Management' })).toBeTruthy();
    expect(screen.getByText('4 users')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await user.click(screen.getByRole('button', { name: 'Add User' }));
    expect(onRefresh).toHaveBeenCalledTimes(1);
    expect(onAddUser).toHaveBeenCalledTimes(1);
  });

  it('shows the three stat cards with their figures', () => {
    renderView();
    const cards = screen.getByRole('group', { name: 'User statistics' });
    for (const [title, value] of [['Total Users', '12'], ['Active Users', '9'], ['MFA Enabled', '4']] as const) {
      expect(within(within(cards).getByRole('region', { name: title })).getByText(value)).toBeTruthy();
    }
  });

  it('says "Loading users..." while the first load runs', () => {
    renderView({ users: [], total: null, stats: null, loading: true });
    expect(screen.getByRole('status').textContent).toContain(USER_MESSAGES.loading);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows a failed load in a red Error card with Try Again', async () => {
    const { user, onRetry } = renderView({ error: 'Failed to fetch users' });
    const card = screen.getByRole('alert');
    expect(within(card).getByRole('heading', { name: 'Error' })).toBeTruthy();
    expect(card.textContent).toContain('Failed to fetch users');
    await user.click(within(card).getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('hands back the search, the status filter and the show-deleted choice', async () => {
    const { user, onSearchInput, onIncludeDeletedChange } = renderView();
    await user.type(screen.getByLabelText('Search users'), 'a');
    expect(onSearchInput).toHaveBeenCalledWith('a');
    await user.click(screen.getByLabelText('Show deleted users'));
    expect(onIncludeDeletedChange).toHaveBeenCalledWith(true);
  });
});

describe('UsersView: table', () => {
  it('has the columns User, Roles, Status, MFA, Last Login, Created and Actions', () => {
    renderView();
    const headers = within(screen.getByRole('table', { name: 'Users' })).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['User', 'Roles', 'Status', 'MFA', 'Last Login', 'Created', 'Actions']);
  });

  it('offers no Add User and no row actions to a reader of the users (canManage false)', () => {
    renderView({ canManage: false, onAddUser: undefined });
    const headers = within(screen.getByRole('table', { name: 'Users' })).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).not.toContain('Actions');
    expect(screen.queryByRole('button', { name: 'Add User' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Edit / })).toBeNull();
  });

  it('shows each user with name, email, ID, the badges of their roles, MFA and dates', () => {
    renderView();
    const row = within(rowOf('Ada Admin'));
    expect(row.getByText('ada@example.com')).toBeTruthy();
    expect(row.getByText('ID: u-admin')).toBeTruthy();
    expect(row.getByText('Owner')).toBeTruthy();
    expect(row.getByText('Enabled')).toBeTruthy();
    expect(row.getByText(formatDateTime(rows[0]!.createdAt))).toBeTruthy();
    expect(within(rowOf('Bo Blocked')).getByText('Admin (read-only)')).toBeTruthy();
    expect(within(rowOf('Bo Blocked')).getByText('Never')).toBeTruthy();
    // A server of the two-role days names no roles: the old badge stands for them.
    cleanup();
    renderView({ users: [{ ...rows[0]!, roles: [] }] });
    expect(within(rowOf('Ada Admin')).getByText('admin')).toBeTruthy();
  });

  it('shows Blocked with the reason, Active and Inactive statuses', () => {
    renderView();
    expect(within(rowOf('Bo Blocked')).getByText('Blocked')).toBeTruthy();
    expect(within(rowOf('Bo Blocked')).getByText('Left the company')).toBeTruthy();
    expect(within(rowOf('Ada Admin')).getByText('Active')).toBeTruthy();
    expect(within(rowOf('Ines Inactive')).getByText('Inactive')).toBeTruthy();
    expect(within(rowOf('Dan Deleted')).getByText('Deleted')).toBeTruthy();
  });
});

describe('UsersView: actions', () => {
  it('edits a row with its Edit button', async () => {
    const { user, onAction } = renderView();
    await user.click(screen.getByRole('button', { name: 'Edit Bo Blocked' }));
    expect(onAction).toHaveBeenCalledWith('edit', rows[1]);
  });

  it('offers Suspend for active users and Activate for inactive ones', async () => {
    const { user, onAction } = renderView();
    await user.click(screen.getByRole('button', { name: 'Activate Ines Inactive' }));
    expect(onAction).toHaveBeenCalledWith('toggleActive', rows[2]);
    expect((screen.getByRole('button', { name: 'Suspend Bo Blocked' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('disables Suspend for admin-role users and says why', () => {
    renderView();
    const button = screen.getByRole('button', { name: 'Suspend Ada Admin' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const why = document.getElementById(button.getAttribute('aria-describedby') ?? '');
    expect(why?.textContent).toBe(USER_MESSAGES.adminSuspendRefused);
  });

  it('disables the toggle of the row whose toggle is running', () => {
    renderView({ togglingUuid: 'u-blocked' });
    expect((screen.getByRole('button', { name: 'Suspend Bo Blocked' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Activate Ines Inactive' }) as HTMLButtonElement).disabled).toBe(false);
  });

  async function menuItems(user: ReturnType<typeof renderView>['user'], name: string) {
    await user.click(screen.getByRole('button', { name: `More actions for ${name}` }));
    const items = await screen.findAllByRole('menuitem');
    return items.map((item) => item.textContent);
  }

  it('offers Block, Disable MFA, Extend expiration and Delete to an active admin with MFA on', async () => {
    const { user } = renderView();
    expect(await menuItems(user, 'Ada Admin')).toEqual(['Block', 'Disable MFA', 'Extend expiration', 'Delete']);
  });

  it('offers Unblock instead of Block to a blocked user', async () => {
    const { user } = renderView();
    expect(await menuItems(user, 'Bo Blocked')).toEqual(['Unblock', 'Extend expiration', 'Delete']);
  });

  it('offers Reset login attempts when there were failed attempts', async () => {
    const { user } = renderView();
    expect(await menuItems(user, 'Ines Inactive')).toEqual(['Block', 'Reset login attempts', 'Extend expiration', 'Delete']);
  });

  it('offers only Restore and Delete permanently for a deleted user, whose other buttons are disabled', async () => {
    const { user } = renderView();
    expect((screen.getByRole('button', { name: 'Edit Dan Deleted' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Suspend Dan Deleted' }) as HTMLButtonElement).disabled).toBe(true);
    expect(await menuItems(user, 'Dan Deleted')).toEqual(['Restore', 'Delete permanently']);
  });

  it('reports the chosen menu item with its row', async () => {
    const { user, onAction } = renderView();
    for (const [item, action] of [
      ['Block', 'block'],
      ['Disable MFA', 'disableMfa'],
      ['Extend expiration', 'extend'],
      ['Delete', 'delete'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: 'More actions for Ada Admin' }));
      await user.click(await screen.findByRole('menuitem', { name: item }));
      expect(onAction).toHaveBeenLastCalledWith(action, rows[0]);
      await waitFor(() => expect(screen.queryByRole('menuitem', { name: item })).toBeNull());
    }
  });
});
