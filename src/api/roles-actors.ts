// The roles page's actors in one place: each reads the roles API's answer into the outcome its
// machine takes (the matrix's resource, the role form's save and delete). The page only provides
// them. An answer that never came is the network's message, as every page words it.
import { fromPromise } from 'xstate';
import type { RoleWire } from '../domain/permissions';
import type { LoadOutcome } from '../machines/resource';
import type { SaveRoleInput } from '../machines/role-form';
import type { SaveOutcome } from '../machines/user-form';
import { settle } from './outcomes';
import type { RolesApi } from './roles';

export function createRolesActors(roles: RolesApi) {
  return {
    loadRoles: fromPromise<LoadOutcome<RoleWire[]>>(({ signal }) => settle(() => roles.list(signal))),
    saveRole: fromPromise<SaveOutcome<RoleWire>, SaveRoleInput>(({ input, signal }) =>
      settle(() => (input.id === null ? roles.create(input.role, signal) : roles.update(input.id, input.role, signal))),
    ),
    deleteRole: fromPromise<LoadOutcome<unknown>, { id: string }>(({ input, signal }) => settle(() => roles.remove(input.id, signal))),
  };
}
