// The customer area's terminals: the overview, the list, a terminal's page, rename and
// reboot. Every route is `auth: 'customer'` and takes no customer id: it acts on the token's own
// account (principalOf), so another customer's terminal ids answer 404 like unknown ones.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MY_AREA_MESSAGES as M } from '../../src/domain/my-area';
import { principalOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { customerScopeOf } from '../services/customer-scope';
import {
  myOverviewSchema,
  myTerminalDetailSchema,
  myTerminalParamsSchema,
  myTerminalQuerySchema,
  myTerminalsSchema,
  rebootResultSchema,
  renameResultSchema,
  renameTerminalBodySchema,
} from './my-terminals-schemas';
import { failures, successSchema } from './schemas';
import { telemetryHistoryQuerySchema, telemetryHistorySchema } from './telemetry-history-schemas';
import { TELEMETRY_ROUTE_MESSAGES } from './telemetry-history';

const tags = ['customer area'];
const security = [{ bearerAuth: [] }];

export const myTerminalRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.myTerminals;
  // The organisation, and for a member their role and lines (a limited member's other lines are 404s too).
  const me = (request: Parameters<typeof principalOf>[0]) => customerScopeOf(principalOf(request));

  app.get(
    '/my/overview',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        security,
        summary: "The signed-in customer's overview: terminals, online now, this cycle's use against the plans, the projection and the open alerts",
        response: { 200: successSchema(myOverviewSchema), ...failures(401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().overview(me(request)), message: M.overview }),
  );

  app.get(
    '/my/terminals',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        security,
        summary: "The signed-in customer's terminals with their status, telemetry, plan and this cycle's use",
        response: { 200: successSchema(myTerminalsSchema), ...failures(401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().list(me(request)), message: M.listed }),
  );

  app.get(
    '/my/terminals/:terminalId/telemetry',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        security,
        summary: "One of the customer's terminals' telemetry history since it was theirs, with its outages (as GET /terminals/{id}/telemetry)",
        params: myTerminalParamsSchema,
        querystring: telemetryHistoryQuerySchema,
        response: { 200: successSchema(telemetryHistorySchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().telemetry(me(request), request.params.terminalId, request.query),
      message: TELEMETRY_ROUTE_MESSAGES.history,
    }),
  );

  app.get(
    '/my/terminals/:terminalId',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        security,
        summary: "One of the customer's terminals with a month's daily use (one of the last 12 months, default the current one) and the cycle's forecast",
        params: myTerminalParamsSchema,
        querystring: myTerminalQuerySchema,
        response: { 200: successSchema(myTerminalDetailSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service().detail(me(request), request.params.terminalId, request.query.month ?? null),
      message: M.detail,
    }),
  );

  app.put(
    '/my/terminals/:terminalId/name',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        security,
        summary: "Rename one of the customer's terminals (its service line's nickname at the provider); audited with the customer as actor",
        params: myTerminalParamsSchema,
        body: renameTerminalBodySchema,
        response: { 200: successSchema(renameResultSchema), ...failures(400, 401, 403, 404, 409, 413, 415, 502, 503, 504) },
      },
    },
    async (request) => {
      const data = await service().rename(me(request), request.params.terminalId, request.body.name, auditContext(request));
      return { success: true as const, data, message: M.renamed(data.nickname) };
    },
  );

  app.post(
    '/my/terminals/:terminalId/reboot',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        security,
        summary:
          "Reboot one of the customer's terminals at the provider: once per terminal per 10 minutes and 10 times per customer per hour (429 with Retry-After); audited",
        params: myTerminalParamsSchema,
        response: { 200: successSchema(rebootResultSchema), ...failures(400, 401, 403, 404, 409, 413, 415, 429, 502, 503, 504) },
      },
    },
    async (request) => ({ success: true as const, data: await service().reboot(me(request), request.params.terminalId, auditContext(request)), message: M.rebooted }),
  );
};
