// A customer organisation's team. Three doors to one service:
// - /my/team…: the organisation's owners manage their own team (`customer`, and the owner role,
//   checked on the principal: managers and viewers get 403);
// - /customers/{uuid}/members…: the reseller's staff see and manage any organisation's team;
// - /invitations/{token}…: the invitee, not signed in, reads and accepts their invitation
//   (rate-limited with the sign-in routes, one budget per client address).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MEMBER_MESSAGES as M } from '../../src/domain/members';
import { principalOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { customerScopeOf, requireTeamOwner } from '../services/customer-scope';
import { customerParamsSchema } from './customers-schemas';
import { linkContext } from './customers';
import {
  acceptBodySchema,
  customerInvitationParamsSchema,
  customerMemberParamsSchema,
  invitationInfoSchema,
  invitationTokenParamsSchema,
  inviteBodySchema,
  memberPatchBodySchema,
  myTeamIdParamsSchema,
  teamInvitationSchema,
  teamMemberSchema,
  teamSchema,
} from './customer-members-schemas';
import { failures, successSchema } from './schemas';

const security = [{ bearerAuth: [] }];
const removedSchema = z.object({ removed: z.literal(true) });

export const customerMemberRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.customerMembers;
  /** The signed-in owner's organisation; 403 for the organisation's managers and viewers. */
  const ownTeam = (request: Parameters<typeof principalOf>[0]) => {
    const scope = customerScopeOf(principalOf(request));
    requireTeamOwner(scope);
    return scope.customerId;
  };

  // ---- the organisation's owners ------------------------------------------------------------

  app.get(
    '/my/team',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer area'],
        security,
        summary: "The organisation's team: its own login (the owner) and members, the pending and recent invitations, and the lines a member may be limited to (owners only)",
        response: { 200: successSchema(teamSchema), ...failures(401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().team(ownTeam(request)), message: M.team }),
  );

  app.post(
    '/my/team/invitations',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer area'],
        security,
        summary: 'Invite someone by email as owner, manager or viewer, on every line or some (owners only); replaces a pending invitation to the same email',
        body: inviteBodySchema,
        response: { 201: successSchema(teamInvitationSchema), ...failures(401, 403, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { invitation, message } = await service().invite(ownTeam(request), request.body, linkContext(request));
      return reply.code(201).send({ success: true as const, data: invitation, message });
    },
  );

  app.delete(
    '/my/team/invitations/:id',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer area'],
        security,
        summary: 'Revoke a pending invitation (owners only); its link then answers 410',
        params: myTeamIdParamsSchema,
        response: { 200: successSchema(teamInvitationSchema), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => ({ success: true as const, data: await service().revokeInvitation(ownTeam(request), request.params.id, auditContext(request)), message: M.revoked }),
  );

  app.patch(
    '/my/team/members/:id',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer area'],
        security,
        summary: "Change a member's role or the lines they are limited to (null: every line) (owners only)",
        params: myTeamIdParamsSchema,
        body: memberPatchBodySchema,
        response: { 200: successSchema(teamMemberSchema), ...failures(401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().updateMember(ownTeam(request), request.params.id, request.body, auditContext(request)),
      message: M.updated,
    }),
  );

  app.delete(
    '/my/team/members/:id',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer area'],
        security,
        summary: 'Remove a member: their sessions stop at once (owners only; the organisation\'s own login cannot be removed)',
        params: myTeamIdParamsSchema,
        response: { 200: successSchema(removedSchema), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      await service().removeMember(ownTeam(request), request.params.id, auditContext(request));
      return { success: true as const, data: { removed: true as const }, message: M.removed };
    },
  );

  // ---- the reseller's staff -----------------------------------------------------------------

  app.get(
    '/customers/:uuid/members',
    {
      config: { auth: 'customers:read' },
      schema: {
        tags: ['customers'],
        security,
        summary: "A customer organisation's team: its own login, its members, the pending and recent invitations and its lines",
        params: customerParamsSchema,
        response: { 200: successSchema(teamSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await service().team(request.params.uuid), message: M.members }),
  );

  app.post(
    '/customers/:uuid/members/invitations',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags: ['customers'],
        security,
        summary: 'Invite someone into a customer organisation by email, as owner, manager or viewer, on every line or some',
        params: customerParamsSchema,
        body: inviteBodySchema,
        response: { 201: successSchema(teamInvitationSchema), ...failures(401, 403, 404, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      const { invitation, message } = await service().invite(request.params.uuid, request.body, linkContext(request));
      return reply.code(201).send({ success: true as const, data: invitation, message });
    },
  );

  app.delete(
    '/customers/:uuid/members/invitations/:id',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags: ['customers'],
        security,
        summary: "Revoke a customer organisation's pending invitation",
        params: customerInvitationParamsSchema,
        response: { 200: successSchema(teamInvitationSchema), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().revokeInvitation(request.params.uuid, request.params.id, auditContext(request)),
      message: M.revoked,
    }),
  );

  app.patch(
    '/customers/:uuid/members/:memberId',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags: ['customers'],
        security,
        summary: "Change a customer organisation's member's role or lines",
        params: customerMemberParamsSchema,
        body: memberPatchBodySchema,
        response: { 200: successSchema(teamMemberSchema), ...failures(401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().updateMember(request.params.uuid, request.params.memberId, request.body, auditContext(request)),
      message: M.updated,
    }),
  );

  app.delete(
    '/customers/:uuid/members/:memberId',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags: ['customers'],
        security,
        summary: "Remove a customer organisation's member",
        params: customerMemberParamsSchema,
        response: { 200: successSchema(removedSchema), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      await service().removeMember(request.params.uuid, request.params.memberId, auditContext(request));
      return { success: true as const, data: { removed: true as const }, message: M.removed };
    },
  );

  // ---- the invitee --------------------------------------------------------------------------

  const rateLimit = app.rateLimit();

  app.get(
    '/invitations/:token',
    {
      config: { auth: 'public' },
      onRequest: rateLimit,
      schema: {
        tags: ['invitations'],
        summary: 'Who an invitation is for and from which organisation, while it can be accepted (404 unknown; 410 accepted, expired or revoked)',
        params: invitationTokenParamsSchema,
        response: { 200: successSchema(invitationInfoSchema), ...failures(404, 410, 429) },
      },
    },
    async (request) => ({ success: true as const, data: await service().describeInvitation(request.params.token), message: M.invitationValid }),
  );

  app.post(
    '/invitations/:token/accept',
    {
      config: { auth: 'public' },
      onRequest: rateLimit,
      schema: {
        tags: ['invitations'],
        summary: 'Accept an invitation with a name and a password: the member is created and may sign in; the invitation is then used',
        params: invitationTokenParamsSchema,
        body: acceptBodySchema,
        response: { 200: successSchema(z.object({ email: z.string() })), ...failures(404, 409, 410, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().acceptInvitation(request.params.token, request.body, { ip: request.ip, requestId: String(request.id) }),
      message: M.joined,
    }),
  );
};
