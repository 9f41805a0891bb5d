// The one HTTP client of the SPA. Every resource module goes through `request`, so the bearer
// token, the envelope reading and the 401 funnel live in one place.
import { ofetch, FetchError } from 'ofetch';
import type { FailureEnvelope } from '../domain/envelope';

export type ApiResult<T> =
  | { ok: true; status: number; data: T; message: string }
  | { ok: false; status: number; message: string; errors?: FailureEnvelope['errors'] };

export const UNEXPECTED_RESPONSE = 'Unexpected response from the server';

/** Reads a success's data with a normaliser; data it cannot read is a failure, not a crash. */
export function mapResult<T, U>(result: ApiResult<T>, map: (data: T) => U | null): ApiResult<U> {
  if (!result.ok) return result;
  const data = map(result.data);
  return data === null
    ? { ok: false, status: result.status, message: UNEXPECTED_RESPONSE }
    : { ok: true, status: result.status, data, message: result.message };
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
  /** Use this token instead of the session's (the session check confirms a stored token). */
  token?: string | null;
}

export interface ApiClientOptions {
  baseURL?: string;
  getToken: () => string | null;
  /** Called once per 401 answer to a request that carried a token: the session decides what it means. */
  onUnauthorized: () => void;
  fetch?: typeof globalThis.fetch;
}

/** A file the server answered (a CSV export): its bytes and the name the server gave it, if any. */
export interface Download {
  blob: Blob;
  filename: string | null;
}

export interface ApiClient {
  request<T>(path: string, options?: RequestOptions): Promise<ApiResult<T>>;
  /** A GET whose success is a file, not an envelope (the bearer token still goes with it); a refusal is read as the envelope. */
  download(path: string, options?: Pick<RequestOptions, 'query' | 'signal'>): Promise<ApiResult<Download>>;
}

/** Thrown for failures below HTTP (no answer at all). Spec section 7: network failures are rethrown. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

function readEnvelope<T>(status: number, body: unknown): ApiResult<T> {
  const envelope = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
  const message = typeof envelope?.message === 'string' ? envelope.message : '';
  if (status < 400 && envelope?.success === true) {
    return { ok: true, status, data: envelope.data as T, message };
  }
  const errors = Array.isArray(envelope?.errors) ? (envelope.errors as FailureEnvelope['errors']) : undefined;
  return {
    ok: false,
    status,
    message: message || `Request failed with status ${status}`,
    ...(errors ? { errors } : {}),
  };
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const http = ofetch.create(
    {
      baseURL: options.baseURL ?? '/api/v1',
      // Machines own retries and polling; ofetch would otherwise retry GETs on 5xx behind their back.
      retry: false,
      // Error bodies are answers too: the envelope says what went wrong.
      ignoreResponseError: true,
    },
    options.fetch ? { fetch: options.fetch } : {},
  );

  return {
    async request<T>(path: string, { method = 'GET', body, query, signal, token }: RequestOptions = {}) {
      const bearer = token === undefined ? options.getToken() : token;
      let response;
      try {
        response = await http.raw(path, {
          method,
          ...(body === undefined ? {} : { body: body as Record<string, unknown> }),
          ...(query ? { query } : {}),
          ...(signal ? { signal } : {}),
          headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
        });
      } catch (error) {
        // A request its caller aborted answers nothing, not even an AbortError: the actor that
        // asked has stopped. Under React StrictMode @xstate/react stops and then revives the very
        // same actor objects, so a late rejection would be taken for the revived run's failure.
        if (signal?.aborted) return new Promise<never>(() => {});
        const cause = error instanceof FetchError ? (error.cause ?? error) : error;
        throw new NetworkError(cause instanceof Error ? cause.message : 'Network error occurred', { cause });
      }
      if (response.status === 401 && bearer) options.onUnauthorized();
      return readEnvelope<T>(response.status, response._data);
    },

    async download(path: string, { query, signal }: Pick<RequestOptions, 'query' | 'signal'> = {}) {
      const bearer = options.getToken();
      let response;
      try {
        response = await http.raw<Blob, 'blob'>(path, {
          responseType: 'blob',
          ...(query ? { query } : {}),
          ...(signal ? { signal } : {}),
          headers: bearer ? { Authorization: `Bearer ${bearer}` } : {},
        });
      } catch (error) {
        // As in request: an aborted download answers nothing.
        if (signal?.aborted) return new Promise<never>(() => {});
        const cause = error instanceof FetchError ? (error.cause ?? error) : error;
        throw new NetworkError(cause instanceof Error ? cause.message : 'Network error occurred', { cause });
      }
      if (response.status === 401 && bearer) options.onUnauthorized();
      const blob = response._data;
      // Read by shape: a test environment's Blob may come from another realm than the global one.
      const isBlob = typeof blob === 'object' && blob !== null && typeof (blob as Blob).text === 'function';
      if (response.status >= 400 || !isBlob) {
        // A refusal is the usual envelope, read from the bytes.
        const text = isBlob ? await blob.text() : '';
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = null;
        }
        return readEnvelope<Download>(response.status >= 400 ? response.status : 500, body);
      }
      const disposition = response.headers.get('content-disposition') ?? '';
      const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? null;
      let filename = named;
      try {
        filename = named ? decodeURIComponent(named) : null;
      } catch {
        // A name that is not valid percent-encoding is kept as sent.
      }
      return { ok: true as const, status: response.status, data: { blob, filename }, message: '' };
    },
  };
}
