// Customer sign-in and profile: POST /customers/auth/login, GET /customers/auth/me.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../plugins/auth';
import { credentialsSchema, customerProfileSchema, failures, successSchema } from './schemas';

export const customerAuthRoutes: FastifyPluginAsyncZod = async (app) => {
  // Same store as the admin login's limiter: one budget per IP over both login routes.
  const loginRateLimit = app.rateLimit();

  app.post(
    '/customers/auth/login',
    {
      config: { auth: 'public' },
      onRequest: loginRateLimit,
      schema: {
        tags: ['customer auth'],
        summary: 'Sign in as a customer',
        body: credentialsSchema,
        response: {
          200: successSchema(z.object({ customer: customerProfileSchema, token: z.string() })),
          ...failures(401, 403, 413, 415, 423, 429),
        },
      },
    },
    async (request) => {
      const data = await app.services.auth.loginCustomer(request.body, { ip: request.ip, requestId: String(request.id) });
      return { success: true as const, data, message: 'Login successful' };
    },
  );

  app.get(
    '/customers/auth/me',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['customer auth'],
        summary: 'The signed-in customer',
        security: [{ bearerAuth: [] }],
        response: {
          200: successSchema(z.object({ customer: customerProfileSchema })),
          ...failures(401, 403),
        },
      },
    },
    async (request) => {
      const customer = await app.services.auth.currentCustomer(principalOf(request));
      return { success: true as const, data: { customer }, message: 'Customer information retrieved successfully' };
    },
  );
};
