// The sign-in challenge between a right password and a right code: a short-lived HS256 JWT
// under the session-token secret. Its `typ` is none of the session types, so the token service
// (and with it `authenticate`) refuses it as a bearer token, and this service refuses session tokens.
import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import { MFA_CHALLENGE_SECONDS } from '../../src/domain/mfa';
import type { Clock } from '../clock';
import { TOKEN_ISSUER } from './tokens';
import { hs256Key } from './hmac-key';

export const MFA_CHALLENGE_TYPE = 'mfa_challenge';
const PURPOSE = 'mfa_login';

const claimsSchema = z.object({
  sub: z.uuid(),
  typ: z.literal(MFA_CHALLENGE_TYPE),
  purpose: z.literal(PURPOSE),
  acct: z.enum(['admin', 'customer', 'member']),
});

export interface MfaChallengeClaims {
  sub: string;
  /** Which account table `sub` is in: a customer organisation's member signs in as a customer. */
  account: 'admin' | 'customer' | 'member';
}

export interface MfaChallengeService {
  sign(claims: MfaChallengeClaims): Promise<string>;
  /** The claims of a valid, unexpired challenge; null otherwise (a session token included). */
  verify(challenge: string): Promise<MfaChallengeClaims | null>;
}

export function createMfaChallengeService(options: { secret: string; now: Clock; lifetimeSeconds?: number }): MfaChallengeService {
  const key = hs256Key(options.secret);
  const lifetime = options.lifetimeSeconds ?? MFA_CHALLENGE_SECONDS;
  return {
    async sign({ sub, account }) {
      const issuedAt = Math.floor(options.now().getTime() / 1000);
      return new SignJWT({ typ: MFA_CHALLENGE_TYPE, purpose: PURPOSE, acct: account })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(TOKEN_ISSUER)
        .setAudience(PURPOSE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetime)
        .sign(await key);
    },
    async verify(challenge) {
      try {
        const { payload } = await jwtVerify(challenge, await key, {
          algorithms: ['HS256'],
          issuer: TOKEN_ISSUER,
          audience: PURPOSE,
          currentDate: options.now(),
          requiredClaims: ['sub', 'exp', 'iat'],
        });
        const parsed = claimsSchema.safeParse(payload);
        return parsed.success ? { sub: parsed.data.sub, account: parsed.data.acct } : null;
      } catch {
        return null;
      }
    },
  };
}
