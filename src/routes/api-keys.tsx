// API keys (/users/api-keys): the keys of the reseller's own systems (a resource over GET
// /api-keys) and the page's dialogs (the API keys machine). The effects are the page's actors
// (src/api/api-keys.ts) and the toasts; what the dialogs show is read from the machine in one place.
import { useSelector } from '@xstate/react';
import { toast } from 'react-hot-toast';
import type { ApiKeyWire } from '../domain/api-keys';
import { allows, type RoleWire } from '../domain/permissions';
import { createApiKeyActors } from '../api/api-keys';
import { apiKeysMachine, apiKeysView, localDay } from '../machines/api-keys';
import { createResourceMachine, reloadEvent } from '../machines/resource';
import { ApiKeyFormDialog, ApiKeySecretDialog, RevokeApiKeyDialog } from '../ui/api-keys/ApiKeyDialogs';
import { ApiKeysView } from '../ui/api-keys/ApiKeysView';
import { useAppServices, useCan, usePageActor, usePermissions } from './services';

const keysMachine = createResourceMachine<ApiKeyWire[]>('apiKeyList');

export function ApiKeysRoute() {
  const { api } = useAppServices();
  const canManage = useCan('users:manage');
  const permissions = usePermissions();
  const actors = createApiKeyActors(api);

  const keys = usePageActor(keysMachine.provide({ actors: { load: actors.loadKeys } }));
  const dialogs = usePageActor(
    apiKeysMachine.provide({
      actors: { loadRoles: actors.loadRoles, createKey: actors.createKey, revokeKey: actors.revokeKey, copySecret: actors.copySecret },
      actions: {
        notifySuccess: (_, message) => void toast.success(message, { id: 'api-keys' }),
        notifyFailure: (_, message) => void toast.error(message, { id: 'api-keys' }),
        keysChanged: () => keys.send(reloadEvent(keys.getSnapshot())),
      },
    }),
  );

  const list = useSelector(keys, (s) => s.context.data);
  const loadError = useSelector(keys, (s) => (s.matches('failed') ? s.context.error : null));
  const refreshing = useSelector(keys, (s) => s.hasTag('refreshing'));
  const view = useSelector(dialogs, apiKeysView);
  // A role may be given only by someone who holds every permission it grants (the server's rule too).
  const canGrant = (role: RoleWire) => role.permissions.every((permission) => allows(permissions, permission));

  return (
    <>
      <ApiKeysView
        keys={list}
        error={loadError}
        loading={refreshing}
        canManage={canManage}
        busy={view.dialog !== 'none'}
        onCreate={() => dialogs.send({ type: 'user.create' })}
        onRetry={() => keys.send({ type: 'user.retry' })}
        onRevoke={(key) => dialogs.send({ type: 'user.revoke', key })}
      />
      <ApiKeyFormDialog
        visible={view.dialog === 'form'}
        form={view.form}
        errors={view.errors}
        failure={view.failure}
        roles={view.roles}
        canGrant={canGrant}
        rolesLoading={view.rolesLoading}
        rolesFailed={view.rolesFailed}
        busy={view.busy}
        today={localDay()}
        onField={(field, value) => dialogs.send({ type: 'user.field', field, value })}
        onRole={(roleId) => dialogs.send({ type: 'user.role', roleId })}
        onRetry={() => dialogs.send({ type: 'user.retry' })}
        onSubmit={() => dialogs.send({ type: 'user.submit' })}
        onCancel={() => dialogs.send({ type: 'user.cancel' })}
      />
      <ApiKeySecretDialog
        visible={view.dialog === 'secret'}
        created={view.created}
        secret={view.secret}
        copy={view.copy}
        onCopy={() => dialogs.send({ type: 'user.copy' })}
        onClose={() => dialogs.send({ type: 'user.close' })}
      />
      <RevokeApiKeyDialog
        visible={view.dialog === 'revoke'}
        apiKey={view.target}
        failure={view.failure}
        busy={view.busy}
        onConfirm={() => dialogs.send({ type: 'user.confirm' })}
        onClose={() => dialogs.send({ type: 'user.close' })}
      />
    </>
  );
}
