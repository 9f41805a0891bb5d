// The public end of a password-setup or reset link: read what the link is for, then choose a password.
// Rate-limited with the sign-in routes (one budget per client address).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditContext } from '../services/audit';
import type { PasswordLinkInfo } from '../services/customers-password-setup';
import { passwordSetupBodySchema, passwordSetupInfoSchema } from './customers-schemas';
import { failures, inputText, successSchema } from './schemas';

const tags = ['password setup'];

// A link may also reset a forgotten password: the page words itself by `purpose`.
const passwordLinkInfoSchema = passwordSetupInfoSchema.extend({ purpose: z.enum(['setup', 'reset']) }) satisfies z.ZodType<PasswordLinkInfo>;

export const passwordSetupRoutes: FastifyPluginAsyncZod = async (app) => {
  const rateLimit = app.rateLimit();
  const passwordSetup = () => app.services.passwordSetup;

  app.get(
    '/password-setup/:token',
    {
      config: { auth: 'public' },
      onRequest: rateLimit,
      schema: {
        tags,
        summary: 'Who a password-setup or reset link is for, and which it is, while it can still be used',
        params: z.object({ token: inputText() }),
        response: { 200: successSchema(passwordLinkInfoSchema), ...failures(404, 410, 429) },
      },
    },
    async (request) => {
      const data = await passwordSetup().describe(request.params.token);
      return { success: true as const, data, message: 'Password setup link is valid' };
    },
  );

  app.post(
    '/password-setup',
    {
      config: { auth: 'public' },
      onRequest: rateLimit,
      schema: {
        tags,
        summary: 'Choose a password with a setup link; the customer becomes Active',
        body: passwordSetupBodySchema,
        response: { 200: successSchema(z.object({ email: z.string() })), ...failures(404, 410, 413, 415, 429) },
      },
    },
    async (request) => {
      const data = await passwordSetup().complete(request.body, auditContext(request));
      return { success: true as const, data, message: 'Password set successfully. You can now sign in.' };
    },
  );
};
