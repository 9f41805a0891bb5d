// The CSV export of each list page: beside each list route, `export.csv` takes the same
// query without the paging, declares the same access, and streams every row the list's own read
// gives for it (server/services/list-exports.ts). Each path is static, and find-my-way prefers a
// static segment to a parameter, so `/customers/export.csv` never reaches `/customers/:uuid`.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { alertListQuerySchema } from './alerts-schemas';
import { sendCsv } from './csv';
import { customerParamsSchema as usageCustomerParamsSchema, customerUsageExportQuerySchema } from './customer-terminals-schemas';
import { customerListQuerySchema } from './customers-schemas';
import { failures } from './schemas';
import { subscriptionListQuerySchema } from './subscriptions-schemas';
import { terminalListQuerySchema } from './terminals-schemas';
import { userListQuerySchema } from './users-schemas';

const security = [{ bearerAuth: [] }];
const paging = { page: true, limit: true } as const;
const csv = { produces: ['text/csv'], security };
// A stream is sent as it is read, never serialised: the 200 schema only documents the text.
const file = z.string().describe('CSV (RFC 4180, UTF-8, CRLF rows): a header row, then a row per list row');

export const listExportRoutes: FastifyPluginAsyncZod = async (app) => {
  const exports = () => app.services.listExports;

  app.get(
    '/customers/export.csv',
    {
      config: { auth: 'customers:read' },
      schema: {
        ...csv,
        tags: ['customers'],
        summary: 'Every customer the list would show for this search and status filter, as CSV (streamed)',
        querystring: customerListQuerySchema.omit(paging),
        response: { 200: file, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const { search, is_active, status } = request.query;
      const { filename, lines } = await exports().customers({ search, isActive: is_active, status });
      return sendCsv(reply, filename, lines);
    },
  );

  app.get(
    '/terminals/export.csv',
    {
      config: { auth: 'terminals:read' },
      schema: {
        ...csv,
        tags: ['terminals'],
        summary: 'Every live terminal the list would show for this search, filters and sort, as CSV (streamed)',
        querystring: terminalListQuerySchema.omit(paging),
        response: { 200: file, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const { sort, search, active, assigned, sync_status, account_id } = request.query;
      const { filename, lines } = await exports().terminals({ sort, search, active, assigned, syncStatus: sync_status, accountId: account_id });
      return sendCsv(reply, filename, lines);
    },
  );

  app.get(
    '/subscriptions/export.csv',
    {
      config: { auth: 'subscriptions:read' },
      schema: {
        ...csv,
        tags: ['subscriptions'],
        summary: 'Every subscription the list would show for this search and filters, in its order, as CSV (streamed)',
        querystring: subscriptionListQuerySchema.omit(paging),
        response: { 200: file, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const { over_plan: overPlan, account_id: accountId, ...query } = request.query;
      const { filename, lines } = await exports().subscriptions({ ...query, overPlan, accountId });
      return sendCsv(reply, filename, lines);
    },
  );

  app.get(
    '/users/export.csv',
    {
      config: { auth: 'users:read' },
      schema: {
        ...csv,
        tags: ['users'],
        summary: 'Every portal user the list would show for this search and filters, as CSV (streamed)',
        querystring: userListQuerySchema.omit(paging),
        response: { 200: file, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const { search, is_active, include_deleted } = request.query;
      const { filename, lines } = await exports().users({ search, isActive: is_active, includeDeleted: include_deleted });
      return sendCsv(reply, filename, lines);
    },
  );

  app.get(
    '/terminals/customers/:customerUuid/usage/export.csv',
    {
      config: { auth: 'terminals:read' },
      schema: {
        ...csv,
        tags: ['customer terminals'],
        summary: "Every row of the customer's usage table for this month, search, status filter and sort, as CSV (streamed)",
        params: usageCustomerParamsSchema,
        querystring: customerUsageExportQuerySchema,
        response: { 200: file, ...failures(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { filename, lines } = await exports().customerUsage(request.params.customerUuid, request.query);
      return sendCsv(reply, filename, lines);
    },
  );

  app.get(
    '/alerts/export.csv',
    {
      config: { auth: 'alerts:read' },
      schema: {
        ...csv,
        tags: ['alerts'],
        summary: 'Every alert the list would show for this status, kind, severity, customer and search, as CSV (streamed)',
        querystring: alertListQuerySchema.omit(paging),
        response: { 200: file, ...failures(401, 403) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const { filename, lines } = await exports().alerts({ ...q, customer: q.customer ?? null, search: q.search ?? null });
      return sendCsv(reply, filename, lines);
    },
  );
};
