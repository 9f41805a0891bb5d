// API keys for the reseller's own systems: the list (a prefix of each key, never the key), a new
// key (in this answer only) and revocation. Reading them needs users:read; making and revoking
// them users:manage, and a key may not make keys.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_KEY_MESSAGES as M } from '../../src/domain/api-keys';
import { principalOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { apiKeyCreatedSchema, apiKeyParamsSchema, apiKeySchema, newApiKeyBodySchema } from './api-keys-schemas';
import { failures, successSchema } from './schemas';

const security = [{ bearerAuth: [] }];
const tags = ['api-keys'];

export const apiKeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.apiKeys;

  app.get(
    '/api-keys',
    {
      config: { auth: 'users:read' },
      schema: {
        tags,
        security,
        summary: 'Every API key, newest first (revoked ones too), each with a short prefix of the key, never the key',
        response: { 200: successSchema(z.array(apiKeySchema)), ...failures(401, 403, 429) },
      },
    },
    async () => ({ success: true as const, data: await service().list(), message: M.listed }),
  );

  app.post(
    '/api-keys',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary:
          "Make an API key with a role no wider than your own permissions, an optional expiry and an optional list of addresses and CIDR ranges; the key is in this answer only. It acts with its role, never more than you hold at the time of each call, and stops while you cannot sign in",
        body: newApiKeyBodySchema,
        response: { 201: successSchema(apiKeyCreatedSchema), ...failures(401, 403, 409, 415, 429) },
      },
    },
    async (request, reply) => {
      const data = await service().create(request.body, principalOf(request), auditContext(request));
      return reply.code(201).send({ success: true as const, data, message: M.created });
    },
  );

  app.post(
    '/api-keys/:id/revoke',
    {
      config: { auth: 'users:manage' },
      schema: {
        tags,
        security,
        summary: 'Revoke an API key: from the next request on it is refused (401), and it never works again',
        params: apiKeyParamsSchema,
        response: { 200: successSchema(apiKeySchema), ...failures(401, 403, 404, 409, 429) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().revoke(request.params.id, principalOf(request), auditContext(request)),
      message: M.revoked,
    }),
  );
};
