// Shared pieces of the environment parsers (server config, provider settings, simulator options):
// one notion of "unset", of a yes/no flag, of a bounded whole number, and one readable error.
import { z } from 'zod';

/** Unset and empty mean the same thing: `PORT= npm start` falls back to the default. */
export const optionalEnv = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

export const envFlag = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => ['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'].includes(v), 'must be 1 or 0')
  .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

export const wholeNumber = (min: number, max: number, message = `must be a whole number from ${min} to ${max}`) =>
  z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

/** Names whose values never appear in an error message. */
const SECRET_NAMES = /SECRET|PASSWORD|CLIENT_ID|SMTP/;

/** One line per problem, "  NAME: what is wrong (got "value")", secrets never echoed. */
export function envIssueLines(issues: readonly z.core.$ZodIssue[], env: Record<string, string | undefined>): string[] {
  return issues.map((issue) => {
    const name = issue.path.join('.') || 'environment';
    const raw = env[name];
    const shown = raw === undefined || SECRET_NAMES.test(name) ? '' : ` (got "${raw}")`;
    return `  ${name}: ${issue.message}${shown}`;
  });
}
