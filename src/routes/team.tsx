// A customer organisation's team, wired: the owner's Team page (/my/team) and the Members section
// of a customer's page on the admin side are one panel over two doors of the same API. The team
// loads through a resource machine; its changes go through the team-actions machine, whose
// success reloads it.
import { useSelector } from '@xstate/react';
import toast from 'react-hot-toast';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { Api } from '../api';
import type { TeamDoor } from '../api/members';
import type { InvitePayload, MemberPatchPayload, TeamWire } from '../domain/members';
import { createResourceMachine, type LoadOutcome } from '../machines/resource';
import { teamActionsMachine, type TeamActionOutcome } from '../machines/team-actions';
import { TeamView, type TeamDialogKind, type TeamDialogState } from '../ui/team/TeamView';
import { outcome } from './outcome';
import { useAppServices, usePageActor } from './services';

export const teamMachine = createResourceMachine<TeamWire>('team');

/** The page's actors, from the API through one door. */
export function createTeamActors(api: Api, door: TeamDoor) {
  return {
    load: fromPromise<LoadOutcome<TeamWire>>(({ signal }) => outcome(() => api.members.team(door, signal))),
    inviteMember: fromPromise<TeamActionOutcome, InvitePayload>(({ input, signal }) => outcome(() => api.members.invite(door, input, signal))),
    updateMember: fromPromise<TeamActionOutcome, { id: string; patch: MemberPatchPayload }>(({ input, signal }) =>
      outcome(() => api.members.updateMember(door, input.id, input.patch, signal)),
    ),
    removeMember: fromPromise<TeamActionOutcome, { id: string }>(({ input, signal }) => outcome(() => api.members.removeMember(door, input.id, signal))),
    revokeInvitation: fromPromise<TeamActionOutcome, { id: string }>(({ input, signal }) => outcome(() => api.members.revokeInvitation(door, input.id, signal))),
  };
}

const DIALOG_OF_STATE: readonly [string, TeamDialogKind][] = [
  ['inviting', 'invite'],
  ['changing', 'edit'],
  ['removing', 'remove'],
  ['revoking', 'revoke'],
];

/** The open dialog as the view shows it; null while closed. */
export function teamDialogOf(s: SnapshotFrom<typeof teamActionsMachine>): TeamDialogState | null {
  const kind = DIALOG_OF_STATE.find(([state]) => s.matches(state as 'inviting'))?.[1];
  if (!kind) return null;
  const { form, fieldErrors, member, invitation, failure } = s.context;
  return { kind, busy: s.hasTag('busy'), form, fieldErrors, member, invitation, failure };
}

export function TeamPanel({ door, title, headingLevel = 2, canManage }: { door: TeamDoor; title: string; headingLevel?: 1 | 2; canManage: boolean }) {
  const { api } = useAppServices();
  const actors = createTeamActors(api, door);
  const team = usePageActor(teamMachine.provide({ actors: { load: actors.load } }));
  const actions = usePageActor(
    teamActionsMachine.provide({
      actors: { inviteMember: actors.inviteMember, updateMember: actors.updateMember, removeMember: actors.removeMember, revokeInvitation: actors.revokeInvitation },
      actions: {
        notifySuccess: (_, message: string) => void toast.success(message, { id: 'team' }),
        notifyFailure: (_, message: string) => void toast.error(message, { id: 'team' }),
        teamChanged: () => team.send({ type: 'user.refresh' }),
      },
    }),
  );
  const data = useSelector(team, (s) => s.context.data);
  const loading = useSelector(team, (s) => s.hasTag('loading'));
  const error = useSelector(team, (s) => (s.matches('failed') ? s.context.error : null));
  const dialog = useSelector(actions, teamDialogOf, sameDialog);
  return (
    <TeamView
      title={title}
      headingLevel={headingLevel}
      team={data}
      loading={loading}
      error={error}
      canManage={canManage}
      dialog={dialog}
      onRetry={() => team.send({ type: 'user.retry' })}
      onInvite={() => actions.send({ type: 'user.invite' })}
      onEdit={(member) => actions.send({ type: 'user.edit', member })}
      onRemove={(member) => actions.send({ type: 'user.remove', member })}
      onRevoke={(invitation) => actions.send({ type: 'user.revoke', invitation })}
      onField={(field, value) => actions.send({ type: 'user.field', field, value })}
      onRole={(role) => actions.send({ type: 'user.role', role })}
      onLines={(lines) => actions.send({ type: 'user.lines', lines })}
      onConfirm={() => actions.send({ type: 'user.confirm' })}
      onClose={() => actions.send({ type: 'user.close' })}
    />
  );
}

/** The view model is rebuilt on every snapshot: equal when what the view shows is the same. */
function sameDialog(a: TeamDialogState | null, b: TeamDialogState | null): boolean {
  if (a === null || b === null) return a === b;
  return a.kind === b.kind && a.busy === b.busy && a.form === b.form && a.fieldErrors === b.fieldErrors && a.member === b.member && a.invitation === b.invitation && a.failure === b.failure;
}

/** The owner's Team page in the customer area (the menu offers it to owners only; the server refuses others). */
export function MyTeamRoute() {
  return (
    <div className="page team-page">
      <TeamPanel door={{ kind: 'own' }} title="Team" headingLevel={1} canManage />
    </div>
  );
}

/** A customer's team on their page, for the reseller's staff: changes need customers:manage. */
export function CustomerMembersSection({ customerUuid, canManage }: { customerUuid: string; canManage: boolean }) {
  return (
    <div className="page-section customer-members-section">
      <TeamPanel door={{ kind: 'customer', uuid: customerUuid }} title="Members" canManage={canManage} />
    </div>
  );
}
