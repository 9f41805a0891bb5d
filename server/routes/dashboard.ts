import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { dashboardSummarySchema, failures, successSchema } from './schemas';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dashboard/summary',
    {
      config: { auth: 'staff' },
      schema: {
        tags: ['dashboard'],
        summary: 'Live figures and recent activity for the dashboard',
        security: [{ bearerAuth: [] }],
        response: { 200: successSchema(dashboardSummarySchema), ...failures(401, 403) },
      },
    },
    async () => {
      const data = await app.services.dashboard.summary();
      return { success: true as const, data, message: 'Dashboard summary retrieved successfully' };
    },
  );
};
