// Portal users (spec 7 "Users"), users:read and users:manage: list, one user, create, edit, soft delete,
// hard delete, restore, block, unblock, disable MFA, extend, reset login attempts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { grantorOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { USER_SERVER_MESSAGES } from '../services/users';
import { linkContext } from './customers';
import { failures, successSchema } from './schemas';
import {
  blockUserBodySchema,
  createUserBodySchema,
  extendUserBodySchema,
  updateUserBodySchema,
  userListQuerySchema,
  userListSchema,
  userParamsSchema,
  userWireSchema,
} from './users-schemas';

const tags = ['users'];
const security = [{ bearerAuth: [] }];
const userData = successSchema(z.object({ user: userWireSchema }));
const params = userParamsSchema;

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const users = () => app.services.users;

  app.get(
    '/users',
    {
      config: { auth: 'users:read' },
      schema: {
        tags,
        security,
        summary: 'One page of portal users, newest first, with search, filters and the stat cards',
        querystring: userListQuerySchema,
        response: { 200: successSchema(userListSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const { page, limit, search, is_active, include_deleted } = request.query;
      const data = await users().list({ page, limit, search, isActive: is_active, includeDeleted: include_deleted });
      return { success: true as const, data, message: USER_SERVER_MESSAGES.retrieved };
    },
  );

  app.get(
    '/users/:uuid',
    {
      config: { auth: 'users:read' },
      schema: { tags, security, summary: 'One portal user (soft-deleted ones too)', params, response: { 200: userData, ...failures(401, 403, 404) } },
    },
    async (request) => {
      const user = await users().get(request.params.uuid);
      return { success: true as const, data: { user }, message: USER_SERVER_MESSAGES.found };
    },
  );

  app.post(
    '/users',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Create a user: active with the given password, or inactive with an emailed password-setup link',
        body: createUserBodySchema,
        response: { 201: userData, ...failures(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { user, message } = await users().create(request.body, linkContext(request), grantorOf(request));
      return reply.code(201).send({ success: true as const, data: { user }, message });
    },
  );

  app.put(
    '/users/:uuid',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Edit a user (name, email, roles, is_active); granting what you do not hold, suspending an Owner and taking the last Owner\'s role are refused',
        params,
        body: updateUserBodySchema,
        response: { 200: userData, ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { user, message } = await users().update(request.params.uuid, request.body, auditContext(request), grantorOf(request));
      return { success: true as const, data: { user }, message };
    },
  );

  app.delete(
    '/users/:uuid',
    {
      config: { auth: 'users:manage' },
      schema: { tags, security, summary: 'Soft-delete a user (restorable)', params, response: { 200: userData, ...failures(401, 403, 404, 409) } },
    },
    async (request) => {
      const { user, message } = await users().remove(request.params.uuid, auditContext(request));
      return { success: true as const, data: { user }, message };
    },
  );

  app.delete(
    '/users/:uuid/hard-delete',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Permanently remove a soft-deleted user (the audit trail keeps the id)',
        params,
        response: { 200: successSchema(z.object({ uuid: z.uuid() })), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { uuid, message } = await users().hardDelete(request.params.uuid, auditContext(request));
      return { success: true as const, data: { uuid }, message };
    },
  );

  const action = (
    path: string,
    summary: string,
    run: (id: string, context: ReturnType<typeof auditContext>) => ReturnType<ReturnType<typeof users>['unblock']>,
  ) =>
    app.post(
      `/users/:uuid/${path}`,
      { config: { auth: 'users:manage' }, schema: { tags, security, summary, params, response: { 200: userData, ...failures(401, 403, 404, 409) } } },
      async (request) => {
        const { user, message } = await run(request.params.uuid, auditContext(request));
        return { success: true as const, data: { user }, message };
      },
    );

  action('restore', 'Restore a soft-deleted user whose email is still free', (id, context) => users().restore(id, context));
  action('unblock', 'Unblock a user', (id, context) => users().unblock(id, context));
  action('disable-mfa', "Turn off a user's multi-factor authentication and forget the secret", (id, context) => users().disableMfa(id, context));
  action('reset-login-attempts', 'Clear failed sign-in attempts and any lock', (id, context) => users().resetLoginAttempts(id, context));

  app.post(
    '/users/:uuid/block',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Block a user with a reason; self and the last administrator are refused',
        params,
        body: blockUserBodySchema,
        response: { 200: userData, ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { user, message } = await users().block(request.params.uuid, request.body.reason, auditContext(request));
      return { success: true as const, data: { user }, message };
    },
  );

  app.patch(
    '/users/:uuid/extend-expiration',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Extend the account by days, from the later of now and the current expiry',
        params,
        body: extendUserBodySchema,
        response: { 200: userData, ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const { user, message } = await users().extendExpiration(request.params.uuid, request.body.days, auditContext(request));
      return { success: true as const, data: { user }, message };
    },
  );
};
