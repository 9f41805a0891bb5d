// The one error map: every failure leaves as `{ success: false, message, errors?, requestId }`.
// Client mistakes get a 4xx with a useful message; anything else is a logged, generic 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { FailureEnvelope } from '../../src/domain/envelope';
import { AppError, BadRequestError, INTERNAL_ERROR_MESSAGE, VALIDATION_FAILED_MESSAGE, type FieldError } from '../errors';

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

/** Fastify's answers to a URL it cannot route, which bypass the error handler, in the envelope. */
const FRAMEWORK_ERRORS: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: 'Malformed URL: a percent-escape does not decode' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: 'A path segment is too long' },
};

/** Fastify's `frameworkErrors` option: a bad percent-escape or an over-long path segment (found by the fuzz tests). */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = FRAMEWORK_ERRORS[error.code];
  if (!known) request.log.error({ err: error }, 'request failed');
  // The onRequest hooks never ran for these: set what they would have.
  void reply.header('x-request-id', request.id).header('cache-control', 'no-store');
  void reply.code(known?.status ?? 500).send(failure(request, known?.message ?? INTERNAL_ERROR_MESSAGE));
}

export const UNSTORABLE_TEXT_MESSAGE = 'Text may not contain NUL characters or unpaired surrogates';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/**
 * A preValidation hook: PostgreSQL text cannot hold NUL and jsonb refuses unpaired surrogates, so
 * a request carrying either anywhere (path, query, body keys or values) is a 400 before any handler
 * writes it, instead of a 500 from the database (found by the fuzz tests). Iterative, so a deeply
 * nested body cannot exhaust the stack.
 */
export async function rejectUnstorableText(request: FastifyRequest): Promise<void> {
  const pending: unknown[] = [request.params, request.query, request.body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (unstorable(value)) throw new BadRequestError(UNSTORABLE_TEXT_MESSAGE);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (unstorable(key)) throw new BadRequestError(UNSTORABLE_TEXT_MESSAGE);
        pending.push(item);
      }
    }
  }
}

export function routeNotFound(request: FastifyRequest): FailureEnvelope {
  return failure(request, `Route not found: ${request.method} ${request.url.split('?')[0]}`);
}
