// The webhook signature against an independent computation with node:crypto: what a receiver
// following the README would compute must match what the portal sends, and nothing else may.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_PREFIX, signedText } from '../../src/domain/webhooks';
import { newWebhookSecret, secretHint, sign, verify } from '../../server/webhooks/signature';

/** The receiver's side, written from the documented recipe only. */
const expected = (secret: string, timestamp: number, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

describe('webhook signatures', () => {
  const secret = 'whsec_test-secret-for-the-signature';
  const body = JSON.stringify({ id: 'e1', type: 'alert.opened', createdAt: '2026-03-02T09:00:00.000Z', data: { level: 80, name: 'Zoë' } });

  it('signs the timestamp, a dot and the body with HMAC-SHA256, as sha256=<hex>', () => {
    expect(signedText(1_772_442_000, '{}')).toBe('1772442000.{}');
    expect(sign(secret, 1_772_442_000, body)).toBe(expected(secret, 1_772_442_000, body));
    expect(sign(secret, 1_772_442_000, body)).toMatch(new RegExp(`^${SIGNATURE_PREFIX}[0-9a-f]{64}$`));
  });

  it('gives another signature for another timestamp, body or secret', () => {
    const base = sign(secret, 1000, body);
    expect(sign(secret, 1001, body)).not.toBe(base);
    expect(sign(secret, 1000, `${body} `)).not.toBe(base);
    expect(sign(`${secret}x`, 1000, body)).not.toBe(base);
  });

  it('verifies its own signature and refuses a changed one, of any length', () => {
    const signature = sign(secret, 1000, body);
    expect(verify(secret, 1000, body, signature)).toBe(true);
    expect(verify(secret, 1000, body, signature.replace(/.$/, (c) => (c === '0' ? '1' : '0')))).toBe(false);
    expect(verify(secret, 1000, body, signature.slice(0, -2))).toBe(false);
    expect(verify(secret, 1001, body, signature)).toBe(false);
  });

  it('makes secrets of whsec_ and 32 random bytes in base64url, never the same twice', () => {
    const a = newWebhookSecret();
    const b = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice('whsec_'.length), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('hints a secret by its last four characters', () => {
    expect(secretHint('whsec_abcdefWXYZ')).toBe('…WXYZ');
  });
});
