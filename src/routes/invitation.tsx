// The public page of an emailed invitation: `/invitation/<token>`. It sits outside the signed-in
// layout, so whoever is (or is not) signed in on this browser sees the same page.
import { useParams, useRouter } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { invitationAcceptMachine } from '../machines/invitation-accept';
import { InvitationView, type InvitationStage } from '../ui/invitation/InvitationView';
import { useAppServices, usePageActor } from './services';

const STAGES: readonly InvitationStage[] = ['ready', 'submitting', 'done', 'invalid', 'gone', 'checkFailed'];

export function invitationStageOf(s: SnapshotFrom<typeof invitationAcceptMachine>): InvitationStage {
  return STAGES.find((stage) => s.matches(stage)) ?? 'checking';
}

export function InvitationRoute() {
  const { api } = useAppServices();
  const router = useRouter();
  const { token = '' } = useParams({ strict: false });
  const invite = usePageActor(
    invitationAcceptMachine.provide({
      actors: {
        checkInvitation: fromPromise(({ input, signal }) => api.members.checkInvitation(input, signal)),
        acceptInvitation: fromPromise(({ input, signal }) => api.members.acceptInvitation(input, signal)),
      },
    }),
    { input: { token } },
  );
  const stage = useSelector(invite, invitationStageOf);
  const invitation = useSelector(invite, (s) => s.context.invitation);
  const name = useSelector(invite, (s) => s.context.name);
  const password = useSelector(invite, (s) => s.context.password);
  const confirmPassword = useSelector(invite, (s) => s.context.confirmPassword);
  const problem = useSelector(invite, (s) => s.context.problem);
  const linkMessage = useSelector(invite, (s) => s.context.linkMessage);
  const email = useSelector(invite, (s) => s.context.email);
  return (
    <InvitationView
      stage={stage}
      invitation={invitation}
      name={name}
      password={password}
      confirmPassword={confirmPassword}
      problem={problem}
      linkMessage={linkMessage}
      email={email}
      onField={(field, value) => invite.send({ type: 'user.field', field, value })}
      onSubmit={() => invite.send({ type: 'user.submit' })}
      onRetry={() => invite.send({ type: 'user.retry' })}
      onNavigate={(url) => void router.navigate({ href: url })}
    />
  );
}
