// Provider settings from the environment. No STARLINK_* variable at all → null: the portal runs on
// its built-in simulator. Any of them set → client id and secret are required (a half-configured
// provider should stop start-up, not fall back silently to demo data).
import { z } from 'zod';
import { envIssueLines } from '../env';
import { ConfigError, type Env } from '../config';

export const DEFAULT_STARLINK_API_URL = 'https://starlink.com/api';

export interface ProviderSettings {
  apiUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** STARLINK_REQUESTS_PER_MINUTE: lower it when several installations share one account. */
  requestsPerMinute?: number;
}

const SWITCHES = ['STARLINK_API_URL', 'STARLINK_TOKEN_URL', 'STARLINK_CLIENT_ID', 'STARLINK_CLIENT_SECRET'] as const;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or plain http only to this machine: the token request carries the client secret (also each provider account's URLs). */
export const serviceUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
    } catch {
      return false;
    }
  }, 'must be an https:// URL (http:// only for localhost)')
  .transform((value) => value.replace(/\/+$/, ''));

const schema = z.object({
  STARLINK_API_URL: z.preprocess(blankToUndefined, serviceUrl.optional()),
  STARLINK_TOKEN_URL: z.preprocess(blankToUndefined, serviceUrl.optional()),
  STARLINK_CLIENT_ID: z.preprocess(blankToUndefined, z.string({ error: 'is required with the other STARLINK_* settings' }).trim().min(1)),
  STARLINK_CLIENT_SECRET: z.preprocess(blankToUndefined, z.string({ error: 'is required with the other STARLINK_* settings' }).min(1)),
  STARLINK_REQUESTS_PER_MINUTE: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: 'must be a whole number from 1 to 250' })
      .int('must be a whole number from 1 to 250')
      .min(1, 'must be a whole number from 1 to 250')
      .max(250, 'must be a whole number from 1 to 250')
      .optional(),
  ),
});

/** null when no STARLINK_* variable is set; throws ConfigError when the set is incomplete or invalid. */
export function providerSettingsFromEnv(env: Env): ProviderSettings | null {
  if (SWITCHES.every((name) => blankToUndefined(env[name]) === undefined)) return null;
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(`Invalid provider settings:\n${envIssueLines(result.error.issues, env).join('\n')}`);
  }
  const e = result.data;
  const apiUrl = e.STARLINK_API_URL ?? DEFAULT_STARLINK_API_URL;
  return {
    apiUrl,
    tokenUrl: e.STARLINK_TOKEN_URL ?? `${apiUrl}/auth/connect/token`,
    clientId: e.STARLINK_CLIENT_ID,
    clientSecret: e.STARLINK_CLIENT_SECRET,
    ...(e.STARLINK_REQUESTS_PER_MINUTE === undefined ? {} : { requestsPerMinute: e.STARLINK_REQUESTS_PER_MINUTE }),
  };
}
