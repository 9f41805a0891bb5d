// MFA secrets at rest: AES-256-GCM under a server key, stored as `v1:<iv>:<tag>:<ciphertext>`
// (base64url). Each value is bound to its account (additional authenticated data), so a secret
// copied into another row does not open there. The same key peppers backup-code hashes.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { ServiceUnavailableError } from '../errors';

export const SECRET_BOX_KEY_BYTES = 32;
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const NO_MFA_KEY_MESSAGE = 'Multi-factor authentication is unavailable: no MFA encryption key is configured';

export interface SecretBox {
  /** Encrypts `plain` for the account named by `context` (e.g. `user:<uuid>`). */
  seal(plain: string, context: string): string;
  /** The plain text, or null when the value is missing, malformed, tampered with or of another account. */
  open(sealed: string | null | undefined, context: string): string | null;
  /** A keyed digest (HMAC-SHA-256, hex): a stolen table alone cannot be brute-forced. */
  digest(text: string): string;
}

/** 32 bytes written as 64 hex digits or as base64/base64url; null for anything else. */
export function decodeSecretBoxKey(text: string): Buffer | null {
  const value = text.trim();
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) return null;
  const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === SECRET_BOX_KEY_BYTES ? bytes : null;
}

export function newSecretBoxKey(): Buffer {
  return randomBytes(SECRET_BOX_KEY_BYTES);
}

/** With a null key (a Config assembled by hand, as the benchmark does) every use is refused. */
export function createSecretBox(key: Buffer | null): SecretBox {
  const usableKey = () => {
    if (!key) throw new ServiceUnavailableError(NO_MFA_KEY_MESSAGE);
    return key;
  };
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', usableKey(), iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join(':');
    },
    open(sealed, context) {
      if (!sealed || !key) return null;
      const [version, iv, tag, ciphertext, ...rest] = sealed.split(':');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined || rest.length > 0) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
    digest(text) {
      return createHmac('sha256', usableKey()).update(text, 'utf8').digest('hex');
    },
  };
}
