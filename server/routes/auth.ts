// Admin-portal sign-in and profile: POST /auth/login, GET /auth/me.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../plugins/auth';
import { adminUserSchema, credentialsSchema, failures, successSchema } from './schemas';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const loginRateLimit = app.rateLimit();

  app.post(
    '/auth/login',
    {
      config: { auth: 'public' },
      onRequest: loginRateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Sign in as an admin-portal user',
        body: credentialsSchema,
        response: {
          200: successSchema(z.object({ user: adminUserSchema, token: z.string() })),
          ...failures(401, 403, 413, 415, 423, 429),
        },
      },
    },
    async (request) => {
      const data = await app.services.auth.loginAdmin(request.body, { ip: request.ip, requestId: String(request.id) });
      return { success: true as const, data, message: 'Login successful' };
    },
  );

  app.get(
    '/auth/me',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in admin-portal user',
        security: [{ bearerAuth: [] }],
        response: {
          200: successSchema(z.object({ user: adminUserSchema })),
          ...failures(401, 403),
        },
      },
    },
    async (request) => {
      const user = await app.services.auth.currentAdmin(principalOf(request));
      return { success: true as const, data: { user }, message: 'User retrieved successfully' };
    },
  );
};
