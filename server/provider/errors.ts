// Typed failures of the provider client. Callers branch on the class (or `kind`), never on message
// text; `messages` carries the provider's own texts (envelope `errorMessage`s, OAuth error
// descriptions) for display. A caller's abort is not one of these: it rejects with the signal's
// reason, so an aborted request never looks like a provider failure.

export type ProviderErrorKind =
  | 'auth'
  | 'permission'
  | 'not-found'
  | 'validation'
  | 'rate-limit'
  | 'unavailable'
  | 'timeout'
  | 'response';

export interface ProviderErrorInit {
  status?: number | null;
  messages?: string[];
  method?: string;
  path?: string;
  cause?: unknown;
}

/** The permission a 403 names: `FeatureAccess` and `Permission` codes (see the OpenAPI enums). */
export interface ProviderRequiredPermission {
  featureAccess: number | null;
  permission: number | null;
  /** e.g. "DeviceManagement" when the provider spells it out. */
  featureAccessString: string | null;
  /** e.g. "View". */
  permissionString: string | null;
}

export abstract class ProviderError extends Error {
  abstract readonly kind: ProviderErrorKind;
  /** The provider's HTTP status, or null when no answer came (network, timeout, token fetch). */
  readonly status: number | null;
  readonly messages: string[];
  /** The request that failed, e.g. `GET /public/v2/user-terminals` (no query, no secrets). */
  readonly method: string | null;
  readonly path: string | null;

  constructor(summary: string, init: ProviderErrorInit = {}) {
    const messages = init.messages ?? [];
    const where = init.method && init.path ? ` (${init.method} ${init.path})` : '';
    const detail = messages.length > 0 ? `: ${messages.join('; ')}` : '';
    super(`${summary}${detail}${where}`, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status ?? null;
    this.messages = messages;
    this.method = init.method ?? null;
    this.path = init.path ?? null;
  }
}

/** 401 after one token renewal, or the token endpoint refused the credentials. */
export class ProviderAuthError extends ProviderError {
  override name = 'ProviderAuthError';
  readonly kind = 'auth';
}

/** 403: the service account lacks a permission (named when the provider says which). */
export class ProviderPermissionError extends ProviderError {
  override name = 'ProviderPermissionError';
  readonly kind = 'permission';
  readonly requiredPermission: ProviderRequiredPermission | null;

  constructor(summary: string, init: ProviderErrorInit & { requiredPermission?: ProviderRequiredPermission | null } = {}) {
    super(summary, init);
    this.requiredPermission = init.requiredPermission ?? null;
  }
}

/** 404: unknown service line, terminal, address… */
export class ProviderNotFoundError extends ProviderError {
  override name = 'ProviderNotFoundError';
  readonly kind = 'not-found';
}

/** 400 / 422 (and other refusals): `messages` holds the envelope's `errorMessage` texts. */
export class ProviderValidationError extends ProviderError {
  override name = 'ProviderValidationError';
  readonly kind = 'validation';
  /** `memberNames` of the envelope errors, flattened (which fields the provider objected to). */
  readonly fields: string[];

  constructor(summary: string, init: ProviderErrorInit & { fields?: string[] } = {}) {
    super(summary, init);
    this.fields = init.fields ?? [];
  }
}

/** 429 still answered after every retry. */
export class ProviderRateLimitError extends ProviderError {
  override name = 'ProviderRateLimitError';
  readonly kind = 'rate-limit';
  readonly attempts: number;

  constructor(summary: string, init: ProviderErrorInit & { attempts: number }) {
    super(summary, init);
    this.attempts = init.attempts;
  }
}

/** 5xx, refused or dropped connections, still failing after every retry (or not retryable). */
export class ProviderUnavailableError extends ProviderError {
  override name = 'ProviderUnavailableError';
  readonly kind = 'unavailable';
  readonly attempts: number;

  constructor(summary: string, init: ProviderErrorInit & { attempts: number }) {
    super(summary, init);
    this.attempts = init.attempts;
  }
}

/** No complete answer within the per-request timeout. */
export class ProviderTimeoutError extends ProviderError {
  override name = 'ProviderTimeoutError';
  readonly kind = 'timeout';
  readonly timeoutMs: number;

  constructor(summary: string, init: ProviderErrorInit & { timeoutMs: number }) {
    super(summary, init);
    this.timeoutMs = init.timeoutMs;
  }
}

/** An answer we cannot use: not JSON, not the documented shape, or `isValid:false` without errors. */
export class ProviderResponseError extends ProviderError {
  override name = 'ProviderResponseError';
  readonly kind = 'response';
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}
