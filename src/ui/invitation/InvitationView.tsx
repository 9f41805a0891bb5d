// The public page an invited person reaches from the emailed link: who invites them into which
// organisation and as what, then their name and password. Laid out like the set-password page.
import { useId } from 'react';
import { InputText } from 'primereact/inputtext';
import { MEMBER_ROLE_HELP, MEMBER_ROLE_LABELS, type InvitationInfoWire } from '../../domain/members';
import { LinkCard, LinkStateCard, NewPasswordForm, type PasswordLinkStage, type LinkStateWording } from '../set-password/PasswordLinkPage';

export type InvitationStage = PasswordLinkStage;

export interface InvitationViewProps {
  stage: InvitationStage;
  invitation: InvitationInfoWire | null;
  name: string;
  password: string;
  confirmPassword: string;
  problem: string | null;
  linkMessage: string | null;
  email: string | null;
  onField(field: 'name' | 'password' | 'confirmPassword', value: string): void;
  onSubmit(): void;
  onRetry(): void;
  onNavigate(url: string): void;
}

const WORDS: LinkStateWording = {
  title: 'Join your team',
  checking: 'Checking your invitation...',
  checkFailed: 'We could not check your invitation',
  invalid: 'This invitation is not valid',
  gone: 'This invitation can no longer be used',
  done: 'Welcome to the team',
};

export function InvitationView(props: InvitationViewProps) {
  const id = useId();
  if (props.stage !== 'ready' && props.stage !== 'submitting') {
    return (
      <LinkStateCard
        stage={props.stage}
        words={WORDS}
        linkMessage={props.linkMessage}
        email={props.email}
        onRetry={props.onRetry}
        onNavigate={props.onNavigate}
      />
    );
  }

  const busy = props.stage === 'submitting';
  const invitation = props.invitation;
  return (
    <LinkCard title={WORDS.title}>
      <p className="login-subtitle">Choose your name and the password you will sign in with.</p>
      {invitation && (
        <dl className="setup-account" aria-label="Your invitation">
          <dt>Organisation</dt>
          <dd>{invitation.company || '—'}</dd>
          <dt>Role</dt>
          <dd>
            {MEMBER_ROLE_LABELS[invitation.role]} <span className="text-muted">({MEMBER_ROLE_HELP[invitation.role]})</span>
          </dd>
          <dt>Email</dt>
          <dd>{invitation.email}</dd>
        </dl>
      )}
      <NewPasswordForm
        password={props.password}
        confirmPassword={props.confirmPassword}
        problem={props.problem}
        busy={busy}
        passwordLabel="Password"
        submitLabel="Join"
        submittingLabel="Joining..."
        onField={props.onField}
        onSubmit={props.onSubmit}
      >
        <div className="form-field">
          <label htmlFor={`${id}-name`}>Your name</label>
          <InputText id={`${id}-name`} name="name" autoComplete="name" value={props.name} disabled={busy} onChange={(event) => props.onField('name', event.target.value)} />
        </div>
      </NewPasswordForm>
    </LinkCard>
  );
}
