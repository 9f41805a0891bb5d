// Customer requests. The customer's routes (/my/requests…) take no customer id: they act
// on the token's own account, and another customer's lines and requests answer 404. The admins'
// queue (/requests…, lifecycle:manage) approves — the provider call runs then — or declines with
// a reason.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { REQUEST_MESSAGES as M } from '../../src/domain/requests';
import { grantorOf, principalOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { customerScopeOf } from '../services/customer-scope';
import { failures, successSchema } from './schemas';
import {
  customerRequestSchema,
  declineBodySchema,
  myRequestsSchema,
  newRequestBodySchema,
  queuedRequestSchema,
  requestOptionsQuerySchema,
  requestOptionsSchema,
  requestParamsSchema,
  requestQueueQuerySchema,
  requestQueueSchema,
} from './customer-requests-schemas';

const security = [{ bearerAuth: [] }];
const customerTags = ['customer requests'];
const adminTags = ['requests'];

export const customerRequestRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.customerRequests;

  app.get(
    '/my/requests',
    {
      config: { auth: 'customer' },
      schema: {
        tags: customerTags,
        security,
        summary: "The signed-in customer's requests, newest first, and the active lines they may ask about",
        response: { 200: successSchema(myRequestsSchema), ...failures(401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().mine(customerScopeOf(principalOf(request))), message: M.listed }),
  );

  app.get(
    '/my/requests/options',
    {
      config: { auth: 'customer' },
      schema: {
        tags: customerTags,
        security,
        summary: 'What the customer may ask for on one of their lines: the plans it may move to and its top-up with the blocks left this cycle',
        querystring: requestOptionsQuerySchema,
        response: { 200: successSchema(requestOptionsSchema), ...failures(401, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => ({ success: true as const, data: await service().options(customerScopeOf(principalOf(request)), request.query.serviceLineNumber), message: M.options }),
  );

  app.post(
    '/my/requests',
    {
      config: { auth: 'customer' },
      schema: {
        tags: customerTags,
        security,
        summary: 'Ask the administrators for a plan change or a top-up on one of your lines',
        body: newRequestBodySchema,
        response: { 201: successSchema(customerRequestSchema), ...failures(401, 403, 404, 409, 415, 502, 503, 504) },
      },
    },
    async (request, reply) => {
      const created = await service().create(customerScopeOf(principalOf(request)), request.body, auditContext(request));
      return reply.code(201).send({ success: true as const, data: created, message: M.created });
    },
  );

  app.post(
    '/my/requests/:id/cancel',
    {
      config: { auth: 'customer' },
      schema: {
        tags: customerTags,
        security,
        summary: 'Cancel one of your requests while it is pending',
        params: requestParamsSchema,
        response: { 200: successSchema(customerRequestSchema), ...failures(401, 403, 404, 409) },
      },
    },
    async (request) => ({ success: true as const, data: await service().cancel(customerScopeOf(principalOf(request)), request.params.id, auditContext(request)), message: M.cancelled }),
  );

  app.get(
    '/requests',
    {
      config: { auth: 'lifecycle:read' },
      schema: {
        tags: adminTags,
        security,
        summary: "The customers' requests, newest first, by status (pending by default), with counts per status",
        querystring: requestQueueQuerySchema,
        response: { 200: successSchema(requestQueueSchema), ...failures(401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().queue(request.query), message: M.listed }),
  );

  app.post(
    '/requests/:id/approve',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags: adminTags,
        security,
        summary: 'Approve a pending request: the plan change or top-up runs at the provider, and the request is marked approved only once it went through',
        params: requestParamsSchema,
        response: { 200: successSchema(queuedRequestSchema), ...failures(401, 403, 404, 409, 502, 503, 504) },
      },
    },
    async (request) => {
      // The route admits portal users with lifecycle:manage; what the request changes may need more.
      const data = await service().approve(request.params.id, grantorOf(request), auditContext(request), { log: request.log });
      return { success: true as const, data, message: M.approved };
    },
  );

  app.post(
    '/requests/:id/decline',
    {
      config: { auth: 'lifecycle:manage' },
      schema: {
        tags: adminTags,
        security,
        summary: 'Decline a pending request with a reason the customer sees',
        params: requestParamsSchema,
        body: declineBodySchema,
        response: { 200: successSchema(queuedRequestSchema), ...failures(401, 403, 404, 409, 415) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().decline(request.params.id, principalOf(request).id, request.body.reason, auditContext(request), { log: request.log }),
      message: M.declined,
    }),
  );
};
