/**
 * What the machines behind an emailed link that ends in choosing a password share
 * (customer-password-setup, invitation-accept): reading the server's answer about the link, and
 * the states after it (checkFailed, invalid, gone). Each machine keeps its own actors,
 * form and names; only the reading of an answer and the resting states are one piece.
 */
import type { ApiResult } from '../api/client';

type Refused = Extract<ApiResult<unknown>, { ok: false }>;
export const isRefused = (result: ApiResult<unknown>): result is Refused => !result.ok;
/** The server's words for a refusal, or ours when it gave none (or it was not a refusal). */
export const messageOr = (result: ApiResult<unknown>, fallback: string) => (isRefused(result) && result.message.trim()) || fallback;

/** Guards on a link's token and on the server's answer about it. */
export const linkGuards = {
  hasToken: ({ context }: { context: { token: string } }) => context.token.length > 0,
  /** 404: not a link we sent (and, where the caller says so, a malformed token's 400). */
  isUnknownLink: (_: unknown, { result, malformedToo }: { result: ApiResult<unknown>; malformedToo: boolean }) =>
    isRefused(result) && (result.status === 404 || (malformedToo && result.status === 400)),
  /** 410: used, expired or revoked; the server's message says which. */
  isGoneLink: (_: unknown, result: ApiResult<unknown>) => isRefused(result) && result.status === 410,
};

/**
 * The states a link rests in once it is answered for: checkFailed offers Try Again; invalid and
 * gone forget the passwords, which never outlive a link that cannot take them (each machine
 * defines `forgetPasswords`).
 */
export const linkRestingStates = {
  checkFailed: {
    on: { 'user.retry': 'checking' },
  },
  invalid: {
    entry: 'forgetPasswords',
  },
  gone: {
    entry: 'forgetPasswords',
  },
} as const;
