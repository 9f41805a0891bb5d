// A customer's terminals for administrators: assigning service lines, unassigning one, the
// assigned list, the month's usage and the daily totals; and a service line's usage history under
// /usage. `/terminals/customers/...` has a static second segment, which find-my-way prefers to the
// `/terminals/:id` parameter, so these never reach the terminal routes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditContext } from '../services/audit';
import { CUSTOMER_TERMINAL_SERVER_MESSAGES as MESSAGES } from '../services/customer-terminals';
import {
  assignedTerminalsPageQuerySchema,
  assignedTerminalsPageSchema,
  assignedTerminalsSchema,
  assignTerminalsBodySchema,
  assignTerminalsResultSchema,
  customerDailyUsageSchema,
  customerParamsSchema,
  customerUsageQuerySchema,
  customerUsagePageQuerySchema,
  customerUsagePageSchema,
  dailyUsageQuerySchema,
  lineHistoryQuerySchema,
  lineParamsSchema,
  serviceLineUsageHistorySchema,
  terminalUsageRecordsSchema,
  unassignTerminalBodySchema,
  unassignTerminalResultSchema,
} from './customer-terminals-schemas';
import { failures, successSchema } from './schemas';

const tags = ['customer terminals'];
const security = [{ bearerAuth: [] }];

export const customerTerminalRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.customerTerminals;

  app.post(
    '/terminals/customers/assign-terminals',
    {
      config: { auth: 'terminals:manage' },
      schema: {
        tags,
        security,
        summary: 'Assign the live terminals on each service line to a customer; every line is answered, failures with their reason',
        body: assignTerminalsBodySchema,
        response: { 200: successSchema(assignTerminalsResultSchema), ...failures(401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const { result, message } = await service().assign(request.body, auditContext(request));
      return { success: true as const, data: result, message };
    },
  );

  app.post(
    '/terminals/customers/unassign-terminal',
    {
      config: { auth: 'terminals:manage' },
      schema: {
        tags,
        security,
        summary: "Return the customer's live terminals on a service line to the unassigned inventory",
        body: unassignTerminalBodySchema,
        response: { 200: successSchema(unassignTerminalResultSchema), ...failures(401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { result, message } = await service().unassign(request.body, auditContext(request));
      return { success: true as const, data: result, message };
    },
  );

  app.get(
    '/terminals/customers/:customerUuid/terminals',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: "The customer's live terminals, by service line",
        params: customerParamsSchema,
        response: { 200: successSchema(assignedTerminalsSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await service().assigned(request.params.customerUuid);
      return { success: true as const, data, message: MESSAGES.listed };
    },
  );

  app.get(
    '/terminals/customers/:customerUuid/terminals/page',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: "One page of the customer's live terminals, by service line, and how many there are (the Assign Terminals dialog shows the first)",
        params: customerParamsSchema,
        querystring: assignedTerminalsPageQuerySchema,
        response: { 200: successSchema(assignedTerminalsPageSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await service().assignedPage(request.params.customerUuid, request.query);
      return { success: true as const, data, message: MESSAGES.listed };
    },
  );

  app.get(
    '/terminals/customers/:customerUuid/usage',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary:
          "Each live terminal of the customer with one billing cycle: the one that started within billing_cycle_start..end, else the latest overlapping start_date..end_date, else today's",
        params: customerParamsSchema,
        querystring: customerUsageQuerySchema,
        response: { 200: successSchema(terminalUsageRecordsSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await service().usage(request.params.customerUuid, request.query);
      return { success: true as const, data, message: MESSAGES.usage };
    },
  );

  app.get(
    '/terminals/customers/:customerUuid/usage/page',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary:
          "One page of the customer's usage table (the month's cycle picked as /usage does): searched over service line, terminal, location, plan and type, filtered by status, sorted by service line, usage, remaining or overage; the summary counts every live terminal of the customer",
        params: customerParamsSchema,
        querystring: customerUsagePageQuerySchema,
        response: { 200: successSchema(customerUsagePageSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await service().usagePage(request.params.customerUuid, request.query);
      return { success: true as const, data, message: MESSAGES.usage };
    },
  );

  app.get(
    '/terminals/customers/:customerUuid/usage/daily',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: "Priority and standard GB per day of start_date..end_date (zeros included), over the customer's service lines",
        params: customerParamsSchema,
        querystring: dailyUsageQuerySchema,
        response: { 200: successSchema(customerDailyUsageSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await service().dailyUsage(request.params.customerUuid, request.query);
      return { success: true as const, data, message: MESSAGES.daily };
    },
  );

  app.get(
    '/usage/service-line/:sl',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags: ['usage'],
        security,
        summary: "A service line's stored billing cycles and daily records, newest first, with totals over the records answered",
        params: lineParamsSchema,
        querystring: lineHistoryQuerySchema,
        response: { 200: successSchema(serviceLineUsageHistorySchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await service().serviceLineHistory(request.params.sl, request.query);
      return { success: true as const, data, message: MESSAGES.history };
    },
  );
};
