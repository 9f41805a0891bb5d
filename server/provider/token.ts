// OAuth2 client-credentials token for one service account. Cached, renewed a minute before it
// expires (half its lifetime when shorter), dropped on a 401. Concurrent callers share one token
// request; a caller's abort only stops that caller's wait, never the shared request.
import { ProviderAuthError, ProviderResponseError, ProviderUnavailableError, ProviderTimeoutError } from './errors';
import { describeNetworkError, exchange, raceSignal } from './http';
import { tokenErrorSchema, tokenResponseSchema } from './schemas';

export const TOKEN_RENEW_MARGIN_MS = 60_000;

export interface TokenSourceOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
  now: () => Date;
  timeoutMs: number;
  maxRetries: number;
  /** Waits before retry `retry` (1-based); resolves with the milliseconds waited. */
  backoff: (retry: number) => Promise<number>;
  onRequest: () => void;
}

export interface TokenSource {
  get(signal?: AbortSignal): Promise<string>;
  /** The provider refused `token` (401): forget it unless a newer one already replaced it. */
  invalidate(token: string): void;
}

interface CachedToken {
  token: string;
  renewAt: number;
  expiresAt: number;
}

const LABEL = { method: 'POST', path: '/auth/connect/token' };

export function createTokenSource(options: TokenSourceOptions): TokenSource {
  let cached: CachedToken | null = null;
  let inflight: Promise<CachedToken> | null = null;

  async function request(): Promise<CachedToken> {
    const body = new URLSearchParams({
      client_id: options.clientId,
      client_secret: options.clientSecret,
      grant_type: 'client_credentials',
    }).toString();
    let retries = 0;
    for (;;) {
      const requestedAt = options.now().getTime();
      options.onRequest();
      let status: number;
      let text: string;
      try {
        ({ status, text } = await exchange(options.fetch, {
          url: options.tokenUrl,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body,
          label: LABEL,
          timeoutMs: options.timeoutMs,
        }));
      } catch (error) {
        if (error instanceof ProviderTimeoutError) throw error;
        if (retries < options.maxRetries) {
          await options.backoff(++retries);
          continue;
        }
        throw new ProviderUnavailableError('The token endpoint could not be reached', {
          attempts: retries + 1,
          messages: [describeNetworkError(error)],
          ...LABEL,
          cause: error,
        });
      }
      if ((status === 429 || status >= 500) && retries < options.maxRetries) {
        await options.backoff(++retries);
        continue;
      }
      if (status === 429 || status >= 500) {
        throw new ProviderUnavailableError('The token endpoint is unavailable', { status, attempts: retries + 1, ...LABEL });
      }
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (status < 200 || status >= 300) {
        const refusal = tokenErrorSchema.safeParse(json ?? {});
        const messages = refusal.success ? [refusal.data.error_description ?? refusal.data.error].filter((m): m is string => !!m) : [];
        throw new ProviderAuthError('The provider refused the service account credentials', { status, messages, ...LABEL });
      }
      const parsed = tokenResponseSchema.safeParse(json);
      if (!parsed.success) {
        throw new ProviderResponseError('The token endpoint answered without a usable access token', {
          status,
          messages: parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`),
          ...LABEL,
        });
      }
      const lifetimeMs = parsed.data.expires_in * 1000;
      return {
        token: parsed.data.access_token,
        expiresAt: requestedAt + lifetimeMs,
        renewAt: requestedAt + lifetimeMs - Math.min(TOKEN_RENEW_MARGIN_MS, lifetimeMs / 2),
      };
    }
  }

  function renew(): Promise<CachedToken> {
    if (!inflight) {
      const started = request().then((fresh) => {
        cached = fresh;
        return fresh;
      });
      inflight = started.finally(() => {
        inflight = null;
      });
      // Every caller may have gone (aborted); the outcome still must not be an unhandled rejection.
      inflight.catch(() => undefined);
    }
    return inflight;
  }

  return {
    async get(signal) {
      if (signal?.aborted) throw signal.reason;
      const current = cached;
      const t = options.now().getTime();
      if (current && t < current.renewAt) return current.token;
      try {
        return (await raceSignal(renew(), signal)).token;
      } catch (error) {
        // Renewing early failed but the old token is still good: use it, renew next time.
        if (!signal?.aborted && current && cached === current && options.now().getTime() < current.expiresAt) return current.token;
        throw error;
      }
    },
    invalidate(token) {
      if (cached?.token === token) cached = null;
    },
  };
}
