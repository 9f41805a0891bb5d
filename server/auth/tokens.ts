// Signed session tokens (HS256). Times come from the injected clock so expiry is testable.
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import type { UserRole, UserType } from '../../src/domain/auth';
import { hs256Key } from './hmac-key';

export const TOKEN_ISSUER = 'satellite-admin-portal';

/**
 * `typ` 'member': a customer organisation's member (sub = the member's id), who signs in on the
 * customer side and acts for their organisation.
 */
export interface TokenClaims {
  sub: string;
  typ: UserType | 'member';
  role?: UserRole;
}

const claimsSchema = z.object({
  sub: z.uuid(),
  typ: z.enum(['admin', 'customer', 'member']),
  role: z.enum(['admin', 'user']).optional(),
});

/** A verified token's claims and when it was issued (seconds since the epoch). */
export type VerifiedClaims = TokenClaims & { iat: number };

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** The claims of a valid token; null when it is malformed, tampered with or expired. */
  verify(token: string): Promise<VerifiedClaims | null>;
}

/** Tokens whose signature this process has checked, kept with their expiry (see `verify`). */
export const VERIFIED_TOKEN_CACHE_SIZE = 1000;

export function createTokenService(options: { secret: string; expiresInSeconds: number; now: () => Date }): TokenService {
  const key = hs256Key(options.secret);
  // Every request presents its token again, and checking the signature (WebCrypto's HMAC, base64
  // and JSON decoding) was a few percent of a page's CPU. A token's signature and claims never
  // change, so a token verified once is kept here with its expiry; only the expiry is checked
  // again, against the same clock and with jose's rule (expired once exp <= now, in whole seconds).
  // The account behind it is still checked on every request (AuthService.authenticate).
  const verified = new Map<string, { claims: VerifiedClaims; exp: number }>();
  const nowSeconds = () => Math.floor(options.now().getTime() / 1000);
  return {
    async sign(claims) {
      const issuedAt = nowSeconds();
      const payload: Record<string, string> = { typ: claims.typ };
      if (claims.role) payload.role = claims.role;
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(TOKEN_ISSUER)
        .setIssuedAt(issuedAt)
        // jose reads relative expiries ('12h') against the real clock, so pass an absolute one.
        .setExpirationTime(issuedAt + options.expiresInSeconds)
        .sign(await key);
    },
    async verify(token) {
      const known = verified.get(token);
      if (known) {
        if (known.exp > nowSeconds()) return known.claims;
        verified.delete(token);
        return null;
      }
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          currentDate: options.now(),
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        const parsed = claimsSchema.safeParse(payload);
        if (!parsed.success || typeof payload.iat !== 'number' || typeof payload.exp !== 'number') return null;
        // Frozen: the same object answers every later use of the token.
        const claims: VerifiedClaims = Object.freeze({ ...parsed.data, iat: payload.iat });
        // Oldest first out: a Map iterates in insertion order.
        if (verified.size >= VERIFIED_TOKEN_CACHE_SIZE) verified.delete(verified.keys().next().value!);
        verified.set(token, { claims, exp: payload.exp });
        return claims;
      } catch {
        return null;
      }
    },
  };
}
