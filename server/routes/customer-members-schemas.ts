// Request and response schemas of a customer organisation's team: the owner's /my/team, the
// admins' /customers/{uuid}/members and the public invitation pages; the answers checked against
// their types in src/domain/members.ts.
import { z } from 'zod';
import {
  INVITATION_STATUSES,
  MAX_MEMBER_LINES,
  MEMBER_MESSAGES as M,
  MEMBER_ROLES,
  type InvitationInfoWire,
  type TeamInvitationWire,
  type TeamMemberWire,
  type TeamWire,
} from '../../src/domain/members';
import { SERVICE_LINE_PATTERN } from '../../src/domain/terminals';
import { customerParamsSchema } from './customers-schemas';
import { exact, inputText, type Exact } from './schemas';

export const MEMBER_FIELD_MESSAGES = {
  id: 'Id must be a UUID',
  serviceLine: 'Each service line must be a service line number',
  serviceLines: `serviceLines must be null (all lines) or a list of 1 to ${MAX_MEMBER_LINES} service line numbers`,
  token: 'This invitation link is not valid. Ask for a new invitation.',
} as const;
const F = MEMBER_FIELD_MESSAGES;

const role = z.enum(MEMBER_ROLES, { error: M.roleInvalid });
// Emptiness and the organisation's own lines are the service's to check, in the rule's words.
const serviceLines = z
  .array(z.string({ error: F.serviceLine }).regex(SERVICE_LINE_PATTERN, { error: F.serviceLine }), { error: F.serviceLines })
  .max(MAX_MEMBER_LINES, { error: M.linesTooMany })
  .nullable();

export const inviteBodySchema = z.object({
  email: inputText({ error: M.emailRequired }),
  name: inputText({ error: M.nameRequired }),
  role,
  serviceLines,
});

export const memberPatchBodySchema = z.object({ role: role.optional(), serviceLines: serviceLines.optional() });

export const acceptBodySchema = z.object({
  name: inputText().optional(),
  password: z.string({ error: 'Password is required' }).max(1024, 'Password is too long'),
  confirmPassword: z.string().max(1024, 'Password is too long').optional(),
});

export const myTeamIdParamsSchema = z.object({ id: z.uuid({ error: F.id }) });
export const customerInvitationParamsSchema = customerParamsSchema.extend({ id: z.uuid({ error: F.id }) });
export const customerMemberParamsSchema = customerParamsSchema.extend({ memberId: z.uuid({ error: F.id }) });
export const invitationTokenParamsSchema = z.object({ token: inputText({ error: F.token }) });

export const teamMemberSchema = z.object({
  id: z.string(),
  original: z.boolean(),
  name: z.string(),
  email: z.string(),
  role,
  serviceLines: z.array(z.string()).nullable(),
  mfaEnabled: z.boolean(),
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
});

export const teamInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role,
  serviceLines: z.array(z.string()).nullable(),
  status: z.enum(INVITATION_STATUSES),
  expiresAt: z.string(),
  createdAt: z.string(),
});

export const teamSchema = z.object({
  company: z.string(),
  members: z.array(teamMemberSchema),
  invitations: z.array(teamInvitationSchema),
  lines: z.array(z.object({ serviceLineNumber: z.string(), nickname: z.string().nullable() })),
});

export const invitationInfoSchema = z.object({ email: z.string(), name: z.string(), company: z.string(), role, expiresAt: z.string() });

exact<Exact<z.output<typeof teamMemberSchema>, TeamMemberWire>>();
exact<Exact<z.output<typeof teamInvitationSchema>, TeamInvitationWire>>();
exact<Exact<z.output<typeof teamSchema>, TeamWire>>();
exact<Exact<z.output<typeof invitationInfoSchema>, InvitationInfoWire>>();
