// "User Management" at /users (spec section 2 "Users", 4 "User status"). Renders props, calls callbacks.
import { memo, useId, useRef, type SyntheticEvent } from 'react';
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { DataTable } from 'primereact/datatable';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { Tag } from 'primereact/tag';
import { ErrorCard } from '../common/ErrorCard';
import { ExportButton } from '../common/ExportButton';
import { useColumnFolding } from '../common/useColumnFolding';
import { useStableCallback } from '../common/useStableCallback';
import { PageHeader } from '../common/PageHeader';
import { SearchFilterBar } from '../common/SearchFilterBar';
import { StatCard } from '../common/StatCard';
import { count, formatDateTime } from '../common/format';
import { PAGE_TITLES } from '../../domain/navigation';
import {
  USER_MESSAGES,
  USER_SEARCH_MAX_LENGTH,
  canToggleActive,
  userStatus,
  type PortalUser,
  type UserStats,
  type UserStatus,
} from '../../domain/users';
import './users.css';

export type UserStatusFilter = 'all' | 'active' | 'inactive';
/** Active and inactive go to the server as is_active. */
export const USER_STATUS_FILTERS: readonly { value: UserStatusFilter; label: string }[] = [
  { value: 'all', label: 'All Users' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];
export const USER_SEARCH_PLACEHOLDER = 'Search by name or email...';

export type UserRowAction =
  | 'edit'
  | 'toggleActive'
  | 'block'
  | 'unblock'
  | 'resetAttempts'
  | 'disableMfa'
  | 'extend'
  | 'delete'
  | 'restore'
  | 'hardDelete';

export interface UsersViewProps {
  /** The users as last loaded (kept on screen while a reload runs). */
  users: PortalUser[];
  /** How many users the server counts for the query; null before the first answer. */
  total: number | null;
  /** The three cards' figures; null until loaded. */
  stats: UserStats | null;
  loading: boolean;
  /** The load failed: the red Error card replaces the table. */
  error: string | null;
  searchInput: string;
  status: UserStatusFilter;
  /** Soft-deleted users are listed too (to restore or delete them for good). */
  includeDeleted: boolean;
  /** The user whose Suspend/Activate is running. */
  togglingUuid: string | null;
  onSearchInput(value: string): void;
  onStatusChange(status: UserStatusFilter): void;
  onIncludeDeletedChange(value: boolean): void;
  onRefresh(): void;
  /** Export CSV of the search and filters (absent: no button), and whether one is under way. */
  onExport?: () => void;
  exporting?: boolean;
  onRetry(): void;
  /** Add User (absent: no button, the user may not manage users). */
  onAddUser?: () => void;
  /** The row actions are offered (users:manage); absent: they are. */
  canManage?: boolean;
  onAction(action: UserRowAction, user: PortalUser): void;
  onNavigate(url: string): void;
}

const STATUS_SEVERITY: Record<UserStatus, 'danger' | 'success' | 'secondary'> = {
  Blocked: 'danger',
  Active: 'success',
  Inactive: 'secondary',
};

const STAT_CARDS: ReadonlyArray<{ key: keyof UserStats; title: string; icon: string }> = [
  { key: 'total', title: 'Total Users', icon: 'pi pi-users' },
  { key: 'active', title: 'Active Users', icon: 'pi pi-check-circle' },
  { key: 'mfaEnabled', title: 'MFA Enabled', icon: 'pi pi-shield' },
];

const displayName = (user: PortalUser) => user.name || user.email;
const isLocked = (user: PortalUser) => user.failedLoginAttempts > 0 || user.lockedUntil !== null;

/** The row menu: what each action makes sense for, by the row's state. */
export function userMenuActions(user: PortalUser): { action: UserRowAction; label: string; icon: string; danger?: boolean }[] {
  if (user.deletedAt) {
    return [
      { action: 'restore', label: 'Restore', icon: 'pi pi-replay' },
      { action: 'hardDelete', label: 'Delete permanently', icon: 'pi pi-times-circle', danger: true },
    ];
  }
  return [
    user.blockedEnabled
      ? { action: 'unblock', label: 'Unblock', icon: 'pi pi-lock-open' }
      : { action: 'block', label: 'Block', icon: 'pi pi-ban', danger: true },
    ...(isLocked(user) ? [{ action: 'resetAttempts' as const, label: 'Reset login attempts', icon: 'pi pi-undo' }] : []),
    ...(user.mfaEnabled ? [{ action: 'disableMfa' as const, label: 'Disable MFA', icon: 'pi pi-shield' }] : []),
    { action: 'extend', label: 'Extend expiration', icon: 'pi pi-calendar-plus' },
    { action: 'delete', label: 'Delete', icon: 'pi pi-trash', danger: true },
  ];
}

function UserCell({ user }: { user: PortalUser }) {
  return (
    <div className="cell-stack">
      <span className="cell-primary">{displayName(user)}</span>
      <span className="cell-secondary">{user.email}</span>
      <span className="cell-secondary cell-mono">ID: {user.uuid}</span>
    </div>
  );
}

/**
 * The roles the user holds, a badge each (Owner stands out); a server of the two-role days names
 * none, and the old admin or user badge stands for them.
 */
function RolesCell({ user }: { user: PortalUser }) {
  if (user.roles.length === 0) return <Tag value={user.role} severity={user.role === 'admin' ? 'info' : 'secondary'} rounded />;
  return (
    <span className="users-roles">
      {user.roles.map((role) => (
        <Tag key={role.id} value={role.name} severity={role.key === 'owner' ? 'info' : 'secondary'} rounded />
      ))}
    </span>
  );
}

function StatusCell({ user }: { user: PortalUser }) {
  const status = userStatus(user);
  return (
    <div className="cell-stack">
      <Tag value={status} severity={STATUS_SEVERITY[status]} rounded className="status-tag" />
      {user.blockedEnabled && user.blockedReason && (
        <span className="cell-secondary blocked-reason" title={user.blockedReason}>
          {user.blockedReason}
        </span>
      )}
      {user.deletedAt && <Tag value="Deleted" severity="danger" className="status-tag" />}
      {user.lockedUntil && <span className="cell-secondary">Locked after failed sign-ins</span>}
    </div>
  );
}

function RowActions({ user, toggling, onAction }: { user: PortalUser; toggling: boolean; onAction: UsersViewProps['onAction'] }) {
  const menu = useRef<Menu>(null);
  const id = useId();
  const name = displayName(user);
  const deleted = user.deletedAt !== null;
  const togglable = canToggleActive(user) && !deleted;
  const model: MenuItem[] = userMenuActions(user).map((item) => ({
    label: item.label,
    icon: item.icon,
    ...(item.danger ? { className: 'menu-item-danger' } : {}),
    command: () => onAction(item.action, user),
  }));
  return (
    <div className="users-actions">
      <Button
        type="button"
        icon="pi pi-pencil"
        text
        rounded
        severity="secondary"
        aria-label={`Edit ${name}`}
        disabled={deleted}
        onClick={() => onAction('edit', user)}
      />
      <span className="users-toggle-wrap" title={user.role === 'admin' ? USER_MESSAGES.adminSuspendRefused : undefined}>
        <Button
          type="button"
          label={user.isActive ? 'Suspend' : 'Activate'}
          size="small"
          outlined
          severity={user.isActive ? 'warning' : 'success'}
          loading={toggling}
          disabled={!togglable || toggling}
          aria-label={`${user.isActive ? 'Suspend' : 'Activate'} ${name}`}
          aria-describedby={user.role === 'admin' ? `${id}-why` : undefined}
          onClick={() => onAction('toggleActive', user)}
        />
      </span>
      {user.role === 'admin' && (
        <span id={`${id}-why`} className="sr-only">
          {USER_MESSAGES.adminSuspendRefused}
        </span>
      )}
      <Button
        type="button"
        icon="pi pi-ellipsis-v"
        rounded
        text
        severity="secondary"
        aria-label={`More actions for ${name}`}
        aria-haspopup="menu"
        aria-controls={`${id}-menu`}
        onClick={(event: SyntheticEvent) => menu.current?.toggle(event)}
      />
      <Menu id={`${id}-menu`} ref={menu} model={model} popup aria-label={`More actions for ${name}`} />
    </div>
  );
}

interface UsersTableProps {
  users: PortalUser[];
  loading: boolean;
  filtered: boolean;
  togglingUuid: string | null;
  canManage: boolean;
  onAction: UsersViewProps['onAction'];
}

/** The list of users; renders again only when what it shows changes, not at each key typed above it. */
const UsersTable = memo(function UsersTable(props: UsersTableProps) {
  const folding = useColumnFolding<PortalUser>({ rowKey: (u) => u.uuid, rowName: displayName });
  return (
    <DataTable
      value={props.users}
      dataKey="uuid"
      // The Actions cell also reads togglingUuid, which PrimeReact's cell memo (row data only) misses.
      cellMemo={false}
      loading={props.loading}
      emptyMessage={props.filtered ? 'No users match the search or filter' : 'No users yet'}
      className="users-table"
      rowClassName={(u: PortalUser) => (u.deletedAt ? 'users-row-deleted' : '')}
      pt={{ table: { 'aria-label': 'Users' } }}
      {...folding.table([
        { priority: 'always', header: 'User', body: (u) => <UserCell user={u} /> },
        { priority: 'fold', header: 'Roles', body: (u) => <RolesCell user={u} /> },
        { priority: 'always', header: 'Status', body: (u) => <StatusCell user={u} /> },
        { priority: 'fold', header: 'MFA', body: (u) => <Tag value={u.mfaEnabled ? 'Enabled' : 'Disabled'} severity={u.mfaEnabled ? 'success' : 'secondary'} rounded /> },
        { priority: 'fold', header: 'Last Login', body: (u) => formatDateTime(u.lastLogin, 'Never') },
        { priority: 'fold', header: 'Created', body: (u) => formatDateTime(u.createdAt) },
        props.canManage && { priority: 'always', header: 'Actions', body: (u) => <RowActions user={u} toggling={props.togglingUuid === u.uuid} onAction={props.onAction} /> },
      ])}
    />
  );
});

export function UsersView(props: UsersViewProps) {
  const meta = PAGE_TITLES['/users'];
  const { users, stats } = props;
  const total = props.total ?? (props.loading ? null : users.length);
  const filtered = props.searchInput.trim() !== '' || props.status !== 'all';
  const checkboxId = useId();
  const onAction = useStableCallback(props.onAction);

  return (
    <div className="page users-page">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle={total === null ? 'Portal user accounts' : `${count(total)} ${total === 1 ? 'user' : 'users'}`}
        actions={
          <>
            {props.onExport && <ExportButton exporting={props.exporting === true} onExport={props.onExport} />}
            <Button type="button" label="Refresh" icon="pi pi-refresh" outlined disabled={props.loading} onClick={props.onRefresh} />
            {props.onAddUser && <Button type="button" label="Add User" icon="pi pi-user-plus" onClick={props.onAddUser} />}
          </>
        }
        onNavigate={props.onNavigate}
      />

      <div className="users-stat-grid" role="group" aria-label="User statistics">
        {STAT_CARDS.map((card) => (
          <StatCard
            key={card.key}
            title={card.title}
            icon={card.icon}
            value={stats ? count(stats[card.key]) : null}
            loading={props.loading && !stats}
          />
        ))}
      </div>

      <section className="list-card users-list" aria-label="Users">
        <SearchFilterBar
          searchLabel="Search users"
          placeholder={USER_SEARCH_PLACEHOLDER}
          maxLength={USER_SEARCH_MAX_LENGTH}
          search={props.searchInput}
          onSearch={props.onSearchInput}
          status={props.status}
          options={USER_STATUS_FILTERS}
          onStatus={props.onStatusChange}
        />
        <div className="users-deleted-toggle">
          <Checkbox inputId={checkboxId} checked={props.includeDeleted} onChange={(event) => props.onIncludeDeletedChange(!!event.checked)} />
          <label htmlFor={checkboxId}>Show deleted users</label>
        </div>

        {props.error ? (
          <ErrorCard title="Error" message={props.error} onRetry={props.onRetry} retryDisabled={props.loading} />
        ) : props.loading && users.length === 0 ? (
          <p className="users-loading" role="status">
            <i className="pi pi-spin pi-spinner" aria-hidden="true" /> {USER_MESSAGES.loading}
          </p>
        ) : (
          <UsersTable users={users} loading={props.loading} filtered={filtered} togglingUuid={props.togglingUuid} canManage={props.canManage !== false} onAction={onAction} />
        )}
      </section>
    </div>
  );
}
