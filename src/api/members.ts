// A customer organisation's team: the owner's own (/my/team), a customer's as the admins see it
// (/customers/{uuid}/members), and the public invitation page (/invitations/{token}).
import {
  INVITATION_STATUSES,
  isMemberRole,
  type AcceptInvitationPayload,
  type InvitationInfoWire,
  type InvitationStatus,
  type InvitePayload,
  type MemberPatchPayload,
  type TeamInvitationWire,
  type TeamLineWire,
  type TeamMemberWire,
  type TeamWire,
} from '../domain/members';
import { mapResult, type ApiClient, type ApiResult } from './client';
import { bool, isRecord, present, str, text, withSignal } from './normalise';

/** Whose team: the signed-in owner's own, or a customer's (the admin side). */
export type TeamDoor = { kind: 'own' } | { kind: 'customer'; uuid: string };

const linesOf = (value: unknown): string[] | null => (Array.isArray(value) ? value.filter((l): l is string => typeof l === 'string') : null);

export function normaliseTeamMember(raw: unknown): TeamMemberWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const email = text(raw.email);
  if (!id || !email || !isMemberRole(raw.role)) return null;
  return {
    id,
    original: bool(raw.original),
    name: str(raw.name) ?? '',
    email,
    role: raw.role,
    serviceLines: linesOf(raw.serviceLines),
    mfaEnabled: bool(raw.mfaEnabled),
    lastLogin: str(raw.lastLogin),
    createdAt: str(raw.createdAt) ?? '',
  };
}

export function normaliseInvitation(raw: unknown): TeamInvitationWire | null {
  if (!isRecord(raw)) return null;
  const id = text(raw.id);
  const email = text(raw.email);
  if (!id || !email || !isMemberRole(raw.role)) return null;
  const status = (INVITATION_STATUSES as readonly unknown[]).includes(raw.status) ? (raw.status as InvitationStatus) : 'pending';
  return { id, email, name: str(raw.name) ?? '', role: raw.role, serviceLines: linesOf(raw.serviceLines), status, expiresAt: str(raw.expiresAt) ?? '', createdAt: str(raw.createdAt) ?? '' };
}

function normaliseLine(raw: unknown): TeamLineWire | null {
  if (!isRecord(raw)) return null;
  const serviceLineNumber = text(raw.serviceLineNumber);
  return serviceLineNumber ? { serviceLineNumber, nickname: str(raw.nickname) } : null;
}

export function normaliseTeam(raw: unknown): TeamWire | null {
  if (!isRecord(raw)) return null;
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  return {
    company: str(raw.company) ?? '',
    members: list(raw.members).map(normaliseTeamMember).filter(present),
    invitations: list(raw.invitations).map(normaliseInvitation).filter(present),
    lines: list(raw.lines).map(normaliseLine).filter(present),
  };
}

function normaliseInvitationInfo(raw: unknown): InvitationInfoWire | null {
  if (!isRecord(raw)) return null;
  const email = text(raw.email);
  if (!email || !isMemberRole(raw.role)) return null;
  return { email, name: str(raw.name) ?? '', company: str(raw.company) ?? '', role: raw.role, expiresAt: str(raw.expiresAt) ?? '' };
}

export function createMembersApi(client: ApiClient) {
  const base = (door: TeamDoor) => (door.kind === 'own' ? '/my/team' : `/customers/${encodeURIComponent(door.uuid)}/members`);
  const memberPath = (door: TeamDoor, id: string) => (door.kind === 'own' ? `/my/team/members/${encodeURIComponent(id)}` : `${base(door)}/${encodeURIComponent(id)}`);
  const invitationPath = (token: string) => `/invitations/${encodeURIComponent(token)}`;
  return {
    team: async (door: TeamDoor, signal?: AbortSignal): Promise<ApiResult<TeamWire>> => mapResult(await client.request<unknown>(base(door), withSignal(signal)), normaliseTeam),

    invite: async (door: TeamDoor, payload: InvitePayload, signal?: AbortSignal): Promise<ApiResult<TeamInvitationWire>> =>
      mapResult(await client.request<unknown>(`${base(door)}/invitations`, { method: 'POST', body: payload, ...withSignal(signal) }), normaliseInvitation),

    revokeInvitation: async (door: TeamDoor, id: string, signal?: AbortSignal): Promise<ApiResult<TeamInvitationWire>> =>
      mapResult(await client.request<unknown>(`${base(door)}/invitations/${encodeURIComponent(id)}`, { method: 'DELETE', ...withSignal(signal) }), normaliseInvitation),

    updateMember: async (door: TeamDoor, id: string, patch: MemberPatchPayload, signal?: AbortSignal): Promise<ApiResult<TeamMemberWire>> =>
      mapResult(await client.request<unknown>(memberPath(door, id), { method: 'PATCH', body: patch, ...withSignal(signal) }), normaliseTeamMember),

    removeMember: async (door: TeamDoor, id: string, signal?: AbortSignal): Promise<ApiResult<{ removed: true }>> =>
      mapResult(await client.request<unknown>(memberPath(door, id), { method: 'DELETE', ...withSignal(signal) }), () => ({ removed: true as const })),

    /**
     * The public invitation page. No bearer token goes with these calls: the link is the
     * credential, and whoever is signed in on this browser has nothing to do with it.
     * 404 for an unknown link, 410 for an accepted, expired or revoked one, each with a message.
     */
    checkInvitation: async (token: string, signal?: AbortSignal): Promise<ApiResult<InvitationInfoWire>> =>
      mapResult(await client.request<unknown>(invitationPath(token), { token: null, ...withSignal(signal) }), normaliseInvitationInfo),

    acceptInvitation: async ({ token, ...payload }: AcceptInvitationPayload & { token: string }, signal?: AbortSignal): Promise<ApiResult<{ email: string }>> =>
      mapResult(
        await client.request<unknown>(`${invitationPath(token)}/accept`, { method: 'POST', body: payload, token: null, ...withSignal(signal) }),
        (data) => ({ email: (isRecord(data) ? str(data.email) : null) ?? '' }),
      ),
  };
}

export type MembersApi = ReturnType<typeof createMembersApi>;
