// The terminal inventory for administrators, answered from the local database: the list and the
// unassigned terminals, the fleet summary and sync counts, one terminal, assigning it to a
// customer, reporting an issue, and a service line's usage. (Starting and watching a sync:
// terminal-sync.ts.) Static paths (/health, /available, /sync/stats) win over /{id} because
// find-my-way prefers a static segment to a parameter.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditContext } from '../services/audit';
import { TERMINAL_SERVER_MESSAGES as MESSAGES } from '../services/terminals';
import { failures, successSchema } from './schemas';
import {
  assignBodySchema,
  availableQuerySchema,
  fleetHealthSchema,
  issueReportedSchema,
  reportIssueBodySchema,
  serviceLineParamsSchema,
  serviceLineUsageSchema,
  syncStatsSchema,
  terminalDetailSchema,
  terminalListQuerySchema,
  terminalPageSchema,
  terminalParamsSchema,
  usageQuerySchema,
} from './terminals-schemas';

const tags = ['terminals'];
const security = [{ bearerAuth: [] }];

export const terminalRoutes: FastifyPluginAsyncZod = async (app) => {
  const terminals = () => app.services.terminals;

  app.get(
    '/terminals',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: 'One page of live terminals with search (ids, serials, service line, customer id or name), filters and sort',
        querystring: terminalListQuerySchema,
        response: { 200: successSchema(terminalPageSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      // `sync` is accepted and ignored (see terminalListQuerySchema): the list is always local.
      const { page, limit, sort, search, active, assigned, sync_status, account_id } = request.query;
      const data = await terminals().list({ page, limit, sort, search, active, assigned, syncStatus: sync_status, accountId: account_id });
      return { success: true as const, data, message: MESSAGES.listed };
    },
  );

  app.get(
    '/terminals/available',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: 'One page of live terminals assigned to no customer (same query as the list, without assigned)',
        querystring: availableQuerySchema,
        response: { 200: successSchema(terminalPageSchema), ...failures(401, 403) },
      },
    },
    async (request) => {
      const { page, limit, sort, search, active, sync_status, account_id } = request.query;
      const data = await terminals().available({ page, limit, sort, search, active, syncStatus: sync_status, accountId: account_id });
      return { success: true as const, data, message: MESSAGES.available };
    },
  );

  app.get(
    '/terminals/health',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: 'The summary cards over the whole live inventory: counts, signal, uptime, usage, sync',
        response: { 200: successSchema(fleetHealthSchema), ...failures(401, 403) },
      },
    },
    async () => {
      const data = await terminals().health();
      return { success: true as const, data, message: MESSAGES.health };
    },
  );

  app.get(
    '/terminals/sync/stats',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: 'How many live terminals are synced, pending and in error',
        response: { 200: successSchema(syncStatsSchema), ...failures(401, 403) },
      },
    },
    async () => {
      const data = await terminals().syncStats();
      return { success: true as const, data, message: MESSAGES.syncStats };
    },
  );

  app.get(
    '/terminals/service-line/:sl/usage',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: "A service line's billing-cycle usage: the current cycle, or the one that started in year/month",
        params: serviceLineParamsSchema,
        querystring: usageQuerySchema,
        response: { 200: successSchema(serviceLineUsageSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const { year, month } = request.query;
      const period = year !== undefined && month !== undefined ? { year, month } : null;
      const data = await terminals().serviceLineUsage(request.params.sl, period);
      return { success: true as const, data, message: MESSAGES.usage };
    },
  );

  app.get(
    '/terminals/:id',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags,
        security,
        summary: 'One terminal by user terminal id, with owner, line, address and telemetry (removed ones too)',
        params: terminalParamsSchema,
        response: { 200: successSchema(terminalDetailSchema), ...failures(401, 403, 404) },
      },
    },
    async (request) => {
      const data = await terminals().get(request.params.id);
      return { success: true as const, data, message: MESSAGES.detail };
    },
  );

  app.post(
    '/terminals/:id/assign',
    {
      config: { auth: 'terminals:manage' },
      schema: {
        tags,
        security,
        summary: 'Assign a live terminal to a customer who is not blocked or expired (idempotent for the same customer)',
        params: terminalParamsSchema,
        body: assignBodySchema,
        response: { 200: successSchema(terminalDetailSchema), ...failures(401, 403, 404, 409, 413, 415) },
      },
    },
    async (request) => {
      const { customerId, customerName } = request.body;
      const { terminal, message } = await terminals().assign(request.params.id, { customerId, customerName }, auditContext(request));
      return { success: true as const, data: terminal, message };
    },
  );

  app.post(
    '/terminals/:id/report-issue',
    {
      config: { auth: 'terminals:manage' },
      schema: {
        tags,
        security,
        summary: "Record an issue with a terminal in the activity log",
        params: terminalParamsSchema,
        body: reportIssueBodySchema,
        response: { 200: successSchema(issueReportedSchema), ...failures(401, 403, 404, 413, 415) },
      },
    },
    async (request) => {
      const data = await terminals().reportIssue(request.params.id, request.body.note, auditContext(request));
      return { success: true as const, data, message: MESSAGES.issueReported };
    },
  );
};
