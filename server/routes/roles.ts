// Roles: the permissions matrix (any user who may read users), and custom roles composed from
// permissions (users:manage). The service refuses granting what the caller does not hold.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ROLE_MESSAGES as M } from '../../src/domain/permissions';
import { grantorOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { roleBodySchema, roleParamsSchema, roleWireSchema } from './roles-schemas';
import { failures, successSchema } from './schemas';

const tags = ['roles'];
const security = [{ bearerAuth: [] }];

export const roleRoutes: FastifyPluginAsyncZod = async (app) => {
  const roles = () => app.services.roles;

  app.get(
    '/roles',
    {
      config: { auth: 'users:read' },
      schema: {
        tags,
        security,
        summary: 'Every role with the permissions it grants: the built-in ones first, then the custom ones by name',
        response: { 200: successSchema(z.object({ roles: z.array(roleWireSchema) })), ...failures(401, 403) },
      },
    },
    async () => ({ success: true as const, data: { roles: await roles().list() }, message: M.listed }),
  );

  app.post(
    '/roles',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Compose a custom role from permissions you hold yourself',
        body: roleBodySchema,
        response: { 201: successSchema(z.object({ role: roleWireSchema })), ...failures(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const role = await roles().create(request.body, grantorOf(request), auditContext(request));
      return reply.code(201).send({ success: true as const, data: { role }, message: M.created });
    },
  );

  app.put(
    '/roles/:id',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: "Change a custom role's name, description and permissions (built-in roles cannot be changed)",
        params: roleParamsSchema,
        body: roleBodySchema,
        response: { 200: successSchema(z.object({ role: roleWireSchema })), ...failures(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const role = await roles().update(request.params.id, request.body, grantorOf(request), auditContext(request));
      return { success: true as const, data: { role }, message: M.updated };
    },
  );

  app.delete(
    '/roles/:id',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Delete a custom role nobody holds',
        params: roleParamsSchema,
        response: { 200: successSchema(z.object({ id: z.uuid() })), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => {
      await roles().remove(request.params.id, grantorOf(request), auditContext(request));
      return { success: true as const, data: { id: request.params.id }, message: M.deleted };
    },
  );
};
