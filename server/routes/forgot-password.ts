// Forgot password: POST /auth/forgot-password {email} → 202, the same answer whether
// or not an account has the address. Rate-limited per client address with its own small budget
// (apart from the sign-in budget, so sign-ins do not use it up and it does not use theirs).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORGOT_PASSWORD_MESSAGES, RESET_REQUEST_WINDOW, RESET_REQUESTS_PER_WINDOW, type ForgotPasswordPayload } from '../../src/domain/password-reset';
import { TooManyRequestsError } from '../errors';
import { auditContext } from '../services/audit';
import { failures, inputText, successSchema } from './schemas';

// The service checks the address, so a bad one gets the page's own message.
export const forgotPasswordBodySchema = z.object({ email: inputText({ error: FORGOT_PASSWORD_MESSAGES.emailRequired }) }) satisfies z.ZodType<ForgotPasswordPayload>;

export const forgotPasswordRoutes: FastifyPluginAsyncZod = async (app) => {
  const resetRateLimit = app.rateLimit({
    max: RESET_REQUESTS_PER_WINDOW,
    timeWindow: RESET_REQUEST_WINDOW,
    keyGenerator: (request) => `forgot-password:${request.ip}`,
    errorResponseBuilder: (_request, context) => new TooManyRequestsError(FORGOT_PASSWORD_MESSAGES.tooMany(context.after)),
  });

  app.post(
    '/auth/forgot-password',
    {
      config: { auth: 'public' },
      // After validation: a malformed request is refused without spending the address's budget.
      preHandler: resetRateLimit,
      schema: {
        tags: ['auth'],
        summary: 'Ask for a password reset link by email (customers and portal users)',
        description: 'Always answers 202 with the same message, whether or not an account has the address. A live account gets a single-use link, valid for an hour, by email; at most one email per account every 5 minutes.',
        body: forgotPasswordBodySchema,
        response: { 202: successSchema(z.object({})), ...failures(413, 415, 429) },
      },
    },
    async (request, reply) => {
      await app.services.passwordReset.request(request.body, {
        ...auditContext(request),
        origin: `${request.protocol}://${request.host}`,
        log: request.log,
      });
      return reply.code(202).send({ success: true as const, data: {}, message: FORGOT_PASSWORD_MESSAGES.sent });
    },
  );
};
