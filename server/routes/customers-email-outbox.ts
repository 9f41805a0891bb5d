// GET /email-outbox: what the server has emailed (customers' password-setup links among it), so
// portal users with customers:manage can see what was sent and whether it left (manage, not read:
// it holds live password links).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outboxMessageSchema, outboxQuerySchema } from './customers-schemas';
import { failures, successSchema } from './schemas';

export const emailOutboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/email-outbox',
    {
      config: { auth: 'customers:manage' },
      schema: {
        tags: ['email'],
        security: [{ bearerAuth: [] }],
        summary: 'The most recent outgoing emails, newest first, optionally to one address',
        querystring: outboxQuerySchema,
        response: { 200: successSchema(z.object({ messages: z.array(outboxMessageSchema) })), ...failures(401, 403) },
      },
    },
    async (request) => {
      const messages = await app.services.emailOutbox.list({ to: request.query.to ?? null, limit: request.query.limit });
      return { success: true as const, data: { messages }, message: 'Email outbox retrieved successfully' };
    },
  );
};
