// Signing webhook deliveries: `X-Signature: sha256=<hex>` is HMAC-SHA256 under the
// endpoint's secret of `${timestamp}.${body}` (src/domain/webhooks.ts `signedText`), the timestamp
// being the attempt's own, so a receiver can refuse an old delivery replayed at it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_PREFIX, signedText } from '../../src/domain/webhooks';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new endpoint secret: `whsec_` and 32 random bytes in base64url. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64url')}`;
}

/** What the secret list shows to tell secrets apart: '…' and its last 4 characters. */
export function secretHint(secret: string): string {
  return `…${secret.slice(-4)}`;
}

/** The X-Signature value of `body` sent at `timestamp` (seconds since the epoch). */
export function sign(secret: string, timestamp: number, body: string): string {
  return SIGNATURE_PREFIX + createHmac('sha256', secret).update(signedText(timestamp, body), 'utf8').digest('hex');
}

/** Whether `signature` is the one `sign` gives, compared in constant time. */
export function verify(secret: string, timestamp: number, body: string, signature: string): boolean {
  const expected = Buffer.from(sign(secret, timestamp, body), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
