// Reconciliation: the board of a cycle — the provider's cost against what the statements bill,
// and every leak with its fixes — read under billing:read; fixing a leak and importing the
// provider's invoices need billing:manage.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BILLING_MESSAGES as M } from '../../../src/domain/billing';
import { auditContext } from '../../services/audit';
import { fixBodySchema, fixResultSchema, importResultSchema, reconciliationQuerySchema, reconciliationSchema } from './reconciliation-schemas';
import { failures, successSchema } from '../schemas';

const security = [{ bearerAuth: [] }];
const tags = ['billing'];

export const reconciliationRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.reconciliation;

  app.get(
    '/billing/reconciliation',
    {
      config: { auth: 'billing:read' },
      schema: {
        tags,
        security,
        summary: "One provider account's reconciliation board of a cycle, in the account's currency (the running cycle and the first account by default): the provider's cost, what the statements bill, the margin, and every leak with the amount at stake and its fixes",
        querystring: reconciliationQuerySchema,
        response: { 200: successSchema(reconciliationSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await service().board(request.query.cycle ?? null, request.query.account_id ?? null), message: 'Reconciliation board' }),
  );

  app.post(
    '/billing/reconciliation/fix',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: 'Applies one of a leak\u2019s fixes (cancel the line at cycle end, bill the top-ups, end the customer\u2019s price, raise the list price, dispute, mark checked) and records it',
        body: fixBodySchema,
        response: { 200: successSchema(fixResultSchema), ...failures(400, 401, 403, 404, 409, 415, 502, 503, 504) },
      },
    },
    async (request) => ({ success: true as const, data: await service().fix(request.body, auditContext(request)), message: M.leakFixed }),
  );

  app.post(
    '/billing/invoices/import',
    {
      config: { auth: 'billing:manage' },
      schema: {
        tags,
        security,
        summary: "Imports the provider's invoices not imported yet, and refreshes the status of those that are",
        response: { 200: successSchema(importResultSchema), ...failures(401, 403, 502, 503, 504) },
      },
    },
    async (request) => ({ success: true as const, data: await service().importInvoices(auditContext(request)), message: 'Invoices imported' }),
  );
};
