// The background sync for administrators: start an inventory run, follow one, see the queue and
// the provider call budget the schedule is sized to, and refresh a single terminal from the
// provider. (The sync counts, GET /terminals/sync/stats, are served with the inventory in terminals.ts.)
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { principalOf } from '../plugins/auth';
import { auditContext } from '../services/audit';
import { TERMINAL_SYNC_MESSAGES } from '../services/terminal-sync';
import { failures, successSchema } from './schemas';
import { refreshResultSchema, syncAccountQuerySchema, syncBudgetSchema, syncJobParamsSchema, syncQueueSchema } from './terminal-sync-schemas';
import { syncJobSchema, terminalParamsSchema } from './terminals-schemas';

const tags = ['terminals'];
const security = [{ bearerAuth: [] }];

export const terminalSyncRoutes: FastifyPluginAsyncZod = async (app) => {
  const sync = () => app.services.terminalSync;

  app.post(
    '/terminals/sync',
    {
      config: { auth: 'terminals:manage' },
      schema: {
        tags,
        security,
        summary: 'Start a terminal inventory sync from the provider in the background (409 while one is queued or running)',
        response: { 202: successSchema(syncJobSchema), ...failures(401, 403, 409, 503) },
      },
    },
    async (request, reply) => {
      const data = await sync().startSync({ trigger: 'manual', requestedBy: principalOf(request).id }, auditContext(request));
      return reply.code(202).send({ success: true as const, data, message: TERMINAL_SYNC_MESSAGES.started });
    },
  );

  app.get(
    '/terminals/sync/job/:id',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: 'One sync run: status, phase, progress, counts, provider calls, and why it failed',
        params: syncJobParamsSchema,
        response: { 200: successSchema(syncJobSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await sync().getJob(request.params.id);
      return { success: true as const, data, message: 'Sync job retrieved successfully' };
    },
  );

  app.get(
    '/terminals/sync/queue',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: "The inventory sync queued or running now, and the most recent runs of every kind, each naming its provider account (one account's with account_id)",
        querystring: syncAccountQuerySchema,
        response: { 200: successSchema(syncQueueSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const data = await sync().queue(request.query.account_id ?? null);
      return { success: true as const, data, message: 'Sync queue retrieved successfully' };
    },
  );

  app.get(
    '/terminals/sync/budget',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary:
          "One provider account's call budget (account_id; the first account's by default): its limit and sync share, when the next inventory and usage syncs are due, the duration and calls of the last run of each kind, and calls per minute over the last hour (syncs and people)",
        querystring: syncAccountQuerySchema,
        response: { 200: successSchema(syncBudgetSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      // One account's budget: the one asked for, else the first enabled account.
      const data = await app.services.syncBudget.report(request.query.account_id);
      return { success: true as const, data, message: 'Sync budget retrieved successfully' };
    },
  );

  app.post(
    '/terminals/:id/refresh',
    {
      config: { auth: 'terminals:manage' },
      schema: {
        tags,
        security,
        summary: 'Read one terminal again from the provider (line, plan, address, telemetry) and update its row',
        params: terminalParamsSchema,
        response: { 200: successSchema(refreshResultSchema), ...failures(401, 403, 404, 502, 503, 504) },
      },
    },
    async (request) => {
      const data = await sync().refreshTerminal(request.params.id, auditContext(request));
      return { success: true as const, data, message: TERMINAL_SYNC_MESSAGES.refreshed };
    },
  );
};
