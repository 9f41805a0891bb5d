import { LinkCard, LinkStateCard, NewPasswordForm, type PasswordLinkStage } from './PasswordLinkPage';

export type SetPasswordStage = PasswordLinkStage;

export interface SetupAccount {
  name: string;
  company: string;
  email: string;
}

export interface SetPasswordViewProps {
  stage: SetPasswordStage;
  /** Whose account the link is for (once checked). */
  account: SetupAccount | null;
  password: string;
  confirmPassword: string;
  /** The rule the passwords break, or why the server refused them. */
  problem: string | null;
  /** Why the link cannot be used, or could not be checked. */
  linkMessage: string | null;
  /** The address whose password was set. */
  email: string | null;
  onField(field: 'password' | 'confirmPassword', value: string): void;
  onSubmit(): void;
  onRetry(): void;
  onNavigate(url: string): void;
  /** 'reset': a forgot-password link, worded "Reset your password"; a set-up link otherwise. */
  purpose?: 'setup' | 'reset';
}

export { LOGIN_URL } from './PasswordLinkPage';

/** The words that differ between a first password and a reset. */
const WORDING = {
  setup: {
    title: 'Set your password',
    intro: 'Choose the password you will use to sign in to the portal.',
    submit: 'Set Password',
    submitting: 'Setting Password...',
    done: 'Your password is set',
  },
  reset: {
    title: 'Reset your password',
    intro: 'Choose a new password. Your old password stops working, and any other signed-in sessions end.',
    submit: 'Reset Password',
    submitting: 'Resetting Password...',
    done: 'Your password has been reset',
  },
} as const;

/** The public page a new customer reaches from the emailed password-setup link. */
export function SetPasswordView(props: SetPasswordViewProps) {
  const words = WORDING[props.purpose ?? 'setup'];
  const card = (
    <LinkStateCard
      stage={props.stage}
      words={{
        title: 'Set your password',
        checking: 'Checking your link...',
        checkFailed: 'We could not check your link',
        invalid: 'This link is not valid',
        invalidHint: 'Already set your password? You can sign in.',
        gone: 'This link can no longer be used',
        done: words.done,
      }}
      linkMessage={props.linkMessage}
      email={props.email}
      onRetry={props.onRetry}
      onNavigate={props.onNavigate}
    />
  );
  if (props.stage !== 'ready' && props.stage !== 'submitting') return card;

  const account = props.account;
  return (
    <LinkCard title={words.title}>
      <p className="login-subtitle">{words.intro}</p>
      {account && (
        <dl className="setup-account" aria-label="Your account">
          <dt>Name</dt>
          <dd>{account.name || '—'}</dd>
          <dt>Company</dt>
          <dd>{account.company || '—'}</dd>
          <dt>Email</dt>
          <dd>{account.email}</dd>
        </dl>
      )}
      <NewPasswordForm
        password={props.password}
        confirmPassword={props.confirmPassword}
        problem={props.problem}
        busy={props.stage === 'submitting'}
        passwordLabel="New password"
        submitLabel={words.submit}
        submittingLabel={words.submitting}
        onField={props.onField}
        onSubmit={props.onSubmit}
      />
    </LinkCard>
  );
}
