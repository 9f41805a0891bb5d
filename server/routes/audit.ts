// The audit log: every audited action by actor, action, target and day, and the same filter as
// CSV. audit:read only: the log holds every other portal user's actions too.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AUDIT_MESSAGES } from '../../src/domain/audit';
import { sendCsv } from './csv';
import { auditExportQuerySchema, auditListQuerySchema, auditListSchema } from './audit-schemas';
import { failures, successSchema } from './schemas';

const security = [{ bearerAuth: [] }];
const tags = ['audit'];

export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const service = () => app.services.auditLog;

  app.get(
    '/audit',
    {
      config: { auth: 'audit:read' },
      schema: {
        tags,
        security,
        summary: 'Audited actions, newest first, filtered by actor, actor kind, actions, target and UTC days; secrets redacted',
        querystring: auditListQuerySchema,
        response: { 200: successSchema(auditListSchema), ...failures(401, 403) },
      },
    },
    async (request) => ({ success: true as const, data: await service().list(request.query), message: AUDIT_MESSAGES.listed }),
  );

  app.get(
    '/audit/export.csv',
    {
      config: { auth: 'audit:read' },
      schema: {
        tags,
        security,
        summary: 'The same filter as CSV, every page, newest first (streamed)',
        querystring: auditExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.string(), ...failures(401, 403) },
      },
    },
    async (request, reply) => sendCsv(reply, `audit-log-${new Date().toISOString().slice(0, 10)}.csv`, service().exportCsv(request.query)),
  );
};
