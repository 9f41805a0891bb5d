// "View as customer": a portal user with customers:read opens a read-only preview of a customer's own
// area. The reads answer exactly what the customer's /my routes answer, for the customer named in
// the path; there is no write here at all, so the preview cannot act for the customer.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MY_AREA_MESSAGES } from '../../src/domain/my-area';
import { auditContext } from '../services/audit';
import { customerParamsSchema, customerSchema } from './customers-schemas';
import { myRequestsSchema } from './customer-requests-schemas';
import { myOverviewSchema, myTerminalDetailSchema, myTerminalParamsSchema, myTerminalQuerySchema, myTerminalsSchema } from './my-terminals-schemas';
import { failures, successSchema } from './schemas';
import { telemetryHistoryQuerySchema, telemetryHistorySchema } from './telemetry-history-schemas';
import { TELEMETRY_ROUTE_MESSAGES } from './telemetry-history';

const tags = ['customer preview'];
const security = [{ bearerAuth: [] }];
const config = { auth: 'customers:read' as const };

export const PREVIEW_MESSAGES = {
  opened: 'Customer preview opened',
  requests: 'Customer requests retrieved successfully',
} as const;

export const customerPreviewRoutes: FastifyPluginAsyncZod = async (app) => {
  const preview = () => app.services.customerPreview;

  app.post(
    '/customers/:uuid/preview',
    {
      config,
      schema: {
        tags,
        security,
        summary: "Open a read-only preview of the customer's own area (audited); answers the customer",
        params: customerParamsSchema,
        response: { 200: successSchema(z.object({ customer: customerSchema })), ...failures(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const customer = await preview().open(request.params.uuid, auditContext(request));
      return { success: true as const, data: { customer }, message: PREVIEW_MESSAGES.opened };
    },
  );

  app.get(
    '/customers/:uuid/preview/overview',
    {
      config,
      schema: {
        tags,
        security,
        summary: "The customer's overview, as GET /my/overview answers it to them",
        params: customerParamsSchema,
        response: { 200: successSchema(myOverviewSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await preview().overview(request.params.uuid), message: MY_AREA_MESSAGES.overview }),
  );

  app.get(
    '/customers/:uuid/preview/terminals',
    {
      config,
      schema: {
        tags,
        security,
        summary: "The customer's terminals, as GET /my/terminals answers them",
        params: customerParamsSchema,
        response: { 200: successSchema(myTerminalsSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await preview().terminals(request.params.uuid), message: MY_AREA_MESSAGES.listed }),
  );

  app.get(
    '/customers/:uuid/preview/terminals/:terminalId',
    {
      config,
      schema: {
        tags,
        security,
        summary: "One of the customer's terminals, as GET /my/terminals/{terminalId} answers it",
        params: customerParamsSchema.extend(myTerminalParamsSchema.shape),
        querystring: myTerminalQuerySchema,
        response: { 200: successSchema(myTerminalDetailSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await preview().terminal(request.params.uuid, request.params.terminalId, request.query.month ?? null),
      message: MY_AREA_MESSAGES.detail,
    }),
  );

  app.get(
    '/customers/:uuid/preview/terminals/:terminalId/telemetry',
    {
      config,
      schema: {
        tags,
        security,
        summary: "One of the customer's terminals' telemetry history, as GET /my/terminals/{terminalId}/telemetry answers it",
        params: customerParamsSchema.extend(myTerminalParamsSchema.shape),
        querystring: telemetryHistoryQuerySchema,
        response: { 200: successSchema(telemetryHistorySchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await preview().telemetry(request.params.uuid, request.params.terminalId, request.query),
      message: TELEMETRY_ROUTE_MESSAGES.history,
    }),
  );

  app.get(
    '/customers/:uuid/preview/requests',
    {
      config,
      schema: {
        tags,
        security,
        summary: "The customer's requests, as GET /my/requests answers them",
        params: customerParamsSchema,
        response: { 200: successSchema(myRequestsSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await preview().requests(request.params.uuid), message: PREVIEW_MESSAGES.requests }),
  );
};
