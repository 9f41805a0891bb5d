// A customer organisation's people. The organisation's original login is its owner; the others
// are members invited by email, each with their own password and MFA, and a role:
// - owner:   everything in the customer area, and the team (invite, change, remove);
// - manager: everything in the customer area except the team;
// - viewer:  reads only.
// An owner may limit a member to some of the organisation's service lines (a site manager): they
// then see those lines only, everywhere in the customer area. Statements are the whole
// organisation's money, so a member limited to some lines does not see them.
// Shared by the server (the authority: wire shapes, checks, texts) and the client (forms, views).

import type { MenuItem } from './navigation';

export const MEMBER_ROLES = ['owner', 'manager', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_ROLE_LABELS: Readonly<Record<MemberRole, string>> = {
  owner: 'Owner',
  manager: 'Manager',
  viewer: 'Viewer',
};

export const MEMBER_ROLE_HELP: Readonly<Record<MemberRole, string>> = {
  owner: 'Everything, including the team',
  manager: 'Renames, reboots and requests; not the team',
  viewer: 'Reads only',
};

export const isMemberRole = (value: unknown): value is MemberRole => typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);

// ---- Limits --------------------------------------------------------------------------------

/** An invitation can be accepted for this many days, once. */
export const INVITATION_VALID_DAYS = 7;
export const MEMBER_FIELD_LIMITS = { name: 120, email: 254 } as const;
/** An organisation has at most this many members and pending invitations together. */
export const MAX_TEAM_SIZE = 100;
/** A member may be limited to at most this many lines (more is "all lines"). */
export const MAX_MEMBER_LINES = 500;
/** The team page lists invitations answered, revoked or expired in the last this many days. */
export const RECENT_INVITATION_DAYS = 30;

// ---- What each role may do ---------------------------------------------------------------------

/** The person's place in the organisation, as the session's profile carries it. */
export interface OrganisationSeat {
  organisationRole: MemberRole;
  serviceLines: readonly string[] | null;
}

export const canManageTeam = (seat: Pick<OrganisationSeat, 'organisationRole'>) => seat.organisationRole === 'owner';
/** Renames, reboots and requests: everyone but viewers. */
export const canChangeLines = (seat: Pick<OrganisationSeat, 'organisationRole'>) => seat.organisationRole !== 'viewer';
/** Statements are organisation-wide: whoever sees every line sees them. */
export const canSeeStatements = (seat: Pick<OrganisationSeat, 'serviceLines'>) => seat.serviceLines === null;

// ---- Answers -------------------------------------------------------------------------------

/** One person of the team. The organisation's own login is a row too (`original`), never removable. */
export interface TeamMemberWire {
  id: string;
  original: boolean;
  name: string;
  email: string;
  role: MemberRole;
  /** null: every line of the organisation. */
  serviceLines: string[] | null;
  mfaEnabled: boolean;
  lastLogin: string | null;
  createdAt: string;
}

export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const INVITATION_STATUS_LABELS: Readonly<Record<InvitationStatus, string>> = {
  pending: 'Pending',
  accepted: 'Accepted',
  expired: 'Expired',
  revoked: 'Revoked',
};

export interface TeamInvitationWire {
  id: string;
  email: string;
  name: string;
  role: MemberRole;
  serviceLines: string[] | null;
  status: InvitationStatus;
  expiresAt: string;
  createdAt: string;
}

/** A line the organisation holds, for the line picker. */
export interface TeamLineWire {
  serviceLineNumber: string;
  nickname: string | null;
}

/** `GET /my/team` and `GET /customers/{uuid}/members`. */
export interface TeamWire {
  company: string;
  members: TeamMemberWire[];
  /** Pending ones, then the recently answered, revoked or expired ones. */
  invitations: TeamInvitationWire[];
  lines: TeamLineWire[];
}

/** `GET /invitations/{token}`: who invites whom, while the invitation can be accepted. */
export interface InvitationInfoWire {
  email: string;
  name: string;
  company: string;
  role: MemberRole;
  expiresAt: string;
}

// ---- Requests ------------------------------------------------------------------------------

export interface InvitePayload {
  email: string;
  name: string;
  role: MemberRole;
  /** null: every line of the organisation. */
  serviceLines: string[] | null;
}

export interface MemberPatchPayload {
  role?: MemberRole | undefined;
  serviceLines?: string[] | null | undefined;
}

export interface AcceptInvitationPayload {
  /** The invitation's name unless given. */
  name?: string | undefined;
  password: string;
  /** The form's confirmation; the password itself when absent. */
  confirmPassword?: string | undefined;
}

// ---- Texts ---------------------------------------------------------------------------------

export const MEMBER_MESSAGES = {
  team: 'Your team',
  members: 'Members of the organisation',
  invited: (email: string) => `Invitation sent to ${email}`,
  invitedNotSent: (email: string, error: string) => `Invitation to ${email} created, but the email could not be sent: ${error}`,
  revoked: 'Invitation revoked',
  updated: 'Member updated',
  removed: 'Member removed',
  joined: 'Welcome! You can now sign in.',
  invitationValid: 'Invitation is valid',

  ownersOnly: "Only the organisation's owners can manage its team.",
  viewerReadOnly: 'Your role is read-only: ask an owner or a manager of your organisation to do this.',
  statementsWholeOrganisation: 'Statements cover the whole organisation: members limited to some lines cannot see them.',
  originalOwner: "The organisation's own login is its owner: it cannot be changed or removed.",
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  invitationNotPending: 'Only a pending invitation can be revoked',
  invitationInvalid: 'This invitation link is not valid. Ask for a new invitation.',
  invitationUsed: 'This invitation has already been accepted. Sign in with the password chosen then.',
  invitationExpired: 'This invitation has expired. Ask the person who invited you for a new one.',
  invitationRevoked: 'This invitation was withdrawn. Ask the person who invited you for a new one.',
  organisationUnavailable: 'This organisation can no longer take new members.',

  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${MEMBER_FIELD_LIMITS.name} characters`,
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailTaken: 'This email already belongs to an account: choose another one',
  roleInvalid: 'Choose a role: owner, manager or viewer',
  linesEmpty: 'Choose at least one service line, or all lines',
  linesTooMany: `Choose at most ${MAX_MEMBER_LINES} service lines, or all lines`,
  lineNotOurs: (line: string) => `Service line ${line} is not one of the organisation's lines`,
  teamFull: `A team has at most ${MAX_TEAM_SIZE} members and pending invitations`,
  nothingToChange: 'Nothing to change: give a role or service lines',
} as const;

// ---- Checks --------------------------------------------------------------------------------

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type InviteField = 'email' | 'name' | 'role' | 'serviceLines';

/** The invitation form's problems, by field (the server checks the lines belong to the organisation). */
export function invitationProblems(payload: { email: string; name: string; role: string; serviceLines: readonly string[] | null }): Partial<Record<InviteField, string>> {
  const problems: Partial<Record<InviteField, string>> = {};
  const email = payload.email.trim();
  if (!email) problems.email = MEMBER_MESSAGES.emailRequired;
  else if (!EMAIL_PATTERN.test(email) || email.length > MEMBER_FIELD_LIMITS.email) problems.email = MEMBER_MESSAGES.emailInvalid;
  const nameProblem = memberNameProblem(payload.name);
  if (nameProblem) problems.name = nameProblem;
  if (!isMemberRole(payload.role)) problems.role = MEMBER_MESSAGES.roleInvalid;
  const linesProblem = serviceLinesProblem(payload.serviceLines);
  if (linesProblem) problems.serviceLines = linesProblem;
  return problems;
}

export function memberNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return MEMBER_MESSAGES.nameRequired;
  if (trimmed.length > MEMBER_FIELD_LIMITS.name) return MEMBER_MESSAGES.nameTooLong;
  return null;
}

/** null (all lines) or a non-empty list; the server also checks each line is the organisation's. */
export function serviceLinesProblem(lines: readonly string[] | null): string | null {
  if (lines === null) return null;
  if (lines.length === 0) return MEMBER_MESSAGES.linesEmpty;
  if (lines.length > MAX_MEMBER_LINES) return MEMBER_MESSAGES.linesTooMany;
  return null;
}

/** How a member's lines read in a table: "All lines", or the numbers. */
export function describeLines(lines: readonly string[] | null): string {
  if (lines === null) return 'All lines';
  return lines.length <= 3 ? lines.join(', ') : `${lines.slice(0, 2).join(', ')} and ${lines.length - 2} more`;
}

// ---- The customer area's menu ----------------------------------------------------------------

export const MY_TEAM_URL = '/my/team';
const TEAM_ITEM: MenuItem = { title: 'Team', url: MY_TEAM_URL, icon: 'pi pi-users' };

/**
 * The customer area's menu for a person's seat: Team for owners (before Account), no Statements
 * for a member limited to some lines.
 */
export function myMenuFor(items: readonly MenuItem[], seat: OrganisationSeat): MenuItem[] {
  const shown = items.filter((item) => item.url !== '/my/statements' || canSeeStatements(seat));
  if (!canManageTeam(seat)) return shown;
  const account = shown.findIndex((item) => item.url === '/my/account');
  return account < 0 ? [...shown, TEAM_ITEM] : [...shown.slice(0, account), TEAM_ITEM, ...shown.slice(account)];
}
