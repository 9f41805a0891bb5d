// Expected failures as typed errors; plugins/error-handler.ts is the one place that turns them
// into HTTP responses.
export interface FieldError {
  path: string;
  message: string;
}

export abstract class AppError extends Error {
  abstract readonly statusCode: number;
  readonly errors: FieldError[] | undefined;
  /** Extra response headers (e.g. Retry-After). */
  readonly headers: Record<string, string>;

  constructor(message: string, options: { errors?: FieldError[]; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export class BadRequestError extends AppError {
  override name = 'BadRequestError';
  readonly statusCode = 400;
}

export class UnauthorizedError extends AppError {
  override name = 'UnauthorizedError';
  readonly statusCode = 401;
}

export class ForbiddenError extends AppError {
  override name = 'ForbiddenError';
  readonly statusCode = 403;
}

export class NotFoundError extends AppError {
  override name = 'NotFoundError';
  readonly statusCode = 404;
}

export class ConflictError extends AppError {
  override name = 'ConflictError';
  readonly statusCode = 409;
}

/** The account is locked after failed sign-ins (423, so clients that retry 429s leave it alone). */
export class LockedError extends AppError {
  override name = 'LockedError';
  readonly statusCode = 423;
}

/** The client sends too many requests (rate limit). */
export class TooManyRequestsError extends AppError {
  override name = 'TooManyRequestsError';
  readonly statusCode = 429;
}

export const AUTH_REQUIRED_MESSAGE = 'Authentication required';
export const INVALID_TOKEN_MESSAGE = 'Invalid or expired token';
export const INTERNAL_ERROR_MESSAGE = 'Internal server error';
export const VALIDATION_FAILED_MESSAGE = 'Validation failed';

/** The provider answered with an error, a malformed body, or not at all (after retries). */
export class BadGatewayError extends AppError {
  override name = 'BadGatewayError';
  readonly statusCode = 502;
}

/** The provider did not answer in time. */
export class GatewayTimeoutError extends AppError {
  override name = 'GatewayTimeoutError';
  readonly statusCode = 504;
}

/** A capability this server is not set up for (for example no provider configured). */
export class ServiceUnavailableError extends AppError {
  override name = 'ServiceUnavailableError';
  readonly statusCode = 503;
}

/** A 400 about one field: the message, and the field's path for the form to show it beside. */
export function fieldError(path: string, message: string): BadRequestError {
  return new BadRequestError(message, { errors: [{ path, message }] });
}
