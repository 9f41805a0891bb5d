// Signed session tokens (HS256). Times come from the injected clock so expiry is testable.
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import type { UserRole, UserType } from '../../src/domain/auth';
import { hs256Key } from './hmac-key';

export const TOKEN_ISSUER = 'satellite-admin-portal';

export interface TokenClaims {
  sub: string;
  typ: UserType;
  role?: UserRole;
}

const claimsSchema = z.object({
  sub: z.uuid(),
  typ: z.enum(['admin', 'customer']),
  role: z.enum(['admin', 'user']).optional(),
});

/** A verified token's claims and when it was issued (seconds since the epoch). */
export type VerifiedClaims = TokenClaims & { iat: number };

export interface TokenService {
  sign(claims: TokenClaims): Promise<string>;
  /** The claims of a valid token; null when it is malformed, tampered with or expired. */
  verify(token: string): Promise<VerifiedClaims | null>;
}

export function createTokenService(options: { secret: string; expiresInSeconds: number; now: () => Date }): TokenService {
  const key = hs256Key(options.secret);
  return {
    async sign(claims) {
      const issuedAt = Math.floor(options.now().getTime() / 1000);
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
      try {
        const { payload } = await jwtVerify(token, await key, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          currentDate: options.now(),
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        const parsed = claimsSchema.safeParse(payload);
        return parsed.success && typeof payload.iat === 'number' ? { ...parsed.data, iat: payload.iat } : null;
      } catch {
        return null;
      }
    },
  };
}
