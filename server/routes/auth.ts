// Admin-portal sign-in and profile: POST /auth/login, POST /auth/login/mfa (the code step of
// accounts with MFA on), GET /auth/me.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { principalOf } from '../plugins/auth';
import { mfaLoginBodySchema, mfaRequiredSchema } from './mfa';
import { adminUserSchema, credentialsSchema, failures, successSchema } from './schemas';

const loginDataSchema = z.object({ user: adminUserSchema, token: z.string() });
// One object rather than a union (anyOf), so the documented `data.user` stays where readers of
// the document look for it; exactly one pair is present: user + token, or mfaRequired + challenge.
const loginOrCodeRequiredSchema = loginDataSchema.partial().extend(mfaRequiredSchema.partial().shape);

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
        description: 'With multi-factor authentication on, a right password answers `{ mfaRequired: true, challenge }` and no token: send the challenge and a code to POST /auth/login/mfa.',
        body: credentialsSchema,
        response: {
          200: successSchema(loginOrCodeRequiredSchema),
          ...failures(401, 403, 413, 415, 423, 429),
        },
      },
    },
    async (request) => {
      const data = await app.services.auth.loginAdmin(request.body, { ip: request.ip, requestId: String(request.id) });
      return { success: true as const, data, message: 'mfaRequired' in data ? MFA_MESSAGES.codeRequired : 'Login successful' };
    },
  );

  app.post(
    '/auth/login/mfa',
    {
      config: { auth: 'public' },
      onRequest: loginRateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Finish signing in with a current authenticator code or an unused backup code',
        description: 'Wrong codes count toward the account lockout like wrong passwords. An expired or invalid challenge answers 401: sign in again.',
        body: mfaLoginBodySchema,
        response: {
          200: successSchema(loginDataSchema),
          ...failures(401, 403, 413, 415, 423, 429),
        },
      },
    },
    async (request) => {
      const data = await app.services.auth.loginAdminMfa(request.body, { ip: request.ip, requestId: String(request.id) });
      return { success: true as const, data, message: 'Login successful' };
    },
  );

  app.get(
    '/auth/me',
    {
      config: { auth: 'staff' },
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
