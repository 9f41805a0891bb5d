// Telemetry over time and the fleet map, for administrators: a terminal's history for a chart
// (GET /terminals/{id}/telemetry) and every live terminal's place and condition
// (GET /fleet/map). The customer's own history is under /my (my-terminals.ts) and the preview.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { terminalParamsSchema } from './terminals-schemas';
import { failures, successSchema } from './schemas';
import { fleetMapQuerySchema, fleetMapSchema, telemetryHistoryQuerySchema, telemetryHistorySchema } from './telemetry-history-schemas';

const security = [{ bearerAuth: [] }];
const gzipped = promisify(gzip);

/**
 * The whole fleet's map is megabytes of JSON (100,000 ids and coordinates); gzip makes it about a
 * third, for the clients that ask (every browser does). Only this answer is big enough to be worth it.
 */
export async function compressWhenAsked(request: { headers: Record<string, string | string[] | undefined> }, reply: { header(name: string, value: string): unknown }, payload: unknown) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  if (typeof payload !== 'string' || payload.length < 32_768 || !/\bgzip\b/.test(accepts)) return payload;
  reply.header('content-encoding', 'gzip');
  reply.header('vary', 'accept-encoding');
  return gzipped(payload, { level: 6 });
}

export const TELEMETRY_ROUTE_MESSAGES = {
  history: 'Telemetry history retrieved successfully',
  map: 'Fleet map retrieved successfully',
} as const;

export const telemetryHistoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const history = () => app.services.telemetryHistory;

  app.get(
    '/terminals/:id/telemetry',
    {
      config: { auth: 'terminals:read' },
      schema: {
        tags: ['terminals'],
        security,
        summary:
          "One terminal's telemetry history: range 24h (each reading), 7d or 30d (hourly averages), 13m (daily), or from and to; with its outages. 400 when the range lies outside the kept history",
        params: terminalParamsSchema,
        querystring: telemetryHistoryQuerySchema,
        response: { 200: successSchema(telemetryHistorySchema), ...failures(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await history().history(request.params.id, request.query),
      message: TELEMETRY_ROUTE_MESSAGES.history,
    }),
  );

  app.get(
    '/fleet/map',
    {
      config: { auth: 'terminals:read' },
      onSend: async (request, reply, payload) => compressWhenAsked(request, reply, payload),
      schema: {
        tags: ['terminals'],
        security,
        summary: 'Every live terminal the filter matches, placed by its service address, with its condition; those without a location counted and listed apart',
        querystring: fleetMapQuerySchema,
        response: { 200: successSchema(fleetMapSchema), ...failures(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await history().map({ customerId: request.query.customer_id, status: request.query.status, accountId: request.query.account_id }),
      message: TELEMETRY_ROUTE_MESSAGES.map,
    }),
  );
};
