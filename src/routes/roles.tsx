// Users → Roles (/users/roles): the permissions matrix (a resource over GET /roles) and the role
// form machine (New role, Edit, Delete on custom roles), their actors from the roles API's
// factory and the toasts provided here. What the dialogs show is one view model of the form's
// snapshot (`roleDialogOf`).
import { useMemo } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { createRolesActors } from '../api/roles-actors';
import { AREAS, type Area, type Permission, type RoleWire } from '../domain/permissions';
import { AREA_LEVELS, mayGrant, type AreaLevel, type RoleFormField, type RoleFormValues } from '../domain/roles';
import type { FieldErrors } from '../domain/customers';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { EMPTY_ROLE_FORM, ROLE_FORM_TEXTS, roleFormMachine } from '../machines/role-form';
import { ConfirmDeleteRole, RoleFormDialog } from '../ui/roles/RoleDialogs';
import { RolesView } from '../ui/roles/RolesView';
import { useAppServices, useCan, usePageActor, usePermissions } from './services';

const rolesMachine = createResourceMachine<RoleWire[]>('roles');

type RoleFormSnapshot = SnapshotFrom<typeof roleFormMachine>;

export type RoleDialogModel =
  | { kind: 'closed' }
  | { kind: 'form'; mode: 'create' | 'edit'; form: RoleFormValues; errors: FieldErrors<RoleFormField>; failure: string | null; busy: boolean }
  | { kind: 'delete'; question: string; failure: string | null; busy: boolean };

/** What the dialogs show at the form machine's state. */
export function roleDialogOf(s: RoleFormSnapshot): RoleDialogModel {
  const { role, form, errors, failure } = s.context;
  const busy = s.hasTag('busy');
  if (s.matches('editing') || s.matches('saving')) return { kind: 'form', mode: role ? 'edit' : 'create', form, errors, failure, busy };
  if (s.matches('deletion') && role) return { kind: 'delete', question: ROLE_FORM_TEXTS.deleteQuestion(role.name), failure, busy };
  return { kind: 'closed' };
}

const sameDialog = (a: RoleDialogModel, b: RoleDialogModel) => JSON.stringify(a) === JSON.stringify(b);

/** Which level of each area a holder of `held` may give. */
export const grantableLevels = (held: readonly Permission[]): Record<Area, Record<AreaLevel, boolean>> =>
  Object.fromEntries(AREAS.map((area) => [area, Object.fromEntries(AREA_LEVELS.map((level) => [level, mayGrant(held, area, level)]))])) as Record<
    Area,
    Record<AreaLevel, boolean>
  >;

const notify = {
  notifySuccess: (_: unknown, message: string) => void toast.success(message, { id: 'roles' }),
  notifyFailure: (_: unknown, message: string) => void toast.error(message, { id: 'roles' }),
};

export function RolesRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const held = usePermissions();
  const canManage = useCan('users:manage');
  const actors = useMemo(() => createRolesActors(api.roles), [api]);

  const roles = usePageActor(rolesMachine.provide({ actors: { load: actors.loadRoles } }));
  const form = usePageActor(
    roleFormMachine.provide({
      actors: { saveRole: actors.saveRole, deleteRole: actors.deleteRole },
      actions: { ...notify, rolesChanged: () => roles.send(reloadEvent(roles.getSnapshot())) },
    }),
    { input: { held } },
  );

  const data = useSelector(roles, (s) => s.context.data);
  const error = useSelector(roles, (s) => (s.matches('failed') ? s.context.error : null));
  const loading = useSelector(roles, (s) => s.hasTag('loading') || s.hasTag('refreshing'));
  const busy = useSelector(form, (s) => s.hasTag('busy'));

  return (
    <>
      <RolesView
        roles={data}
        loading={loading}
        error={error}
        canManage={canManage}
        busy={busy}
        onRetry={() => roles.send({ type: 'user.retry' })}
        onNewRole={() => form.send({ type: 'user.create' })}
        onEdit={(role) => form.send({ type: 'user.edit', role })}
        onDelete={(role) => form.send({ type: 'user.delete', role })}
        onNavigate={(url) => void router.navigate({ href: url })}
      />
      <RoleDialogs form={form} held={held} />
    </>
  );
}

// The dialogs read their own actor: a key typed in the form renders the dialog, not the matrix.
function RoleDialogs({ form, held }: { form: ActorRefFrom<typeof roleFormMachine>; held: readonly Permission[] }) {
  const dialog = useSelector(form, roleDialogOf, sameDialog);
  const grantable = useMemo(() => grantableLevels(held), [held]);
  // A closed form draws empty: the machine starts each opening afresh.
  const last = dialog.kind === 'form' ? dialog : CLOSED_FORM;
  return (
    <>
      <RoleFormDialog
        visible={dialog.kind === 'form'}
        mode={last.mode}
        form={last.form}
        errors={last.errors}
        failure={last.failure}
        busy={last.busy}
        grantable={grantable}
        onField={(field, value) => form.send({ type: 'user.field', field, value })}
        onLevel={(area, level) => form.send({ type: 'user.level', area, level })}
        onSubmit={() => form.send({ type: 'user.submit' })}
        onCancel={() => form.send({ type: 'user.cancel' })}
      />
      <ConfirmDeleteRole
        visible={dialog.kind === 'delete'}
        question={dialog.kind === 'delete' ? dialog.question : ''}
        failure={dialog.kind === 'delete' ? dialog.failure : null}
        busy={dialog.kind === 'delete' && dialog.busy}
        onConfirm={() => form.send({ type: 'user.confirm' })}
        onClose={() => form.send({ type: 'user.cancel' })}
      />
    </>
  );
}

const CLOSED_FORM: Extract<RoleDialogModel, { kind: 'form' }> = {
  kind: 'form',
  mode: 'create',
  form: EMPTY_ROLE_FORM,
  errors: {},
  failure: null,
  busy: false,
};
