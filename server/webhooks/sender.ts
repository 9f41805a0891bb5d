// One attempt of one webhook delivery: a POST, its answer's status and the start of its body.
// Never throws: whatever goes wrong (a refused address, no connection, a timeout, a redirect, a
// 5xx) comes back as `{ ok: false, error }` for the delivery log.
//
// The host is resolved by the address guard's `lookup`, so the addresses connected to are the ones
// checked (see address-guard.ts on DNS rebinding). Redirects are not followed: a 3xx could point
// anywhere, the guard's checks included, so it is a failed attempt like any other non-2xx. The
// latency and the timeout are measured on the real clock, not the service's injected one: they
// are how long the receiver really took.
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { WEBHOOK_EXCERPT_CHARS, WEBHOOK_TIMEOUT_MS } from '../../src/domain/webhooks';
import type { AddressGuard } from './address-guard';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface AttemptResult {
  ok: boolean;
  /** The answer's status; null when none came. */
  status: number | null;
  latencyMs: number | null;
  /** The start of the answer's body (WEBHOOK_EXCERPT_CHARS characters at most). */
  excerpt: string | null;
  /** Why it failed, in words for the log; null on success. */
  error: string | null;
}

export type SendWebhook = (request: WebhookRequest) => Promise<AttemptResult>;

/** Bytes read before giving up on reaching the excerpt's length (multi-byte text needs more than one per character). */
const EXCERPT_BYTES = WEBHOOK_EXCERPT_CHARS * 4;
const ERROR_MAX_CHARS = 500;

export const SENDER_MESSAGES = {
  timeout: `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds`,
  redirect: (status: number, location: string | undefined) =>
    `Answered ${status}${location ? ` (redirect to ${location.slice(0, 200)})` : ''}: redirects are not followed, register the final URL`,
  status: (status: number) => `Answered ${status}`,
} as const;

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || (error as NodeJS.ErrnoException).code || error.name : String(error);
  return text.slice(0, ERROR_MAX_CHARS);
}

export function createSender(deps: { guard: AddressGuard; timeoutMs?: number; userAgent: string }): SendWebhook {
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  return async function send(request) {
    const checked = await deps.guard.checkUrl(request.url);
    if (!checked.ok) return { ok: false, status: null, latencyMs: null, excerpt: null, error: checked.message };
    const { url } = checked;
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const client = url.protocol === 'https:' ? https : http;

    return new Promise<AttemptResult>((settle) => {
      let settled = false;
      let outgoing: http.ClientRequest | undefined;
      const timer = setTimeout(() => {
        fail(SENDER_MESSAGES.timeout);
        outgoing?.destroy();
      }, timeoutMs);
      function finish(result: AttemptResult) {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        settle(result);
      }
      function fail(error: string, status: number | null = null, excerpt: string | null = null) {
        finish({ ok: false, status, latencyMs: status === null ? null : elapsed(), excerpt, error });
      }

      const options: http.RequestOptions = {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: deps.guard.lookup,
        // A socket of its own: a kept-alive one would skip the lookup, and with it the check.
        agent: false,
      };
      try {
        outgoing = client.request(url, options, (answer) => {
          const status = answer.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let length = 0;
          const done = () => {
            const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, WEBHOOK_EXCERPT_CHARS);
            if (status >= 200 && status < 300) finish({ ok: true, status, latencyMs: elapsed(), excerpt, error: null });
            else if (status >= 300 && status < 400) fail(SENDER_MESSAGES.redirect(status, answer.headers.location), status, excerpt);
            else fail(SENDER_MESSAGES.status(status), status, excerpt);
            answer.destroy();
          };
          answer.on('data', (chunk: Buffer) => {
            if (length >= EXCERPT_BYTES) return;
            chunks.push(chunk);
            length += chunk.length;
            // Enough for the log: the rest of a large answer is not waited for.
            if (length >= EXCERPT_BYTES) done();
          });
          answer.on('end', done);
          answer.on('error', done);
        });
      } catch (error) {
        // Headers node refuses (a malformed value) and the like: a failed attempt, not a crash.
        fail(errorText(error));
        return;
      }
      outgoing.on('error', (error) => fail(errorText(error)));
      outgoing.end(request.body);
    });
  };
}
