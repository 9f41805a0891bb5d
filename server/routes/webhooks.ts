// Signed webhooks: the endpoints the operators register, their secrets (shown once), a test event,
// and each endpoint's delivery log with replay: alerts:read reads them, alerts:manage changes them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { WEBHOOK_MESSAGES as M } from '../../src/domain/webhooks';
import { auditContext } from '../services/audit';
import { failures, successSchema } from './schemas';
import {
  deliveriesQuerySchema,
  deliveryParamsSchema,
  newWebhookBodySchema,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookParamsSchema,
  webhookSecretSchema,
  webhookUpdateBodySchema,
} from './webhooks-schemas';

const security = [{ bearerAuth: [] }];
const tags = ['webhooks'];

export const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.webhooks;

  app.get(
    '/webhooks',
    {
      config: { auth: 'alerts:read' },
      schema: {
        tags,
        security,
        summary: 'The webhook endpoints, oldest first, each with its newest delivery',
        response: { 200: successSchema(z.array(webhookEndpointSchema)), ...failures(401, 403) },
      },
    },
    async () => ({ success: true as const, data: await service().list(), message: M.listed }),
  );

  app.post(
    '/webhooks',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: 'Register an endpoint (https, or http to localhost when allowed; its host must not resolve into a private network); its secret is in this answer only',
        body: newWebhookBodySchema,
        response: { 201: successSchema(webhookSecretSchema), ...failures(401, 403, 409, 415, 503) },
      },
    },
    async (request, reply) => {
      const created = await service().create(request.body, auditContext(request));
      return reply.code(201).send({ success: true as const, data: created, message: M.created });
    },
  );

  app.get(
    '/webhooks/:id',
    {
      config: { auth: 'alerts:read' },
      schema: {
        tags,
        security,
        summary: 'One webhook endpoint',
        params: webhookParamsSchema,
        response: { 200: successSchema(webhookEndpointSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await service().get(request.params.id), message: M.found }),
  );

  app.patch(
    '/webhooks/:id',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: "Change an endpoint's URL, description or event types, or disable it (enabled: false) or enable it again (enabled: true, which clears its failure count)",
        params: webhookParamsSchema,
        body: webhookUpdateBodySchema,
        response: { 200: successSchema(webhookEndpointSchema), ...failures(401, 403, 404, 415) },
      },
    },
    async (request) => {
      const { enabled } = request.body;
      const data = await service().update(request.params.id, request.body, auditContext(request));
      return { success: true as const, data, message: enabled === true ? M.enabled : M.updated };
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: 'Delete an endpoint: its waiting deliveries are abandoned',
        params: webhookParamsSchema,
        response: { 200: successSchema(z.null()), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      await service().remove(request.params.id, auditContext(request));
      return { success: true as const, data: null, message: M.deleted };
    },
  );

  app.post(
    '/webhooks/:id/secret',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: 'Make a new secret for an endpoint (in this answer only); the old one signs nothing more',
        params: webhookParamsSchema,
        response: { 200: successSchema(webhookSecretSchema), ...failures(401, 403, 404, 503) },
      },
    },
    async (request) => ({ success: true as const, data: await service().rotateSecret(request.params.id, auditContext(request)), message: M.secretRotated }),
  );

  app.post(
    '/webhooks/:id/test',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: 'Send a webhook.test event to this endpoint only',
        params: webhookParamsSchema,
        response: { 200: successSchema(webhookDeliverySchema), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => ({ success: true as const, data: await service().sendTest(request.params.id, auditContext(request)), message: M.testQueued }),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { auth: 'alerts:read' },
      schema: {
        tags,
        security,
        summary: "An endpoint's deliveries, newest first, each with its attempts",
        params: webhookParamsSchema,
        querystring: deliveriesQuerySchema,
        response: { 200: successSchema(webhookDeliveryListSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().deliveries(request.params.id, request.query.page, request.query.limit),
      message: M.deliveriesListed,
    }),
  );

  app.post(
    '/webhooks/deliveries/:deliveryId/replay',
    {
      config: { auth: 'alerts:manage' },
      schema: {
        tags,
        security,
        summary: "Send a delivery's event again, as a new delivery to the same endpoint (refused while the endpoint is disabled)",
        params: deliveryParamsSchema,
        response: { 200: successSchema(webhookDeliverySchema), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => ({ success: true as const, data: await service().replay(request.params.deliveryId, auditContext(request)), message: M.replayQueued }),
  );
};
