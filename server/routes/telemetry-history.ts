// Telemetry over time and the fleet map, for administrators: a terminal's history for a chart
// (GET /terminals/{id}/telemetry) and every live terminal's place and condition
// (GET /fleet/map). The customer's own history is under /my (my-terminals.ts) and the preview.
import { promisify } from 'node:util';
import { gzip as zlibGzip } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FleetMapAnswer } from '../services/telemetry-history';
import { failures, successSchema } from './schemas';
import { terminalParamsSchema } from './terminals-schemas';
import { fleetMapQuerySchema, fleetMapSchema, telemetryHistoryQuerySchema, telemetryHistorySchema } from './telemetry-history-schemas';

const security = [{ bearerAuth: [] }];
const gzip = promisify(zlibGzip);

export const TELEMETRY_ROUTE_MESSAGES = {
  history: 'Telemetry history retrieved successfully',
  map: 'Fleet map retrieved successfully',
} as const;

/** Below this an answer goes out as it is: gzip would save less than it costs (only a whole fleet's map is bigger). */
const GZIP_FROM_CHARACTERS = 32_768;

/** Whether the client takes a gzipped answer (every browser does). */
export const acceptsGzip = (headers: Record<string, string | string[] | undefined>) => /\bgzip\b/.test(String(headers['accept-encoding'] ?? ''));

/**
 * The map's answer as sent, made once per answer the service keeps: the envelope every answer has
 * around the JSON the database wrote, and its gzip (a whole fleet's map is megabytes of ids and
 * coordinates; gzip makes it about a quarter), made on the first request that asks for it.
 */
const sent = new WeakMap<FleetMapAnswer, { body: string; gzipped?: Promise<Buffer> }>();

export function mapBody(answer: FleetMapAnswer, gzipped: boolean): string | Promise<Buffer> {
  let made = sent.get(answer);
  if (!made) {
    made = { body: `{"success":true,"data":${answer.json},"message":${JSON.stringify(TELEMETRY_ROUTE_MESSAGES.map)}}` };
    sent.set(answer, made);
  }
  if (!gzipped) return made.body;
  // Level 1: a fifth of level 6's time on a whole fleet's answer (about 30 ms against 150), for a
  // tenth more bytes (1.0 MB against 0.9).
  made.gzipped ??= gzip(made.body, { level: 1 });
  return made.gzipped;
}

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
      schema: {
        tags: ['terminals'],
        security,
        summary: 'Every live terminal the filter matches, placed by its service address, with its condition; those without a location counted and listed apart',
        querystring: fleetMapQuerySchema,
        response: { 200: successSchema(fleetMapSchema), ...failures(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const answer = await history().map({ customerId: request.query.customer_id, status: request.query.status, accountId: request.query.account_id });
      // The database wrote the answer's JSON (the service says why): it goes out as it is, and the
      // response schema above still documents it.
      const gzipped = acceptsGzip(request.headers) && answer.json.length >= GZIP_FROM_CHARACTERS;
      const untyped = (reply as FastifyReply).type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      if (gzipped) untyped.header('content-encoding', 'gzip');
      return untyped.send(await mapBody(answer, gzipped));
    },
  );
};
