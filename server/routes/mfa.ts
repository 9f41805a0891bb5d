// The signed-in account's own multi-factor authentication: POST /auth/mfa/setup, /verify, /disable
// for portal users and the same three under /customers/mfa for customers (same bodies, same
// answers). The sign-in code steps (POST /auth/login/mfa, /customers/auth/login/mfa) sit with the
// other sign-in routes.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MFA_MESSAGES, type MfaDisablePayload, type MfaLoginPayload, type MfaRequiredWire, type MfaSetupWire, type MfaVerifyPayload, type MfaVerifyWire } from '../../src/domain/mfa';
import { principalOf } from '../plugins/auth';
import { failures, successSchema } from './schemas';

// Codes are checked by the service, so a malformed one gets the spec's message rather than a schema error.
const codeField = z.string({ error: MFA_MESSAGES.invalidCode }).max(64, MFA_MESSAGES.invalidCode);

export const mfaSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string(), qrCodeDataUrl: z.string() }) satisfies z.ZodType<MfaSetupWire>;
export const mfaVerifyBodySchema = z.object({ code: codeField }) satisfies z.ZodType<MfaVerifyPayload>;
export const mfaVerifySchema = z.object({ backupCodes: z.array(z.string()) }) satisfies z.ZodType<MfaVerifyWire>;
export const mfaDisableBodySchema = z.object({ code: codeField.optional(), password: z.string().max(1024, 'Password is too long').optional() }) satisfies z.ZodType<MfaDisablePayload>;
export const mfaRequiredSchema = z.object({ mfaRequired: z.literal(true), challenge: z.string() }) satisfies z.ZodType<MfaRequiredWire>;
export const mfaLoginBodySchema = z.object({
  challenge: z.string({ error: MFA_MESSAGES.challengeExpired }).min(1, MFA_MESSAGES.challengeExpired).max(4096, MFA_MESSAGES.challengeExpired),
  code: codeField,
}) satisfies z.ZodType<MfaLoginPayload>;

const requestContext = (request: { ip: string; id: unknown }) => ({ ip: request.ip, requestId: String(request.id) });

/** The three routes for one kind of account: portal users under /auth/mfa, customers under /customers/mfa. */
function mfaRoutesFor(base: '/auth/mfa' | '/customers/mfa', auth: 'staff' | 'customer', tags: string[]): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      `${base}/setup`,
      {
        config: { auth },
        schema: {
          tags,
          summary: 'Start setting up multi-factor authentication: a new secret, its otpauth URI and QR code',
          security: [{ bearerAuth: [] }],
          response: { 200: successSchema(mfaSetupSchema), ...failures(401, 403, 409) },
        },
      },
      async (request) => {
        const data = await app.services.mfa.setup(principalOf(request), requestContext(request));
        return { success: true as const, data, message: 'Scan the QR code, then enter a code to verify' };
      },
    );

    app.post(
      `${base}/verify`,
      {
        config: { auth },
        schema: {
          tags,
          summary: 'Verify the first code: turns multi-factor authentication on and answers the backup codes (shown once)',
          security: [{ bearerAuth: [] }],
          body: mfaVerifyBodySchema,
          response: { 200: successSchema(mfaVerifySchema), ...failures(401, 403, 409, 413, 415) },
        },
      },
      async (request) => {
        const data = await app.services.mfa.verify(principalOf(request), request.body.code, requestContext(request));
        return { success: true as const, data, message: MFA_MESSAGES.enabled };
      },
    );

    app.post(
      `${base}/disable`,
      {
        config: { auth },
        schema: {
          tags,
          summary: 'Turn multi-factor authentication off, with a current code (or a backup code) or the password',
          security: [{ bearerAuth: [] }],
          body: mfaDisableBodySchema,
          response: { 200: successSchema(z.object({ mfaEnabled: z.literal(false) })), ...failures(401, 403, 409, 413, 415) },
        },
      },
      async (request) => {
        await app.services.mfa.disable(principalOf(request), request.body, requestContext(request));
        return { success: true as const, data: { mfaEnabled: false as const }, message: MFA_MESSAGES.disabled };
      },
    );
  };
}

export const mfaRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(mfaRoutesFor('/auth/mfa', 'staff', ['auth']));
  await app.register(mfaRoutesFor('/customers/mfa', 'customer', ['customer auth']));
};
