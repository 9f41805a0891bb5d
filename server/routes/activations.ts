// Activating a terminal (the "Add Terminal" wizard): start an activation, resume one that stopped
// part-way, read one. Activating needs lifecycle:manage; reading one, lifecycle:read.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ACTIVATION_MESSAGES as M, type ActivationWire } from '../../src/domain/activations';
import { auditContext } from '../services/audit';
import { failures, successSchema } from './schemas';
import { activationAddressesSchema, activationBodySchema, activationParamsSchema, activationSchema, addressSearchQuerySchema } from './activations-schemas';

const tags = ['activations'];
const security = [{ bearerAuth: [] }];

const answer = (activation: ActivationWire) => ({
  success: true as const,
  data: activation,
  message: activation.status === 'completed' ? M.completed(activation.serviceLineNumber ?? '') : M.failed,
});

export const activationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.activations;

  app.post(
    '/activations',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: "Activate a kit: add it to the account, create the address when new, create the line, attach, name, store and assign it; the answer says how far it got",
        body: activationBodySchema,
        response: { 201: successSchema(activationSchema), ...failures(400, 401, 403, 404, 409, 415, 503) },
      },
    },
    async (request, reply) => {
      const activation = await service().start(request.body, auditContext(request));
      return reply.code(201).send(answer(activation));
    },
  );

  app.post(
    '/activations/:id/resume',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags,
        security,
        summary: 'Continue an activation that stopped part-way, from its first step not done',
        params: activationParamsSchema,
        response: { 200: successSchema(activationSchema), ...failures(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => answer(await service().resume(request.params.id, auditContext(request))),
  );

  app.get(
    '/activations/addresses',
    {
      config: { auth: 'lifecycle:read' },
      schema: {
        tags,
        security,
        summary: "A provider account's addresses (as last synced; the first account's by default) to put a new line at, at most 50, narrowed by a search",
        querystring: addressSearchQuerySchema,
        response: { 200: successSchema(activationAddressesSchema), ...failures(400, 401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().addresses(request.query.search ?? null, request.query.account_id ?? null), message: 'Addresses retrieved successfully' }),
  );

  app.get(
    '/activations/:id',
    {
      config: { auth: 'lifecycle:read' },
      schema: { tags, security, summary: 'An activation and its steps', params: activationParamsSchema, response: { 200: successSchema(activationSchema), ...failures(400, 401, 403, 404) } },
    },
    async (request) => answer(await service().get(request.params.id)),
  );
};
