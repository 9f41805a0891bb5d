// The users page (/users): the list (search, status and "show deleted" in the URL), the three stat
// cards, the Add User / Edit dialog and the per-row actions, each a machine whose effects are
// provided here. The page asks the server for one page of 100 users (spec 9).
import { useEffect, useMemo, useRef } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import { fromPromise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { USERS_FETCH_LIMIT, type PortalUser, type UserStats } from '../domain/users';
import { allows, type Permission, type RoleWire } from '../domain/permissions';
import { LIST_EXPORT_FAILED, listExportFileName } from '../domain/list-exports';
import { createListMachine, type ListLocation, type ListQuery } from '../machines/list';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { userActionsMachine, type UserActionInput } from '../machines/user-actions';
import { userFormMachine } from '../machines/user-form';
import { UserActionDialog, UserFormDialog, type UserActionStep, type UserRoleOption } from '../ui/users/UserDialogs';
import { UsersView, type UserRowAction, type UserStatusFilter } from '../ui/users/UsersView';
import { useCsvExport } from '../ui/common/ExportButton';
import { useListState } from './list-state';
import { outcome } from './outcome';
import { validateUsersSearch, type UsersSearch } from './search-params';
import { useAppServices, useCan, usePageActor, usePermissions } from './services';
import type { Api } from '../api';
import { createRolesActors } from '../api/roles-actors';

const usersListMachine = createListMachine<PortalUser, UserStatusFilter>({
  id: 'users',
  defaultQuery: { page: 1, limit: USERS_FETCH_LIMIT, search: '', status: 'all' },
});
const userStatsMachine = createResourceMachine<UserStats>('userStats');
const userRolesMachine = createResourceMachine<RoleWire[]>('userRoles');

/** The roles the dialog offers, each grantable when the editor holds all it gives. */
const roleOptions = (roles: readonly RoleWire[], held: readonly Permission[]): UserRoleOption[] =>
  roles.map((role) => ({ id: role.id, name: role.name, description: role.description, grantable: role.permissions.every((p) => allows(held, p)) }));
const routeApi = getRouteApi('/app/users');

const locationOf = (search: UsersSearch): ListLocation<UserStatusFilter> => ({ page: 1, search: search.search ?? '', status: search.status ?? 'all' });

type ActionsSnapshot = SnapshotFrom<typeof userActionsMachine>;

/** The action dialog the machine is at, as the view draws it. */
function actionStep(s: ActionsSnapshot): UserActionStep {
  const { user, kind, failure } = s.context;
  if (!user || !kind || !s.hasTag('open')) return { kind: 'closed' };
  const busy = s.matches({ dialog: 'running' });
  if (kind === 'block') return { kind: 'block', user, reason: s.context.reason, reasonError: s.context.reasonError, failure, busy };
  if (kind === 'extend') return { kind: 'extend', user, days: s.context.days, failure, busy };
  return { kind: 'confirm', action: kind, user, failure, busy };
}

/** One call of the users API per dialog action. */
function runAction(api: Api, { kind, uuid, reason, days }: UserActionInput, signal: AbortSignal) {
  switch (kind) {
    case 'block':
      return api.users.block(uuid, reason ?? '', signal);
    case 'unblock':
      return api.users.unblock(uuid, signal);
    case 'extend':
      return api.users.extendExpiration(uuid, days ?? 0, signal);
    case 'disableMfa':
      return api.users.disableMfa(uuid, signal);
    case 'resetAttempts':
      return api.users.resetLoginAttempts(uuid, signal);
    case 'delete':
      return api.users.remove(uuid, signal);
    case 'hardDelete':
      return api.users.hardDelete(uuid, signal);
    case 'restore':
      return api.users.restore(uuid, signal);
  }
}

export function UsersRoute() {
  const { api } = useAppServices();
  // Reading the list is users:read; every change on it is users:manage.
  const canManage = useCan('users:manage');
  const router = useRouter();
  const search = routeApi.useSearch();
  const location = locationOf(search);
  const includeDeleted = search.deleted === true;
  const currentSearch = () => validateUsersSearch(router.state.location.search as Record<string, unknown>);
  const navigateTo = (next: UsersSearch, replace = false) =>
    void router.navigate({ to: '/users', search: validateUsersSearch(next as Record<string, unknown>), replace });

  /** The list machine's query as `GET /users` takes it ("show deleted" from the address). */
  const usersQuery = (query: ListQuery<UserStatusFilter>) => ({
    page: query.page,
    limit: query.limit,
    search: query.search,
    ...(query.status === 'all' ? {} : { isActive: query.status === 'active' }),
    includeDeleted: currentSearch().deleted === true,
  });

  const list = usePageActor(
    usersListMachine.provide({
      actors: {
        load: fromPromise(({ input, signal }) =>
          outcome(async () => {
            const result = await api.users.list(usersQuery(input), signal);
            return result.ok ? { ok: true as const, data: { rows: result.data.users, pagination: result.data.pagination } } : result;
          }),
        ),
      },
      actions: {
        // A typed search replaces the address; the status filter adds a history entry.
        publishQuery: (_, query) => {
          const shown = currentSearch();
          navigateTo({ ...shown, search: query.search, status: query.status === 'all' ? undefined : query.status }, query.search !== (shown.search ?? ''));
        },
        reportLoadFailure: () => {},
      },
    }),
    { input: { query: location } },
  );
  // The query the page shows (or is loading), read when the button is pressed.
  const csv = useCsvExport(() => api.users.exportCsv(usersQuery(list.getSnapshot().context.query)), listExportFileName('users', new Date()), LIST_EXPORT_FAILED.users);
  // The stat cards count every live user, whatever the list shows: the list's answer carries them.
  const stats = usePageActor(
    userStatsMachine.provide({
      actors: {
        load: fromPromise(({ signal }) =>
          outcome(async () => {
            const result = await api.users.list({ page: 1, limit: 1 }, signal);
            return result.ok ? { ok: true as const, data: result.data.stats } : result;
          }),
        ),
      },
    }),
  );
  const refreshAll = () => {
    list.send({ type: 'user.refresh' });
    stats.send(reloadEvent(stats.getSnapshot()));
  };

  const notify = {
    notifySuccess: (_: unknown, message: string) => void toast.success(message, { id: 'users' }),
    notifyFailure: (_: unknown, message: string) => void toast.error(message, { id: 'users' }),
  };
  const form = usePageActor(
    userFormMachine.provide({
      actors: {
        createUser: fromPromise(({ input, signal }) => api.users.create(input, signal)),
        updateUser: fromPromise(({ input, signal }) => api.users.update(input.uuid, input.payload, signal)),
      },
      actions: { ...notify, userSaved: () => refreshAll() },
    }),
  );
  // The roles the dialog offers (GET /roles, users:read like the page): read once with the page.
  const rolesActors = useMemo(() => createRolesActors(api.roles), [api]);
  const roles = usePageActor(userRolesMachine.provide({ actors: { load: rolesActors.loadRoles } }));
  const actions = usePageActor(
    userActionsMachine.provide({
      actors: {
        updateUser: fromPromise(({ input, signal }) => api.users.update(input.uuid, input.payload, signal)),
        runAction: fromPromise(({ input, signal }) => outcome(() => runAction(api, input, signal))),
      },
      actions: { ...notify, userChanged: () => refreshAll() },
    }),
  );

  const { rows, pagination, query, searchInput, loading, error } = useListState(list, location);
  // "Show deleted" is not part of the list machine's query: when the address changes it, the list
  // loads again (its load reads the address).
  const deletedLoaded = useRef(includeDeleted);
  useEffect(() => {
    if (deletedLoaded.current === includeDeleted) return;
    deletedLoaded.current = includeDeleted;
    list.send({ type: 'user.refresh' });
  }, [list, includeDeleted]);
  const statsData = useSelector(stats, (s) => s.context.data);
  const togglingUuid = useSelector(actions, (s) => (s.matches('toggling') ? (s.context.user?.uuid ?? null) : null));

  const onAction = (action: UserRowAction, user: PortalUser) => {
    if (action === 'edit') {
      form.send({ type: 'user.edit', user });
      return;
    }
    actions.send({ type: `user.${action}`, user } as Parameters<typeof actions.send>[0]);
  };

  return (
    <>
      <UsersView
        users={rows}
        total={pagination?.total ?? null}
        stats={statsData}
        loading={loading}
        error={error}
        searchInput={searchInput}
        status={query.status}
        includeDeleted={includeDeleted}
        togglingUuid={togglingUuid}
        onSearchInput={(value) => list.send({ type: 'user.searchInput', value })}
        onStatusChange={(status) => list.send({ type: 'user.status', status })}
        onIncludeDeletedChange={(value) => navigateTo({ ...currentSearch(), deleted: value ? true : undefined })}
        onRefresh={refreshAll}
        exporting={csv.exporting}
        onExport={() => void csv.exportCsv()}
        onRetry={() => list.send({ type: 'user.retry' })}
        {...(canManage ? { onAddUser: () => form.send({ type: 'user.create' }) } : {})}
        canManage={canManage}
        onAction={onAction}
        onNavigate={(url) => void router.navigate({ href: url })}
      />
      <UserForm form={form} roles={roles} />
      <UserAction actions={actions} />
    </>
  );
}

// The dialogs read their own actors: a key typed in one renders the dialog, not the page's table.

function UserForm({ form, roles }: { form: ActorRefFrom<typeof userFormMachine>; roles: ActorRefFrom<typeof userRolesMachine> }) {
  const open = useSelector(form, (s) => s.hasTag('open'));
  const busy = useSelector(form, (s) => s.hasTag('busy'));
  const context = useSelector(form, (s) => s.context);
  const held = usePermissions();
  const list = useSelector(roles, (s) => s.context.data);
  const rolesError = useSelector(roles, (s) => (s.matches('failed') ? s.context.error : null));
  const options = useMemo(() => (list ? roleOptions(list, held) : null), [list, held]);
  return (
    <UserFormDialog
      visible={open}
      mode={context.mode}
      form={context.form}
      errors={context.errors}
      failure={context.failure}
      busy={busy}
      roles={options}
      rolesError={rolesError}
      onField={(field, value) => form.send({ type: 'user.field', field, value })}
      onRoles={(roleIds) => form.send({ type: 'user.roles', roleIds })}
      onSubmit={() => form.send({ type: 'user.submit' })}
      onCancel={() => form.send({ type: 'user.cancel' })}
    />
  );
}

function UserAction({ actions }: { actions: ActorRefFrom<typeof userActionsMachine> }) {
  const step = useSelector(actions, actionStep);
  return (
    <UserActionDialog
      step={step}
      onClose={() => actions.send({ type: 'user.close' })}
      onReason={(value) => actions.send({ type: 'user.reason', value })}
      onDays={(days) => actions.send({ type: 'user.days', days })}
      onConfirm={() => actions.send({ type: 'user.confirm' })}
    />
  );
}
