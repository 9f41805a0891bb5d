// Bulk actions: preview an operator's CSV, start the run as a job, follow its progress and read
// (or export) its per-row results. Running one needs bulk:manage and what the single-row action
// it repeats needs (BULK_KIND_PERMISSION).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BULK_KIND_PERMISSION, BULK_MESSAGES } from '../../src/domain/bulk';
import { requireAccess } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { sendCsv } from './csv';
import {
  BULK_BODY_LIMIT_BYTES,
  bulkBodySchema,
  bulkExportQuerySchema,
  bulkOperationSchema,
  bulkParamsSchema,
  bulkPreviewSchema,
  bulkRowsPageSchema,
  bulkRowsQuerySchema,
} from './bulk-schemas';
import { failures, successSchema } from './schemas';

const security = [{ bearerAuth: [] }];
const tags = ['bulk'];

export const bulkRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.bulk;

  app.post(
    '/bulk/preview',
    {
      config: { auth: 'bulk:manage' },
      bodyLimit: BULK_BODY_LIMIT_BYTES,
      schema: {
        tags,
        security,
        summary: 'What each row of a CSV would do for an action, or why it cannot run; nothing changes',
        body: bulkBodySchema,
        response: { 200: successSchema(bulkPreviewSchema), ...failures(400, 401, 403, 413) },
      },
    },
    async (request) => {
      requireAccess(request, BULK_KIND_PERMISSION[request.body.kind]);
      return { success: true as const, data: await service().preview(request.body.kind, request.body.csv), message: BULK_MESSAGES.previewed };
    },
  );

  app.post(
    '/bulk',
    {
      config: { auth: 'bulk:manage' },
      bodyLimit: BULK_BODY_LIMIT_BYTES,
      schema: {
        tags,
        security,
        summary: 'Starts an action over the rows of a CSV as a job; rows with a problem are skipped with it',
        body: bulkBodySchema,
        response: { 202: successSchema(z.object({ operation: bulkOperationSchema })), ...failures(400, 401, 403, 413) },
      },
    },
    async (request, reply) => {
      requireAccess(request, BULK_KIND_PERMISSION[request.body.kind]);
      const { operation, message } = await service().start(request.body.kind, request.body.csv, auditContext(request));
      return reply.code(202).send({ success: true as const, data: { operation }, message });
    },
  );

  app.get(
    '/bulk',
    {
      config: { auth: 'bulk:read' },
      schema: { tags, security, summary: 'The latest bulk actions, newest first', response: { 200: successSchema(z.array(bulkOperationSchema)), ...failures(401, 403) } },
    },
    async () => ({ success: true as const, data: await service().list(), message: BULK_MESSAGES.listed }),
  );

  app.get(
    '/bulk/:id',
    {
      config: { auth: 'bulk:read' },
      schema: { tags, security, summary: "A bulk action's progress", params: bulkParamsSchema, response: { 200: successSchema(bulkOperationSchema), ...failures(400, 401, 403, 404) } },
    },
    async (request) => ({ success: true as const, data: await service().get(request.params.id), message: BULK_MESSAGES.loaded }),
  );

  app.get(
    '/bulk/:id/rows',
    {
      config: { auth: 'bulk:read' },
      schema: {
        tags,
        security,
        summary: "One page of a bulk action's rows in file order, with their outcome; optionally of one status",
        params: bulkParamsSchema,
        querystring: bulkRowsQuerySchema,
        response: { 200: successSchema(bulkRowsPageSchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { page, limit, status } = request.query;
      return { success: true as const, data: await service().rows(request.params.id, { page, limit, status: status ?? null }), message: BULK_MESSAGES.loaded };
    },
  );

  app.get(
    '/bulk/:id/rows/export.csv',
    {
      config: { auth: 'bulk:read' },
      schema: {
        tags,
        security,
        summary: "A bulk action's rows and outcomes as CSV (streamed)",
        params: bulkParamsSchema,
        querystring: bulkExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...failures(400, 401, 403, 404) },
      },
    },
    async (request, reply) => sendCsv(reply, `bulk-${request.params.id.slice(0, 8)}-results.csv`, await service().exportCsv(request.params.id, request.query.status ?? null)),
  );
};
