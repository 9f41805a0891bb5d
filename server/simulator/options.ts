// The simulator's knobs, their defaults, and the SIM_* environment variables that set them.
import { z } from 'zod';
import { envFlag, envIssueLines, optionalEnv, wholeNumber } from '../env';
import { ConfigError, type Env } from '../config';
import { DEFAULT_SEED, DEFAULT_TERMINALS } from './fleet/state';

/** Misbehaviour to inject into /public/v2 answers, so clients can be tested against it. */
export interface Faults {
  /** Delay before every /public/v2 answer, in ms. */
  latencyMs: number;
  /** Share (0–1) of requests held back a further `spikeMs`: latency spikes on top of `latencyMs`. */
  spikeRate: number;
  /** How long a latency spike lasts, in ms (default 2000). */
  spikeMs: number;
  /** Share (0–1) of requests answered 429 whatever the rate limit says. */
  rate429: number;
  /**
   * Share (0–1) of requests that start a 429 burst: that request and the next
   * `burst429Length - 1` ones, whoever sends them, get the account's "rate limit exceeded" 429,
   * as when the provider's own limit trips. Dropped requests never reach it and do not count.
   */
  burst429Rate: number;
  /** Requests in one 429 burst, the one that starts it included (default 10). */
  burst429Length: number;
  /** Share (0–1) answered 500, 502 or 503. */
  rate5xx: number;
  /** Share (0–1) whose connection is destroyed without an answer. */
  dropRate: number;
  /**
   * List pages hold a stable, seed-shuffled selection, but the order within a page changes on
   * every request, as the real API's did: clients must key records by id, never by position.
   */
  shufflePages: boolean;
}

/** Nothing injected; a spike or burst, once given a rate, has these lengths unless told others. */
export const NO_FAULTS: Readonly<Faults> = Object.freeze({
  latencyMs: 0,
  spikeRate: 0,
  spikeMs: 2_000,
  rate429: 0,
  burst429Rate: 0,
  burst429Length: 10,
  rate5xx: 0,
  dropRate: 0,
  shufflePages: false,
});

export interface SimulatorCredentials {
  clientId: string;
  clientSecret: string;
}

/** The demo service account. Anyone can read it here: the simulator guards nothing real. */
export const DEMO_CREDENTIALS: Readonly<SimulatorCredentials> = Object.freeze({
  clientId: 'simulator-demo-client',
  clientSecret: 'simulator-demo-secret',
});

export interface SimulatorOptions {
  /** Same seed, same fleet. Default 'starlink-demo'. */
  seed?: string | number;
  /** Fleet size; default 156. */
  terminals?: number;
  /** Default: derived from the seed (`ACC-######-#####-##`). */
  accountNumber?: string;
  /** ISO 4217 code the account is billed in; default 'USD'. Prices are the USD list converted at fixed rates. */
  currency?: string;
  /** ISO 3166 alpha-2 code of the one country the account's sites are in; default: sites all over the world. */
  country?: string;
  credentials?: SimulatorCredentials;
  /** Access token lifetime; default 900 s. */
  tokenTtlSeconds?: number;
  /** Requests a minute per account on /public/v2 (the real one allows 250); null turns it off (demo default). */
  rateLimitPerMinute?: number | null;
  /** Token requests per 15 minutes per IP (the real one allows 1000). Default: 1000 when rateLimitPerMinute is set, else off. */
  tokenRateLimitPer15Minutes?: number | null;
  faults?: Partial<Faults>;
  /** The clock for token expiry, rate windows, usage and telemetry. */
  now?: () => Date;
  /**
   * The simulator's own controls beside the provider's API (POST /controls/…): make a line use
   * data now, to show an alert in a demo or a test. Off by default (SIM_CONTROLS=on): nothing of
   * the real provider answers there.
   */
  controls?: boolean;
}

export const DEFAULT_TOKEN_TTL_SECONDS = 900;
export const PROVIDER_RATE_LIMIT_PER_MINUTE = 250;
export const PROVIDER_TOKEN_RATE_LIMIT_PER_15_MINUTES = 1000;

/** Checks a partial set of faults; throws RangeError naming the bad field. */
export function validateFaults(faults: Partial<Faults>): Partial<Faults> {
  for (const name of ['spikeRate', 'rate429', 'burst429Rate', 'rate5xx', 'dropRate'] as const) {
    const value = faults[name];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= 1)) {
      throw new RangeError(`faults.${name} must be a number from 0 to 1 (got ${value})`);
    }
  }
  for (const name of ['latencyMs', 'spikeMs'] as const) {
    const value = faults[name];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= 600_000)) {
      throw new RangeError(`faults.${name} must be from 0 to 600000 (got ${value})`);
    }
  }
  const length = faults.burst429Length;
  if (length !== undefined && !(Number.isInteger(length) && length >= 1 && length <= 100_000)) {
    throw new RangeError(`faults.burst429Length must be a whole number from 1 to 100000 (got ${length})`);
  }
  return faults;
}

// ---- Environment ---------------------------------------------------------------------------

const share = z.coerce.number({ error: 'must be a number from 0 to 1' }).min(0, 'must be a number from 0 to 1').max(1, 'must be a number from 0 to 1');

const rateLimit = z
  .string()
  .trim()
  .toLowerCase()
  .refine((v) => v === 'off' || /^\d+$/.test(v), 'must be a whole number of requests a minute, or off')
  .transform((v) => (v === 'off' || Number(v) === 0 ? null : Number(v)));

const envSchema = z.object({
  SIM_SEED: optionalEnv(z.string().trim().min(1)),
  SIM_TERMINALS: optionalEnv(wholeNumber(1, 1_000_000)),
  SIM_RATE_LIMIT: optionalEnv(rateLimit),
  SIM_LATENCY_MS: optionalEnv(wholeNumber(0, 60_000)),
  SIM_SPIKE_RATE: optionalEnv(share),
  SIM_SPIKE_MS: optionalEnv(wholeNumber(0, 60_000)),
  SIM_429_RATE: optionalEnv(share),
  SIM_429_BURST_RATE: optionalEnv(share),
  SIM_429_BURST_LENGTH: optionalEnv(wholeNumber(1, 100_000)),
  SIM_5XX_RATE: optionalEnv(share),
  SIM_DROP_RATE: optionalEnv(share),
  SIM_SHUFFLE_PAGES: optionalEnv(envFlag),
  SIM_CONTROLS: optionalEnv(envFlag),
  SIM_CLIENT_ID: optionalEnv(z.string().trim().min(1)),
  SIM_CLIENT_SECRET: optionalEnv(z.string().min(1)),
});

const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';

/** SIM_* variables → SimulatorOptions (only what is set). Throws ConfigError listing every bad variable. */
export function simulatorOptionsFromEnv(env: Env = process.env): SimulatorOptions {
  const { options, lines } = readSimulatorEnv(env);
  if (!options || lines.length > 0) throw new ConfigError(`Invalid simulator environment:\n${lines.join('\n')}`);
  return options;
}

/** The SIM_* options, or null when the schema refused them, with one line per problem. */
function readSimulatorEnv(env: Env): { options: SimulatorOptions | null; lines: string[] } {
  const result = envSchema.safeParse(env);
  const lines = envIssueLines(result.error?.issues ?? [], env);
  // Checked apart from the schema so it is reported together with any other mistake.
  if (isSet(env.SIM_CLIENT_ID) !== isSet(env.SIM_CLIENT_SECRET)) {
    const missing = isSet(env.SIM_CLIENT_ID) ? 'SIM_CLIENT_SECRET' : 'SIM_CLIENT_ID';
    lines.push(`  ${missing}: SIM_CLIENT_ID and SIM_CLIENT_SECRET must be set together`);
  }
  if (!result.success) return { options: null, lines };
  const e = result.data;
  const options: SimulatorOptions = {};
  if (e.SIM_SEED !== undefined) options.seed = e.SIM_SEED;
  if (e.SIM_TERMINALS !== undefined) options.terminals = e.SIM_TERMINALS;
  if (e.SIM_RATE_LIMIT !== undefined) options.rateLimitPerMinute = e.SIM_RATE_LIMIT;
  if (e.SIM_CONTROLS !== undefined) options.controls = e.SIM_CONTROLS;
  if (e.SIM_CLIENT_ID && e.SIM_CLIENT_SECRET) options.credentials = { clientId: e.SIM_CLIENT_ID, clientSecret: e.SIM_CLIENT_SECRET };
  const faults: Partial<Faults> = {};
  if (e.SIM_LATENCY_MS !== undefined) faults.latencyMs = e.SIM_LATENCY_MS;
  if (e.SIM_SPIKE_RATE !== undefined) faults.spikeRate = e.SIM_SPIKE_RATE;
  if (e.SIM_SPIKE_MS !== undefined) faults.spikeMs = e.SIM_SPIKE_MS;
  if (e.SIM_429_RATE !== undefined) faults.rate429 = e.SIM_429_RATE;
  if (e.SIM_429_BURST_RATE !== undefined) faults.burst429Rate = e.SIM_429_BURST_RATE;
  if (e.SIM_429_BURST_LENGTH !== undefined) faults.burst429Length = e.SIM_429_BURST_LENGTH;
  if (e.SIM_5XX_RATE !== undefined) faults.rate5xx = e.SIM_5XX_RATE;
  if (e.SIM_DROP_RATE !== undefined) faults.dropRate = e.SIM_DROP_RATE;
  if (e.SIM_SHUFFLE_PAGES !== undefined) faults.shufflePages = e.SIM_SHUFFLE_PAGES;
  if (Object.keys(faults).length > 0) options.faults = faults;
  return { options, lines };
}

// ---- Several accounts ----------------------------------------------------------------------

/** One simulated provider account: a fleet of its own, with its own credentials and currency. */
export interface SimulatedAccount {
  /** URL-safe id, e.g. 'us', 'br'. The first account is mounted where the single simulator is today. */
  slug: string;
  /** Display name, e.g. 'Demo US', 'Demo Brasil'. */
  name: string;
  /** Everything createSimulator needs for this account: seed, terminals, currency, accountNumber, credentials?, faults... */
  options: SimulatorOptions;
}

/** The accounts SIM_ACCOUNTS knows by slug: a name, the currency they bill in, and the country their sites are in. */
export const ACCOUNT_PRESETS: Readonly<Record<string, { name: string; currency: string; country?: string }>> = {
  // The first demo account is the global fleet of a North American reseller: no one country.
  us: { name: 'Demo US', currency: 'USD' },
  br: { name: 'Demo Brasil', currency: 'BRL', country: 'BR' },
  // A European entity serves several countries: its sites stay spread as the catalog has them.
  eu: { name: 'Demo Europe', currency: 'EUR' },
  au: { name: 'Demo Australia', currency: 'AUD', country: 'AU' },
};

export const DEFAULT_SIM_ACCOUNTS = 'us,br';
/** Smallest fleet of an account after the first, whatever share of the first's it would be. */
const MIN_OTHER_TERMINALS = 12;
const SLUG = /^[a-z][a-z0-9-]{0,23}$/;
const MAX_ACCOUNT_TERMINALS = 1_000_000;

interface AccountEntry {
  slug: string;
  terminals: number | undefined;
}

/** SIM_ACCOUNTS → its entries, or a line per problem. */
function readAccountList(raw: string): { entries: AccountEntry[]; lines: string[] } {
  const entries: AccountEntry[] = [];
  const lines: string[] = [];
  const problem = (message: string) => lines.push(`  SIM_ACCOUNTS: ${message} (got "${raw}")`);
  for (const item of raw.split(',').map((part) => part.trim())) {
    const match = /^([^:]*)(?::(.*))?$/.exec(item)!;
    const slug = match[1]!.trim();
    const count = match[2]?.trim();
    if (!SLUG.test(slug)) {
      problem(
        item === ''
          ? 'an account is missing between commas'
          : `"${slug}" is not an account slug: lower-case letters, digits and dashes, starting with a letter, at most 24 characters`,
      );
      continue;
    }
    if (count !== undefined && !(/^\d+$/.test(count) && Number(count) >= 1 && Number(count) <= MAX_ACCOUNT_TERMINALS)) {
      problem(`the terminals of ${slug} must be a whole number from 1 to ${MAX_ACCOUNT_TERMINALS}, as in ${slug}:40`);
      continue;
    }
    if (entries.some((entry) => entry.slug === slug)) {
      problem(`${slug} is listed twice`);
      continue;
    }
    entries.push({ slug, terminals: count === undefined ? undefined : Number(count) });
  }
  return { entries, lines };
}

const presetOf = (slug: string) => ACCOUNT_PRESETS[slug] ?? { name: `Simulated ${slug}`, currency: 'USD' };

/**
 * The simulated accounts: SIM_ACCOUNTS (comma-separated `slug` or `slug:terminals`, default
 * `us,br`). The first takes every other SIM_* setting, as the single simulator did; the others
 * copy its settings but for a seed of their own (`<first seed>-<slug>`), their currency and
 * country, no fixed account number or credentials (the portal makes them), and their terminals:
 * the count given, else a third of the first's, at least 12. Throws ConfigError listing every
 * bad SIM_* variable.
 */
export function simulatedAccountsFromEnv(env: Env = process.env): SimulatedAccount[] {
  const read = readSimulatorEnv(env);
  const raw = isSet(env.SIM_ACCOUNTS) ? env.SIM_ACCOUNTS!.trim() : DEFAULT_SIM_ACCOUNTS;
  const { entries, lines } = readAccountList(raw);
  const first = entries[0];
  // The first account's size is SIM_TERMINALS; a count beside its slug may stand in for it, not contradict it.
  if (first?.terminals !== undefined && read.options?.terminals !== undefined && first.terminals !== read.options.terminals) {
    lines.push(`  SIM_ACCOUNTS: ${first.slug}:${first.terminals} disagrees with SIM_TERMINALS=${read.options.terminals}; give the first account's terminals in one place (got "${raw}")`);
  }
  const allLines = [...read.lines, ...lines];
  if (!read.options || allLines.length > 0 || !first) throw new ConfigError(`Invalid simulator environment:\n${allLines.join('\n')}`);
  const base = read.options;
  const firstPreset = presetOf(first.slug);
  const firstOptions: SimulatorOptions = { ...base, currency: firstPreset.currency };
  if (first.terminals !== undefined) firstOptions.terminals = first.terminals;
  if (firstPreset.country !== undefined) firstOptions.country = firstPreset.country;
  const firstSeed = String(base.seed ?? DEFAULT_SEED);
  const firstTerminals = firstOptions.terminals ?? DEFAULT_TERMINALS;
  const accounts: SimulatedAccount[] = [{ slug: first.slug, name: firstPreset.name, options: firstOptions }];
  for (const entry of entries.slice(1)) {
    const preset = presetOf(entry.slug);
    const options: SimulatorOptions = {
      ...firstOptions,
      seed: `${firstSeed}-${entry.slug}`,
      terminals: entry.terminals ?? Math.max(MIN_OTHER_TERMINALS, Math.round(firstTerminals / 3)),
      currency: preset.currency,
    };
    // Credentials and the account number belong to the first account: the others get their own.
    delete options.credentials;
    delete options.accountNumber;
    delete options.country;
    if (preset.country !== undefined) options.country = preset.country;
    accounts.push({ slug: entry.slug, name: preset.name, options });
  }
  return accounts;
}
