// The provider console: /api/v1/starlink-simulator/* (spec section 7 "Simulator"). Admin only.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failures, providerAccountParam, successSchema } from './schemas';
import {
  providerHealthSchema,
  searchResponseSchema,
  serviceLineDetailsSchema,
  serviceLineNumberSchema,
  usageRecordSchema,
  usageStatsSchema,
  userTerminalsResponseSchema,
} from './provider-console-schemas';

const day = z.iso.date({ error: 'Use a date like 2026-11-01' });
// Which provider account the console reads; absent: the first enabled one.
const accountQuery = z.object({ account_id: providerAccountParam });
const security = [{ bearerAuth: [] }];
const tags = ['provider console'];

export const providerConsoleRoutes: FastifyPluginAsyncZod = async (app) => {
  const consoleService = () => app.services.providerConsole;

  app.post(
    '/starlink-simulator/search',
    {
      config: { auth: 'provider:read' },
      schema: {
        tags,
        security,
        summary: 'Look a service line up at the provider: details, usage and the raw answers',
        body: z.object({ serviceLineNumber: serviceLineNumberSchema }),
        querystring: accountQuery,
        response: { 200: successSchema(searchResponseSchema), ...failures(400, 401, 403, 404, 409, 502, 504) },
      },
    },
    async (request) => {
      const data = await consoleService().search(request.body.serviceLineNumber, request.query.account_id);
      return {
        success: true as const,
        data,
        message: data.serviceLineFound ? 'Service line found' : 'Service line not found',
      };
    },
  );

  app.get(
    '/starlink-simulator/service-lines/:serviceLineNumber/details',
    {
      config: { auth: 'provider:read' },
      schema: {
        tags,
        security,
        summary: "A service line's details as the console shows them",
        params: z.object({ serviceLineNumber: serviceLineNumberSchema }),
        querystring: accountQuery,
        response: { 200: successSchema(serviceLineDetailsSchema), ...failures(400, 401, 403, 404, 409, 502, 504) },
      },
    },
    async (request) => {
      const data = await consoleService().serviceLineDetails(request.params.serviceLineNumber, request.query.account_id);
      return { success: true as const, data, message: 'Service line details retrieved successfully' };
    },
  );

  app.get(
    '/starlink-simulator/service-lines/:serviceLineNumber/usage',
    {
      config: { auth: 'provider:read' },
      schema: {
        tags,
        security,
        summary: "A service line's daily usage records",
        params: z.object({ serviceLineNumber: serviceLineNumberSchema }),
        querystring: z
          .object({
            start_date: day.optional(),
            end_date: day.optional(),
            limit: z.coerce.number().int().min(1).max(1000).optional(),
            account_id: providerAccountParam,
          })
          .refine((q) => !q.start_date || !q.end_date || q.start_date <= q.end_date, {
            message: 'start_date must not be after end_date',
            path: ['start_date'],
          }),
        response: {
          200: successSchema(
            z.object({ serviceLineNumber: z.string(), usageData: z.array(usageRecordSchema), usageStats: usageStatsSchema, lastUpdated: z.string().nullable() }),
          ),
          ...failures(400, 401, 403, 404, 409, 502, 504),
        },
      },
    },
    async (request) => {
      const { account_id, ...query } = request.query;
      const data = await consoleService().serviceLineUsage(request.params.serviceLineNumber, query, account_id);
      return { success: true as const, data, message: 'Service line usage retrieved successfully' };
    },
  );

  app.get(
    '/starlink-simulator/user-terminals',
    {
      config: { auth: 'provider:read' },
      schema: {
        tags,
        security,
        summary: 'Every user terminal of the provider account, with counts by status, region and model',
        querystring: accountQuery,
        response: { 200: successSchema(userTerminalsResponseSchema), ...failures(400, 401, 403, 404, 409, 502, 504) },
      },
    },
    async (request) => {
      const data = await consoleService().userTerminals(request.query.account_id);
      return { success: true as const, data, message: 'User terminals retrieved successfully' };
    },
  );

  app.get(
    '/starlink-simulator/health',
    {
      config: { auth: 'provider:read' },
      schema: {
        tags,
        security,
        summary: 'Connection test against the provider',
        querystring: accountQuery,
        response: { 200: successSchema(providerHealthSchema), ...failures(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const data = await consoleService().health(request.query.account_id);
      return { success: true as const, data, message: data.status === 'Down' ? 'Connection test failed' : 'Connection test succeeded' };
    },
  );
};
