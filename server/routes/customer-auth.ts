// Customer sign-in and profile: POST /customers/auth/login, POST /customers/auth/login/mfa (the
// code step of customers with MFA on), GET /customers/auth/me.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { principalOf } from '../plugins/auth';
import { mfaLoginBodySchema, mfaRequiredSchema } from './mfa';
import { credentialsSchema, customerProfileSchema, failures, successSchema } from './schemas';

const loginDataSchema = z.object({ customer: customerProfileSchema, token: z.string() });
// As POST /auth/login: one object, exactly one pair present (customer + token, or mfaRequired + challenge).
const loginOrCodeRequiredSchema = loginDataSchema.partial().extend(mfaRequiredSchema.partial().shape);

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
        description: 'With multi-factor authentication on, a right password answers `{ mfaRequired: true, challenge }` and no token: send the challenge and a code to POST /customers/auth/login/mfa.',
        body: credentialsSchema,
        response: {
          200: successSchema(loginOrCodeRequiredSchema),
          ...failures(401, 403, 413, 415, 423, 429),
        },
      },
    },
    async (request) => {
      const data = await app.services.auth.loginCustomer(request.body, { ip: request.ip, requestId: String(request.id) });
      return { success: true as const, data, message: 'mfaRequired' in data ? MFA_MESSAGES.codeRequired : 'Login successful' };
    },
  );

  app.post(
    '/customers/auth/login/mfa',
    {
      config: { auth: 'public' },
      onRequest: loginRateLimit,
      schema: {
        tags: ['customer auth'],
        summary: 'Finish a customer sign-in with a current authenticator code or an unused backup code',
        description: 'Wrong codes count toward the account lockout like wrong passwords. An expired or invalid challenge (a portal user\'s included) answers 401: sign in again.',
        body: mfaLoginBodySchema,
        response: {
          200: successSchema(loginDataSchema),
          ...failures(401, 403, 413, 415, 423, 429),
        },
      },
    },
    async (request) => {
      const data = await app.services.auth.loginCustomerMfa(request.body, { ip: request.ip, requestId: String(request.id) });
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
