import { describe, expect, it } from 'vitest';
import { createSecretBox, decodeSecretBoxKey, newSecretBoxKey } from '../../server/auth/secret-box';
import { checkTotp, newTotpSecret, totpCode, totpStep, totpUri } from '../../server/auth/totp';
import { TOTP_ISSUER } from '../../src/domain/mfa';

// RFC 6238 Appendix B: the SHA-1 seed and its 8-digit codes.
const RFC_SEED = new TextEncoder().encode('12345678901234567890');
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
];
const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP (RFC 6238)', () => {
  it.each(RFC_VECTORS)('gives the RFC 6238 SHA-1 code at T = %i', async (seconds, code) => {
    expect(await totpCode(RFC_SEED, at(seconds), { digits: 8 })).toBe(code);
    expect(await checkTotp(RFC_SEED, code, at(seconds), { digits: 8 })).toEqual({ valid: true, step: Math.floor(seconds / 30) });
  });

  it('accepts the codes of the step before and after, and refuses two steps away', async () => {
    const secret = newTotpSecret();
    const now = new Date('2026-03-02T09:00:10Z');
    const step = totpStep(now);
    const codeAt = (offset: number) => totpCode(secret, new Date(now.getTime() + offset * 30_000));
    expect(await checkTotp(secret, await codeAt(-1), now)).toEqual({ valid: true, step: step - 1 });
    expect(await checkTotp(secret, await codeAt(1), now)).toEqual({ valid: true, step: step + 1 });
    for (const offset of [-2, 2]) {
      const code = await codeAt(offset);
      // A far code that happens to equal a near one would be valid; skip that 1-in-a-million case.
      const near = await Promise.all([-1, 0, 1].map(codeAt));
      if (!near.includes(code)) expect(await checkTotp(secret, code, now)).toEqual({ valid: false });
    }
  });

  it('refuses a code of a step already used, and of any earlier step', async () => {
    const secret = newTotpSecret();
    const now = new Date('2026-03-02T09:00:10Z');
    const step = totpStep(now);
    const code = await totpCode(secret, now);
    expect(await checkTotp(secret, code, now, { lastUsedStep: step - 1 })).toEqual({ valid: true, step });
    expect(await checkTotp(secret, code, now, { lastUsedStep: step })).toEqual({ valid: false });
    expect(await checkTotp(secret, await totpCode(secret, at(now.getTime() / 1000 - 30)), now, { lastUsedStep: step })).toEqual({ valid: false });
    // A last step beyond the window (a clock set back) refuses rather than throws.
    expect(await checkTotp(secret, code, now, { lastUsedStep: step + 5 })).toEqual({ valid: false });
  });

  it('refuses malformed codes and secrets that are not base32 without throwing', async () => {
    const secret = newTotpSecret();
    const now = new Date('2026-03-02T09:00:10Z');
    expect(await checkTotp(secret, '12345', now)).toEqual({ valid: false });
    expect(await checkTotp(secret, '12a456', now)).toEqual({ valid: false });
    expect(await checkTotp('not base32 at all!', '123456', now)).toEqual({ valid: false });
  });

  it('makes 160-bit base32 secrets and an otpauth URI naming the issuer and the account', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const text = totpUri(secret, 'ana@example.com');
    expect(text.startsWith(`otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent('ana@example.com')}?`)).toBe(true);
    const uri = new URL(text);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe(TOTP_ISSUER);
  });
});

describe('the MFA secret box', () => {
  const box = createSecretBox(newSecretBoxKey());

  it('seals to v1:<iv>:<tag>:<ciphertext> and opens only for the same account', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user:a');
    expect(sealed).toMatch(/^v1:[\w-]+:[\w-]+:[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP', 'user:a')).not.toBe(sealed);
    expect(box.open(sealed, 'user:a')).toBe('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed, 'user:b')).toBeNull();
  });

  it('opens nothing from another key, a tampered value or a plain secret', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'user:a');
    expect(createSecretBox(newSecretBoxKey()).open(sealed, 'user:a')).toBeNull();
    const [v, iv, tag, data] = sealed.split(':') as [string, string, string, string];
    const flipped = (data[0] === 'A' ? 'B' : 'A') + data.slice(1);
    expect(box.open([v, iv, tag, flipped].join(':'), 'user:a')).toBeNull();
    expect(box.open('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', 'user:a')).toBeNull();
    expect(box.open(null, 'user:a')).toBeNull();
  });

  it('reads 32-byte keys as hex or base64 and refuses other lengths', () => {
    const key = newSecretBoxKey();
    expect(decodeSecretBoxKey(key.toString('hex'))?.equals(key)).toBe(true);
    expect(decodeSecretBoxKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(decodeSecretBoxKey(key.toString('base64url'))?.equals(key)).toBe(true);
    expect(decodeSecretBoxKey(key.subarray(0, 16).toString('hex'))).toBeNull();
    expect(decodeSecretBoxKey('not a key')).toBeNull();
  });
});
