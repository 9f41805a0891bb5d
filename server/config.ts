// Environment → typed Config. Every variable is checked up front so a bad value stops start-up
// with one readable message instead of failing later with a stack trace.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_API_KEY_RATE_LIMIT } from '../src/domain/api-keys';
import { DEFAULT_SYNC_SHARE, SYNC_SHARE_RANGE } from '../src/domain/provider-budget';
import { decodeSecretBoxKey, newSecretBoxKey } from './auth/secret-box';
import { parseCidr } from './webhooks/address-guard';
import { envFlag, envIssueLines, optionalEnv, wholeNumber } from './env';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Absolute. Holds the embedded database and the generated JWT secret. */
  dataDir: string;
  /** PostgreSQL server URL, or null for the embedded database. */
  databaseUrl: string | null;
  jwtSecret: string;
  jwtSecretSource: 'env' | 'file' | 'generated';
  jwtExpiresIn: string;
  jwtExpiresInSeconds: number;
  adminEmail: string | null;
  adminPassword: string | null;
  seedDemo: boolean;
  /** Login attempts per client IP per minute, over both login routes together. */
  loginRateLimit: number;
  /** Answers of "Route not found" per client IP per minute (probing unknown paths is throttled). */
  notFoundRateLimit: number;
  /** Requests one API key may make per minute (API_KEY_RATE_LIMIT), in each server process. */
  apiKeyRateLimit: number;
  logLevel: LogLevel;
  /** Absolute. The built SPA; served when it holds an index.html. */
  clientDir: string;
  /** The address people open, when it is not this server's own (the Vite dev server in `npm run dev`). */
  publicUrl: string | null;
  /**
   * Behind a reverse proxy: which X-Forwarded-For hops to believe (false = none, true = all, a hop
   * count, or a comma-separated list of proxy addresses/CIDRs). Sign-in rate limits and last_ip use it.
   */
  trustProxy: boolean | number | string;
  /** smtp:// or smtps:// URL of the mail server; null records and logs email without sending it. */
  smtpUrl: string | null;
  /** The From of outgoing email. */
  mailFrom: string;
  /**
   * How often the terminal inventory is synced from the provider (SYNC_INTERVAL); null turns the
   * automatic syncs off (the periodic one and the first one on an empty inventory).
   */
  syncIntervalMs: number | null;
  /**
   * How often usage is read on its own schedule, besides the run that follows each inventory
   * sync (USAGE_SYNC_INTERVAL); null turns only this schedule off. SYNC_INTERVAL=off stops it too.
   */
  usageSyncIntervalMs: number | null;
  /** A running sync whose heartbeat is older than this is taken for dead (SYNC_STALE_AFTER). */
  syncStaleAfterMs: number;
  /**
   * Billing cycles before the current one read the first time a line's usage is read
   * (USAGE_HISTORY_CYCLES, 0–23): 11 by default, a year in all. Later runs read the last cycle and
   * this one whatever it is.
   */
  usageHistoryCycles: number;
  /**
   * The share (0.1–1) of the provider call budget background syncs may use (PROVIDER_SYNC_SHARE);
   * people's calls may use all of it and go first.
   */
  providerSyncShare: number;
  /**
   * Server processes `npm start` runs on one port (WORKERS, node:cluster): 1 unless set. More than
   * one needs DATABASE_URL, since the embedded database belongs to one process.
   */
  workers: number;
  /**
   * The AES-256-GCM key of MFA secrets at rest (MFA_ENCRYPTION_KEY, else `${DATA_DIR}/mfa-key`).
   * Several processes on one DATABASE_URL must share it, so set the variable there: a key file per
   * host would leave each process unable to read the others' secrets. loadConfig always fills it;
   * null only in a Config assembled by hand, where MFA set-up is then refused.
   */
  mfaEncryptionKey: Buffer | null;
  mfaKeySource: 'env' | 'file' | 'generated' | 'none';
  /**
   * Webhook endpoints may use plain http:// to a localhost name, and reach loopback through it
   * (WEBHOOK_ALLOW_HTTP_LOCALHOST; off unless set): for a receiver on the same machine.
   */
  webhookAllowHttpLocalhost: boolean;
  /**
   * Networks (CIDRs) webhook endpoints may resolve into although they are private, loopback or
   * otherwise reserved (WEBHOOK_ALLOWED_NETWORKS, comma-separated; none unless set).
   */
  webhookAllowedNetworks: string[];
}

export const DEFAULT_MAIL_FROM = 'Admin Portal <no-reply@localhost>';
const SMTP_URL_PATTERN = /^smtps?:\/\/[^\s/?#]+/i;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const DURATION = /^(\d+)\s*(s|m|h|d)?$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

export const DEFAULT_SYNC_INTERVAL = '15m';
export const DEFAULT_SYNC_STALE_AFTER = '2m';
export const DEFAULT_USAGE_SYNC_INTERVAL = '1h';
export const DEFAULT_USAGE_HISTORY_CYCLES = 11;
/** The provider answers at most this many earlier cycles in one usage query. */
export const MAX_USAGE_HISTORY_CYCLES = 23;
const SYNC_DURATION = /^(\d+)\s*(s|m|h|d)?$/;
const SYNC_INTERVAL_MESSAGE = 'must be a duration of at least 1 minute like 15m, 1h, 900s or plain minutes, or 0/off to turn it off';
const SYNC_STALE_MESSAGE = 'must be a duration from 30s to 1h like 2m, 90s or plain minutes';
const SYNC_SHARE_MESSAGE = `must be a number from ${SYNC_SHARE_RANGE.min} to ${SYNC_SHARE_RANGE.max}, the share of the provider call budget syncs may use (e.g. 0.7)`;

/** '15m', '1h', '900s', '7d' or plain minutes ('15') → milliseconds; 'off' and '0' → null; junk → undefined. */
export function syncDurationMs(value: string): number | null | undefined {
  const text = value.trim().toLowerCase();
  if (text === 'off' || text === '0') return null;
  const match = SYNC_DURATION.exec(text);
  if (!match) return undefined;
  const seconds = Number(match[1]) * UNIT_SECONDS[(match[2] ?? 'm') as keyof typeof UNIT_SECONDS];
  return seconds > 0 ? seconds * 1000 : null;
}

/** '12h' → 43200; a bare number is seconds. */
export function durationToSeconds(value: string): number | null {
  const match = DURATION.exec(value.trim());
  if (!match) return null;
  const seconds = Number(match[1]) * UNIT_SECONDS[(match[2] ?? 's') as keyof typeof UNIT_SECONDS];
  return seconds > 0 ? seconds : null;
}

const WEBHOOK_NETWORKS_MESSAGE = 'must be networks like 10.0.0.0/8 or fd00::/8 (or single addresses), separated by commas';

const syncInterval = z.string().refine((v) => {
  const ms = syncDurationMs(v);
  return ms === null || (ms !== undefined && ms >= 60_000 && ms <= 30 * 86_400_000);
}, SYNC_INTERVAL_MESSAGE);

const envSchema = z
  .object({
    PORT: optionalEnv(wholeNumber(0, 65_535, 'must be a port number (0-65535)')),
    HOST: optionalEnv(z.string().trim()),
    DATA_DIR: optionalEnv(z.string()),
    DATABASE_URL: optionalEnv(
      z.string().trim().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL'),
    ),
    JWT_SECRET: optionalEnv(z.string().min(32, 'must be at least 32 characters')),
    JWT_EXPIRES_IN: optionalEnv(
      z.string().refine((v) => durationToSeconds(v) !== null, 'must be a duration like 3600, 45m, 12h or 7d'),
    ),
    ADMIN_EMAIL: optionalEnv(z.string().trim().toLowerCase().pipe(z.email('must be an email address'))),
    ADMIN_PASSWORD: optionalEnv(z.string().min(8, 'must be at least 8 characters').max(256)),
    SEED_DEMO: optionalEnv(envFlag),
    LOGIN_RATE_LIMIT: optionalEnv(wholeNumber(1, 100_000, 'must be a whole number from 1 to 100000')),
    NOT_FOUND_RATE_LIMIT: optionalEnv(wholeNumber(1, 100_000, 'must be a whole number from 1 to 100000')),
    API_KEY_RATE_LIMIT: optionalEnv(wholeNumber(1, 100_000, 'must be a whole number from 1 to 100000')),
    LOG_LEVEL: optionalEnv(z.enum(LOG_LEVELS)),
    CLIENT_DIR: optionalEnv(z.string()),
    PUBLIC_URL: optionalEnv(z.url('must be an http(s) URL')),
    TRUST_PROXY: optionalEnv(
      z
        .string()
        .trim()
        .regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, 'must be true, false, a hop count, or proxy addresses separated by commas')
        .transform((v) => (v === 'true' ? true : v === 'false' ? false : /^\d{1,2}$/.test(v) ? Number(v) : v)),
    ),
    // Checked in superRefine: the URL may hold the SMTP password, and a problem reported under
    // its own name would echo the value.
    SMTP_URL: optionalEnv(z.string().trim()),
    // Checked in superRefine for the same reason: a key must never be echoed.
    MFA_ENCRYPTION_KEY: optionalEnv(z.string().trim()),
    MAIL_FROM: optionalEnv(z.string().trim().max(320, 'must be at most 320 characters')),
    // Syncs start on a per-minute tick, so anything shorter than a minute could not be honoured.
    SYNC_INTERVAL: optionalEnv(syncInterval),
    USAGE_SYNC_INTERVAL: optionalEnv(syncInterval),
    // The worker beats every few seconds; under 30 s a slow database round trip would look like a death.
    SYNC_STALE_AFTER: optionalEnv(
      z.string().refine((v) => {
        const ms = syncDurationMs(v);
        return typeof ms === 'number' && ms >= 30_000 && ms <= 3_600_000;
      }, SYNC_STALE_MESSAGE),
    ),
    USAGE_HISTORY_CYCLES: optionalEnv(
      wholeNumber(0, MAX_USAGE_HISTORY_CYCLES, `must be a whole number from 0 to ${MAX_USAGE_HISTORY_CYCLES}, the billing cycles before the current one a line's first usage read goes back`),
    ),
    WORKERS: optionalEnv(wholeNumber(1, 64, 'must be a whole number from 1 to 64')),
    PROVIDER_SYNC_SHARE: optionalEnv(
      z
        .string()
        .trim()
        .regex(/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/, SYNC_SHARE_MESSAGE)
        .transform(Number)
        .refine((v) => v >= SYNC_SHARE_RANGE.min && v <= SYNC_SHARE_RANGE.max, SYNC_SHARE_MESSAGE),
    ),
    WEBHOOK_ALLOW_HTTP_LOCALHOST: optionalEnv(envFlag),
    WEBHOOK_ALLOWED_NETWORKS: optionalEnv(
      z
        .string()
        .transform((v) => v.split(',').map((part) => part.trim()).filter((part) => part !== ''))
        .refine((list) => list.every((part) => parseCidr(part) !== null), WEBHOOK_NETWORKS_MESSAGE),
    ),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.ADMIN_EMAIL) !== Boolean(env.ADMIN_PASSWORD)) {
      ctx.addIssue({
        code: 'custom',
        path: [env.ADMIN_EMAIL ? 'ADMIN_PASSWORD' : 'ADMIN_EMAIL'],
        message: 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together',
      });
    }
    if (env.WORKERS !== undefined && env.WORKERS > 1 && !env.DATABASE_URL) {
      ctx.addIssue({ code: 'custom', path: ['WORKERS'], message: 'more than one needs DATABASE_URL: the embedded database belongs to one process' });
    }
    if (env.SMTP_URL && !SMTP_URL_PATTERN.test(env.SMTP_URL)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'SMTP_URL must be an smtp:// or smtps:// URL (value not shown)' });
    }
    if (env.MFA_ENCRYPTION_KEY && !decodeSecretBoxKey(env.MFA_ENCRYPTION_KEY)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'MFA_ENCRYPTION_KEY must be 32 bytes written as 64 hex digits or base64 (value not shown)' });
    }
  });

export type Env = Record<string, string | undefined>;

/** Parses the environment without touching the disk; the JWT secret and the MFA key may still be missing. */
export function parseEnv(env: Env, cwd: string = process.cwd()): Omit<Config, 'jwtSecret' | 'jwtSecretSource'> & { jwtSecret: string | null } {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(`Invalid environment:\n${envIssueLines(result.error.issues, env).join('\n')}`);
  }
  const e = result.data;
  const jwtExpiresIn = e.JWT_EXPIRES_IN ?? '12h';
  return {
    port: e.PORT ?? 3000,
    host: e.HOST ?? '0.0.0.0',
    dataDir: path.resolve(cwd, e.DATA_DIR ?? './data'),
    databaseUrl: e.DATABASE_URL ?? null,
    jwtSecret: e.JWT_SECRET ?? null,
    jwtExpiresIn,
    jwtExpiresInSeconds: durationToSeconds(jwtExpiresIn) ?? 43_200,
    adminEmail: e.ADMIN_EMAIL ?? null,
    adminPassword: e.ADMIN_PASSWORD ?? null,
    // Demo data suits the zero-setup embedded run, not somebody's PostgreSQL server.
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    loginRateLimit: e.LOGIN_RATE_LIMIT ?? 30,
    notFoundRateLimit: e.NOT_FOUND_RATE_LIMIT ?? 120,
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT ?? DEFAULT_API_KEY_RATE_LIMIT,
    logLevel: e.LOG_LEVEL ?? 'info',
    clientDir: path.resolve(cwd, e.CLIENT_DIR ?? 'dist/client'),
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, '') ?? null,
    trustProxy: e.TRUST_PROXY ?? false,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? DEFAULT_MAIL_FROM,
    syncIntervalMs: syncDurationMs(e.SYNC_INTERVAL ?? DEFAULT_SYNC_INTERVAL) ?? null,
    usageSyncIntervalMs: syncDurationMs(e.USAGE_SYNC_INTERVAL ?? DEFAULT_USAGE_SYNC_INTERVAL) ?? null,
    syncStaleAfterMs: syncDurationMs(e.SYNC_STALE_AFTER ?? DEFAULT_SYNC_STALE_AFTER) ?? 120_000,
    usageHistoryCycles: e.USAGE_HISTORY_CYCLES ?? DEFAULT_USAGE_HISTORY_CYCLES,
    providerSyncShare: e.PROVIDER_SYNC_SHARE ?? DEFAULT_SYNC_SHARE,
    workers: e.WORKERS ?? 1,
    mfaEncryptionKey: e.MFA_ENCRYPTION_KEY ? decodeSecretBoxKey(e.MFA_ENCRYPTION_KEY) : null,
    mfaKeySource: e.MFA_ENCRYPTION_KEY ? 'env' : 'none',
    webhookAllowHttpLocalhost: e.WEBHOOK_ALLOW_HTTP_LOCALHOST ?? false,
    webhookAllowedNetworks: e.WEBHOOK_ALLOWED_NETWORKS ?? [],
  };
}

/** Where the embedded (PGlite) database lives inside DATA_DIR. */
export function embeddedDataDir(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'pglite');
}

/**
 * Parses the environment and, without JWT_SECRET, reads or creates `${DATA_DIR}/jwt-secret`;
 * without MFA_ENCRYPTION_KEY, likewise `${DATA_DIR}/mfa-key`.
 */
export async function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Promise<Config> {
  const parsed = parseEnv(env, cwd);
  const jwt = parsed.jwtSecret
    ? { jwtSecret: parsed.jwtSecret, jwtSecretSource: 'env' as const }
    : await readOrCreateSecret(parsed.dataDir).then(({ secret, created }) => ({
        jwtSecret: secret,
        jwtSecretSource: created ? ('generated' as const) : ('file' as const),
      }));
  const mfa = parsed.mfaEncryptionKey
    ? { mfaEncryptionKey: parsed.mfaEncryptionKey, mfaKeySource: 'env' as const }
    : await readOrCreateMfaKey(parsed.dataDir).then(({ key, created }) => ({
        mfaEncryptionKey: key,
        mfaKeySource: created ? ('generated' as const) : ('file' as const),
      }));
  return { ...parsed, ...jwt, ...mfa };
}

function readOrCreateSecret(dataDir: string): Promise<{ secret: string; created: boolean }> {
  return readOrCreateFile(
    path.join(dataDir, 'jwt-secret'),
    (text, file) => {
      if (text.length < 32) throw new ConfigError(`${file} holds a secret shorter than 32 characters; delete it to regenerate`);
      return text;
    },
    () => randomBytes(48).toString('base64url'),
  ).then(({ value, created }) => ({ secret: value, created }));
}

function readOrCreateMfaKey(dataDir: string): Promise<{ key: Buffer; created: boolean }> {
  return readOrCreateFile(
    path.join(dataDir, 'mfa-key'),
    (text, file) => {
      const key = decodeSecretBoxKey(text);
      // Regenerating would make every stored MFA secret unreadable, so a damaged file stops start-up.
      if (!key) throw new ConfigError(`${file} does not hold a 32-byte key (64 hex digits or base64); restore it or set MFA_ENCRYPTION_KEY`);
      return key;
    },
    () => newSecretBoxKey().toString('base64url'),
  ).then(({ value, created }) => ({ key: value, created }));
}

/** Reads a secret file made by a previous start, or creates it (mode 0600) with `create()`. */
async function readOrCreateFile<T>(
  file: string,
  decode: (text: string, file: string) => T,
  create: () => string,
): Promise<{ value: T; created: boolean }> {
  const dataDir = path.dirname(file);
  try {
    return { value: decode((await readFile(file, 'utf8')).trim(), file), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      if (error instanceof ConfigError) throw error;
      throw new ConfigError(`Cannot read ${file}: ${(error as Error).message}`);
    }
  }
  try {
    await mkdir(dataDir, { recursive: true });
    const text = create();
    // 'wx' fails if another process created the file meanwhile; then its secret wins.
    await writeFile(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
    await chmod(file, 0o600);
    return { value: decode(text, file), created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateFile(file, decode, create);
    throw new ConfigError(`Cannot write ${file}: ${(error as Error).message}`);
  }
}
