// A customer organisation's team: its people (the organisation's own login first, never
// removable), the invitations, and — for whoever may change it — Invite member, per row Edit,
// Remove and Revoke, each in its own dialog. The same view serves the owner's Team page and the
// Members section of a customer's page on the admin side; which dialog is open, whether it is
// working and what went wrong come from the team's machine as props.
import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { RadioButton } from 'primereact/radiobutton';
import { Skeleton } from 'primereact/skeleton';
import { useId, type ReactNode } from 'react';
import {
  INVITATION_STATUS_LABELS,
  MEMBER_ROLE_HELP,
  MEMBER_ROLE_LABELS,
  MEMBER_ROLES,
  describeLines,
  type InviteField,
  type MemberRole,
  type TeamInvitationWire,
  type TeamLineWire,
  type TeamMemberWire,
  type TeamWire,
} from '../../domain/members';
import { ErrorCard } from '../common/ErrorCard';
import { formatDateTime } from '../customers/format';
import './team.css';

export type TeamDialogKind = 'invite' | 'edit' | 'remove' | 'revoke';

/** The open dialog, as the team's machine has it. */
export interface TeamDialogState {
  kind: TeamDialogKind;
  busy: boolean;
  form: { email: string; name: string; role: MemberRole; serviceLines: string[] | null };
  fieldErrors: Partial<Record<InviteField, string>>;
  member: TeamMemberWire | null;
  invitation: TeamInvitationWire | null;
  failure: string | null;
}

export interface TeamViewProps {
  /** The section's heading ("Team", "Members"). */
  title: string;
  headingLevel?: 1 | 2;
  team: TeamWire | null;
  loading: boolean;
  error: string | null;
  /** Invite, change and remove are offered. */
  canManage: boolean;
  dialog: TeamDialogState | null;
  onRetry(): void;
  onInvite(): void;
  onEdit(member: TeamMemberWire): void;
  onRemove(member: TeamMemberWire): void;
  onRevoke(invitation: TeamInvitationWire): void;
  onField(field: 'email' | 'name', value: string): void;
  onRole(role: MemberRole): void;
  onLines(lines: string[] | null): void;
  onConfirm(): void;
  onClose(): void;
}

const lineLabel = (line: TeamLineWire) => (line.nickname ? `${line.serviceLineNumber} (${line.nickname})` : line.serviceLineNumber);

/** A table of the team's rows: its columns, then — for whoever may change the team — the row's buttons. */
function TeamTable<Row extends { id: string }>(props: {
  label: string;
  columns: readonly string[];
  rows: readonly Row[];
  /** The row's cells, one per column. */
  cells(row: Row): ReactNode;
  canManage: boolean;
  actions(row: Row): ReactNode;
}) {
  // On a phone the table scrolls inside its own region (reached by keyboard too), never the page.
  return (
    <div className="team-table-scroll" tabIndex={0} role="region" aria-label={props.label}>
      <table className="team-table" aria-label={props.label}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {props.canManage && (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.id}>
              {props.cells(row)}
              {props.canManage && <td className="team-row-actions">{props.actions(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const MEMBER_COLUMNS = ['Name', 'Email', 'Role', 'Service lines', 'MFA', 'Last login'] as const;
const INVITATION_COLUMNS = ['Email', 'Name', 'Role', 'Service lines', 'Status', 'Expires'] as const;

function MembersTable({ members, canManage, onEdit, onRemove }: { members: TeamMemberWire[]; canManage: boolean; onEdit(m: TeamMemberWire): void; onRemove(m: TeamMemberWire): void }) {
  return (
    <TeamTable
      label="Team members"
      columns={MEMBER_COLUMNS}
      rows={members}
      canManage={canManage}
      cells={(member) => (
        <>
          <td>
            {member.name}
            {member.original && <span className="cell-secondary"> (organisation login)</span>}
          </td>
          <td>{member.email}</td>
          <td>{MEMBER_ROLE_LABELS[member.role]}</td>
          <td>{describeLines(member.serviceLines)}</td>
          <td>{member.mfaEnabled ? 'On' : 'Off'}</td>
          <td>{formatDateTime(member.lastLogin, 'Never')}</td>
        </>
      )}
      actions={(member) =>
        !member.original && (
          <>
            <Button type="button" label="Edit" text size="small" aria-label={`Edit ${member.name}`} onClick={() => onEdit(member)} />
            <Button type="button" label="Remove" text size="small" severity="danger" aria-label={`Remove ${member.name}`} onClick={() => onRemove(member)} />
          </>
        )
      }
    />
  );
}

function InvitationsTable({ invitations, canManage, onRevoke }: { invitations: TeamInvitationWire[]; canManage: boolean; onRevoke(i: TeamInvitationWire): void }) {
  if (invitations.length === 0) return <p className="text-muted">No invitations waiting or answered lately.</p>;
  return (
    <TeamTable
      label="Invitations"
      columns={INVITATION_COLUMNS}
      rows={invitations}
      canManage={canManage}
      cells={(invitation) => (
        <>
          <td>{invitation.email}</td>
          <td>{invitation.name}</td>
          <td>{MEMBER_ROLE_LABELS[invitation.role]}</td>
          <td>{describeLines(invitation.serviceLines)}</td>
          <td>{INVITATION_STATUS_LABELS[invitation.status]}</td>
          <td>{formatDateTime(invitation.expiresAt)}</td>
        </>
      )}
      actions={(invitation) =>
        invitation.status === 'pending' && (
          <Button type="button" label="Revoke" text size="small" severity="danger" aria-label={`Revoke the invitation to ${invitation.email}`} onClick={() => onRevoke(invitation)} />
        )
      }
    />
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <small id={id} className="p-error" role="alert">
      {message}
    </small>
  ) : null;
}

/** Role as three labelled radios; lines as "All lines" or a checkbox per organisation line. */
function SeatFields({ dialog, lines, onRole, onLines }: { dialog: TeamDialogState; lines: TeamLineWire[]; onRole(r: MemberRole): void; onLines(l: string[] | null): void }) {
  const id = useId();
  const chosen = dialog.form.serviceLines;
  const toggle = (line: string, on: boolean) => {
    const current = chosen ?? [];
    onLines(on ? [...current, line] : current.filter((l) => l !== line));
  };
  return (
    <>
      <fieldset className="form-field team-fieldset">
        <legend>Role</legend>
        {MEMBER_ROLES.map((role) => (
          <div key={role} className="team-choice">
            <RadioButton inputId={`${id}-role-${role}`} name="role" value={role} checked={dialog.form.role === role} disabled={dialog.busy} onChange={() => onRole(role)} />
            <label htmlFor={`${id}-role-${role}`}>
              {MEMBER_ROLE_LABELS[role]} <span className="text-muted">— {MEMBER_ROLE_HELP[role]}</span>
            </label>
          </div>
        ))}
        <FieldError id={`${id}-role-error`} message={dialog.fieldErrors.role} />
      </fieldset>
      <fieldset className="form-field team-fieldset">
        <legend>Service lines</legend>
        <div className="team-choice">
          <Checkbox inputId={`${id}-all`} checked={chosen === null} disabled={dialog.busy} onChange={(e) => onLines(e.checked ? null : [])} />
          <label htmlFor={`${id}-all`}>All lines</label>
        </div>
        {chosen !== null &&
          lines.map((line) => (
            <div key={line.serviceLineNumber} className="team-choice team-line-choice">
              <Checkbox
                inputId={`${id}-line-${line.serviceLineNumber}`}
                checked={chosen.includes(line.serviceLineNumber)}
                disabled={dialog.busy}
                onChange={(e) => toggle(line.serviceLineNumber, e.checked === true)}
              />
              <label htmlFor={`${id}-line-${line.serviceLineNumber}`}>{lineLabel(line)}</label>
            </div>
          ))}
        <FieldError id={`${id}-lines-error`} message={dialog.fieldErrors.serviceLines} />
      </fieldset>
    </>
  );
}

function TeamDialogs(props: TeamViewProps & { dialog: TeamDialogState }) {
  const id = useId();
  const { dialog } = props;
  const close = () => {
    if (!dialog.busy) props.onClose();
  };
  const lines = props.team?.lines ?? [];
  const footer = (label: string, busyLabel: string, danger = false) => (
    <>
      <Button type="button" label="Cancel" text onClick={close} disabled={dialog.busy} />
      <Button type="button" label={dialog.busy ? busyLabel : label} severity={danger ? 'danger' : undefined} loading={dialog.busy} onClick={props.onConfirm} />
    </>
  );
  const failure = dialog.failure ? <Message severity="error" text={dialog.failure} role="alert" className="dialog-message" /> : null;
  const frame = (header: string, footerContent: ReactNode, body: ReactNode) => (
    <Dialog header={header} visible onHide={close} closable={!dialog.busy} closeOnEscape={!dialog.busy} style={{ width: '34rem' }} modal footer={footerContent}>
      {failure}
      {body}
    </Dialog>
  );

  switch (dialog.kind) {
    case 'invite':
      return frame(
        'Invite member',
        footer('Send Invitation', 'Sending...'),
        <form
          className="team-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            props.onConfirm();
          }}
        >
          <div className="form-field">
            <label htmlFor={`${id}-email`}>Email</label>
            <InputText
              id={`${id}-email`}
              type="email"
              value={dialog.form.email}
              disabled={dialog.busy}
              invalid={!!dialog.fieldErrors.email}
              aria-describedby={dialog.fieldErrors.email ? `${id}-email-error` : undefined}
              onChange={(e) => props.onField('email', e.target.value)}
            />
            <FieldError id={`${id}-email-error`} message={dialog.fieldErrors.email} />
          </div>
          <div className="form-field">
            <label htmlFor={`${id}-name`}>Name</label>
            <InputText
              id={`${id}-name`}
              value={dialog.form.name}
              disabled={dialog.busy}
              invalid={!!dialog.fieldErrors.name}
              aria-describedby={dialog.fieldErrors.name ? `${id}-name-error` : undefined}
              onChange={(e) => props.onField('name', e.target.value)}
            />
            <FieldError id={`${id}-name-error`} message={dialog.fieldErrors.name} />
          </div>
          <SeatFields dialog={dialog} lines={lines} onRole={props.onRole} onLines={props.onLines} />
        </form>,
      );
    case 'edit':
      return frame(
        `Edit ${dialog.member?.name ?? 'member'}`,
        footer('Save', 'Saving...'),
        <div className="team-form">
          <p className="text-muted">{dialog.member?.email}</p>
          <SeatFields dialog={dialog} lines={lines} onRole={props.onRole} onLines={props.onLines} />
        </div>,
      );
    case 'remove':
      return frame(
        `Remove ${dialog.member?.name ?? 'member'}?`,
        footer('Remove', 'Removing...', true),
        <p>
          {dialog.member?.name} ({dialog.member?.email}) can no longer sign in, and is signed out at once. The audit log keeps what they did.
        </p>,
      );
    case 'revoke':
      return frame(
        'Revoke invitation?',
        footer('Revoke', 'Revoking...', true),
        <p>The invitation to {dialog.invitation?.email} stops working: its link will say it was withdrawn.</p>,
      );
  }
}

export function TeamView(props: TeamViewProps) {
  const Heading = props.headingLevel === 1 ? 'h1' : 'h2';
  const headingId = useId();
  let body: ReactNode;
  if (props.error !== null) {
    body = <ErrorCard title="The team could not be loaded" message={props.error} onRetry={props.onRetry} headingLevel={3} />;
  } else if (props.team === null || props.loading) {
    body = (
      <div aria-busy="true" aria-label="Loading the team">
        <Skeleton width="100%" height="1.5rem" className="stat-skeleton" />
        <Skeleton width="80%" height="1.5rem" />
      </div>
    );
  } else {
    body = (
      <>
        <MembersTable members={props.team.members} canManage={props.canManage} onEdit={props.onEdit} onRemove={props.onRemove} />
        <h3 className="team-subtitle">Invitations</h3>
        <InvitationsTable invitations={props.team.invitations} canManage={props.canManage} onRevoke={props.onRevoke} />
      </>
    );
  }
  return (
    <section className="team-section" aria-labelledby={headingId}>
      <div className="team-header">
        <Heading id={headingId} className={props.headingLevel === 1 ? 'page-title' : 'dialog-section-title'}>
          {props.title}
        </Heading>
        {props.canManage && props.team && <Button type="button" label="Invite member" icon="pi pi-user-plus" onClick={props.onInvite} />}
      </div>
      {body}
      {props.dialog && <TeamDialogs {...props} dialog={props.dialog} />}
    </section>
  );
}
