// The one error map: every failure leaves as `{ success: false, message, errors?, requestId }`.
// Client mistakes get a 4xx with a useful message; anything else is a logged, generic 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FailureEnvelope } from '../../src/domain/envelope';
import { AppError, INTERNAL_ERROR_MESSAGE, VALIDATION_FAILED_MESSAGE, type FieldError } from '../errors';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Fastify's own client-error codes and what we tell the client instead of its wording. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'Malformed JSON body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Malformed JSON body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Request body is too large (limit 1 MB)' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'Unsupported content type: send application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'Request body size did not match Content-Length' },
};

export function failure(request: FastifyRequest, message: string, errors?: FieldError[]): FailureEnvelope {
  return { success: false, message, ...(errors && errors.length > 0 ? { errors } : {}), requestId: String(request.id) };
}

function validationErrors(error: FastifyError): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  const context = (error as { validationContext?: string }).validationContext ?? 'body';
  return error.validation.map((issue) => {
    const path = issue.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    return { path: path || context, message: issue.message ?? 'Invalid value' };
  });
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return reply.code(error.statusCode).send(failure(request, error.message, error.errors));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = validationErrors(error);
      // One problem reads better as the message itself ("Validation failed: Email is required").
      const message = errors.length === 1 ? `${VALIDATION_FAILED_MESSAGE}: ${errors[0]!.message}` : VALIDATION_FAILED_MESSAGE;
      return reply.code(400).send(failure(request, message, errors));
    }
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.code(known.status).send(failure(request, known.message));

    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'client error');
      return reply.code(status).send(failure(request, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(failure(request, INTERNAL_ERROR_MESSAGE));
  });
}

export function routeNotFound(request: FastifyRequest): FailureEnvelope {
  return failure(request, `Route not found: ${request.method} ${request.url.split('?')[0]}`);
}
