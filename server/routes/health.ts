import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failures, successSchema } from './schemas';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['system'],
        summary: 'Liveness check',
        response: { 200: successSchema(z.object({ status: z.literal('ok') })), ...failures() },
      },
    },
    async () => ({ success: true as const, data: { status: 'ok' as const }, message: 'OK' }),
  );
};
