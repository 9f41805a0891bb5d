// Statements: the statements pages and their CSV export (billing:read), "refresh now" and closing
// an ended cycle (billing:manage), a customer's statements on their page, and the
// customer's own statements (/my/statements, and the admin's read-only preview of them).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditContext } from '../../services/audit';
import { principalOf } from '../../plugins/auth';
import { customerScopeOf } from '../../services/customer-scope';
import { sendCsv } from '../csv';
import { customerParamsSchema } from '../customers-schemas';
import { failures, successSchema } from '../schemas';
import {
  closeReportSchema,
  cycleParamsSchema,
  refreshReportSchema,
  statementExportQuerySchema,
  statementListQuerySchema,
  statementListSchema,
  statementParamsSchema,
  statementSchema,
  statementSummarySchema,
} from './statements-schemas';

const security = [{ bearerAuth: [] }];
const tags = ['billing'];

export const STATEMENT_ROUTE_MESSAGES = {
  listed: 'Statements listed',
  one: 'Statement',
  refreshed: 'Statements refreshed',
  closed: (cycle: string) => `Cycle ${cycle} closed`,
  mine: 'Your statements',
} as const;
const R = STATEMENT_ROUTE_MESSAGES;

export const statementRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.statements;

  app.get(
    '/billing/statements',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: 'Statements, newest cycle first, filtered by cycle, status, customer and a search (customer name, email, number); with totals per currency and the cycles',
        querystring: statementListQuerySchema,
        response: { 200: successSchema(statementListSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const q = request.query;
      const data = await service().list({ cycle: q.cycle ?? null, status: q.status ?? null, customer: q.customer ?? null, search: q.search ?? null, page: q.page, limit: q.limit });
      return { success: true as const, data, message: R.listed };
    },
  );

  app.get(
    '/billing/statements/export.csv',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: "One cycle's statements as CSV, a row per statement line, amounts in major units (streamed)",
        querystring: statementExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const rows = service().exportCsv({ cycle: q.cycle, status: q.status ?? null, customer: q.customer ?? null, search: q.search ?? null });
      return sendCsv(reply, `statements-${q.cycle}.csv`, rows);
    },
  );

  app.get(
    '/billing/statements/:id',
    {
      config: { auth: 'billing:read' },
      schema: { tags, security, summary: 'A statement with its lines', params: statementParamsSchema, response: { 200: successSchema(statementSchema), ...failures(401, 403, 404) } },
    },
    async (request) => ({ success: true as const, data: await service().get(request.params.id), message: R.one }),
  );

  app.post(
    '/billing/statements/refresh',
    {
      config: { auth: 'billing:manage' },
      schema: { tags, security, summary: "Works the current cycle's draft statements out again now", response: { 200: successSchema(refreshReportSchema), ...failures(401, 403) } },
    },
    async (request) => ({ success: true as const, data: await service().refreshNow(auditContext(request)), message: R.refreshed }),
  );

  app.post(
    '/billing/cycles/:cycle/close',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: "Closes an ended cycle now: its drafts numbered and final, the corrections they carry applied",
        params: cycleParamsSchema,
        response: { 200: successSchema(closeReportSchema), ...failures(401, 403, 409) },
      },
    },
    async (request) => {
      const data = await service().close(request.params.cycle, auditContext(request));
      return { success: true as const, data, message: R.closed(data.cycle) };
    },
  );

  app.get(
    '/customers/:uuid/statements',
    {
      config: { auth: 'billing:read' },
      schema: { tags, security, summary: "A customer's statements, newest cycle first", params: customerParamsSchema, response: { 200: successSchema(z.array(statementSummarySchema)), ...failures(401, 403, 404) } },
    },
    async (request) => ({ success: true as const, data: await service().ofCustomer(request.params.uuid), message: R.listed }),
  );

  app.get(
    '/my/statements',
    {
      config: { auth: 'customer' },
      schema: { tags: ['customer area'], security, summary: "The signed-in customer's statements, newest cycle first", response: { 200: successSchema(z.array(statementSummarySchema)), ...failures(401, 403) } },
    },
    async (request) => ({ success: true as const, data: await service().mine(customerScopeOf(principalOf(request))), message: R.mine }),
  );

  app.get(
    '/my/statements/:id',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer area'],
        security,
        summary: "One of the signed-in customer's statements (another's is not found)",
        params: statementParamsSchema,
        response: { 200: successSchema(statementSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await service().mineOne(customerScopeOf(principalOf(request)), request.params.id), message: R.one }),
  );

  app.get(
    '/customers/:uuid/preview/statements',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags: ['customer preview'],
        security,
        summary: "The customer's statements, as GET /my/statements answers them",
        params: customerParamsSchema,
        response: { 200: successSchema(z.array(statementSummarySchema)), ...failures(401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await service().preview(request.params.uuid), message: R.mine }),
  );

  app.get(
    '/customers/:uuid/preview/statements/:id',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags: ['customer preview'],
        security,
        summary: "One of the customer's statements, as GET /my/statements/{id} answers it",
        params: customerParamsSchema.extend(statementParamsSchema.shape),
        response: { 200: successSchema(statementSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await service().previewOne(request.params.uuid, request.params.id), message: R.one }),
  );
};
