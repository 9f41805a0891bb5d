// The HS256 key of the portal's signed tokens, imported once. Handed raw bytes, jose imports the
// key again for every signature and check (crypto.subtle.importKey and its checks): about 6 % of
// the CPU an authenticated admin page cost in a profile.
import { webcrypto } from 'node:crypto';

export function hs256Key(secret: string): Promise<webcrypto.CryptoKey> {
  return webcrypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}
