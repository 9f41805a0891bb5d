// One HTTP exchange with the provider: fetch plus reading the whole body, bounded by a per-request
// timeout and the caller's signal together. It settles even when an injected fetch ignores its
// signal, so nothing here can hang.
import { ProviderTimeoutError } from './errors';

export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
}

export interface ExchangeRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** For error texts: `GET /public/v2/...`. */
  label: { method: string; path: string };
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * Sends the request and reads the body. Rejects with the caller's abort reason, a
 * ProviderTimeoutError, or the network error as fetch reported it.
 */
export async function exchange(fetchImpl: typeof fetch, request: ExchangeRequest): Promise<Exchange> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(
      new ProviderTimeoutError(`The provider did not answer within ${request.timeoutMs} ms`, {
        timeoutMs: request.timeoutMs,
        method: request.label.method,
        path: request.label.path,
      }),
    );
  }, request.timeoutMs);
  const caller = request.signal;
  const onCallerAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onCallerAbort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const init: RequestInit = { method: request.method, headers: request.headers, signal: controller.signal, redirect: 'error' };
    if (request.body !== undefined) init.body = request.body;
    const response = await raceSignal(fetchImpl(request.url, init), controller.signal);
    const text = await raceSignal(response.text(), controller.signal);
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    if (caller?.aborted) throw caller.reason;
    if (timedOut) throw controller.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    caller?.removeEventListener('abort', onCallerAbort);
  }
}

const CONNECT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** The error chain's codes and messages, for deciding and for reporting. */
function chain(error: unknown): { codes: string[]; messages: string[] } {
  const codes: string[] = [];
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current === 'object') {
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string') codes.push(code);
      const message = (current as { message?: unknown }).message;
      if (typeof message === 'string' && message) messages.push(message);
      current = (current as { cause?: unknown }).cause;
    } else break;
  }
  return { codes, messages };
}

/** True when the request cannot have reached the provider (safe to resend even a non-idempotent call). */
export function isConnectFailure(error: unknown): boolean {
  return chain(error).codes.some((code) => CONNECT_CODES.has(code));
}

/** "fetch failed: other side closed (UND_ERR_SOCKET)" */
export function describeNetworkError(error: unknown): string {
  const { codes, messages } = chain(error);
  const text = [...new Set(messages)].join(': ') || 'network error';
  return codes.length > 0 ? `${text} (${codes[codes.length - 1]})` : text;
}
