// API keys for the reseller's own systems (ERP, monitoring, accounting). A key is made by a portal
// user who may manage users, is shown once, and is stored only as a hash. It acts with its role's
// permissions, never more than its creator holds at the time of the call: a demoted creator narrows
// the key, and a creator who cannot sign in (blocked, inactive, expired or deleted) stops it until
// they are restored. It may expire and may be held to a list of addresses and CIDR ranges.
// Shared by the server (the authority) and the client (the form checks the same rules first).
import type { RoleRef } from './permissions';

/** Every key starts with this, so that one found in a log or a repository is recognisable. */
export const API_KEY_PREFIX = 'slk_';
/** The random part: 32 bytes, base64url (43 characters). */
export const API_KEY_RANDOM_BYTES = 32;
/** How much of a key the list shows: the prefix and the first 8 random characters. */
export const API_KEY_SHOWN_LENGTH = API_KEY_PREFIX.length + 8;
/** The header a key travels in. */
export const API_KEY_HEADER_NAME = 'X-API-Key';
/** Requests one key may make in a minute, unless the server's API_KEY_RATE_LIMIT says otherwise. */
export const DEFAULT_API_KEY_RATE_LIMIT = 600;

export const API_KEY_LIMITS = { name: 80, allowedIps: 20, ipEntry: 64 } as const;

/**
 * - active: it works;
 * - expired / revoked: it never works again;
 * - suspended: its creator cannot sign in now (blocked, inactive, account expired or deleted); it
 *   works again if the creator is restored, and never if they were removed for good.
 */
export const API_KEY_STATUSES = ['active', 'expired', 'revoked', 'suspended'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const API_KEY_STATUS_LABELS: Record<ApiKeyStatus, string> = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
  suspended: 'Suspended',
};

export const API_KEY_STATUS_HELP: Record<ApiKeyStatus, string> = {
  active: 'The key works',
  expired: 'Its expiry has passed',
  revoked: 'It was revoked and never works again',
  suspended: 'Its creator cannot sign in now (blocked, inactive or deleted): it works again if they are restored',
};

export interface ApiKeyPerson {
  id: string;
  name: string;
  email: string;
}

/** One key as `GET /api-keys` answers it: never the key itself, only its first characters. */
export interface ApiKeyWire {
  id: string;
  name: string;
  /** `slk_` and the first 8 random characters. */
  prefix: string;
  role: RoleRef;
  /** Null when the creator was removed for good. */
  createdBy: ApiKeyPerson | null;
  createdAt: string;
  expiresAt: string | null;
  /** Empty: any address. */
  allowedIps: string[];
  /** To the minute: a busy key's use is recorded at most once a minute. */
  lastUsedAt: string | null;
  lastUsedIp: string | null;
  revokedAt: string | null;
  revokedBy: ApiKeyPerson | null;
  status: ApiKeyStatus;
}

/** The answer to a create: the key, in this answer only. */
export interface ApiKeyCreatedWire {
  key: ApiKeyWire;
  secret: string;
}

export interface ApiKeyInput {
  name: string;
  roleId: string;
  /** ISO date-time in the future; null or absent: never expires. */
  expiresAt?: string | null;
  /** Addresses and CIDR ranges, IPv4 or IPv6; empty or absent: any address. */
  allowedIps?: string[];
}

export const API_KEY_MESSAGES = {
  listed: 'API keys retrieved successfully',
  created: 'API key created. Copy it now: it is not shown again.',
  revoked: 'API key revoked',
  notFound: 'API key not found',
  alreadyRevoked: 'This API key is already revoked',
  nameRequired: 'Name is required',
  nameTooLong: `Name must be at most ${API_KEY_LIMITS.name} characters`,
  nameTaken: 'An API key in use already has this name',
  roleRequired: 'Choose a role',
  roleNotFound: 'Role not found',
  expiryInvalid: 'Expiry must be a date and time',
  expiryPast: 'Expiry must be in the future',
  tooManyIps: `At most ${API_KEY_LIMITS.allowedIps} addresses or ranges`,
  ipInvalid: (entry: string) => `${entry} is not an IP address or CIDR range (like 203.0.113.7, 198.51.100.0/24 or 2001:db8::/32)`,
  ipHostBits: (entry: string, network: string) => `${entry} is not the start of its range: did you mean ${network}?`,
  keyCreatesKey: 'API keys cannot create API keys; sign in as a person.',
} as const;

// ---- Addresses and ranges --------------------------------------------------------------------

export interface IpRange {
  family: 4 | 6;
  /** 4 or 16 bytes. */
  bytes: number[];
  prefix: number;
}

const V4_PART = /^(0|[1-9]\d{0,2})$/;

/** '203.0.113.7' → its 4 bytes; leading zeros are refused (some tools read them as octal). */
function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => V4_PART.test(p))) return null;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

const V6_GROUP = /^[0-9a-f]{1,4}$/i;

/** Any spelling of an IPv6 address (no zone) → its 16 bytes. */
function ipv6Bytes(text: string): number[] | null {
  if (!text.includes(':')) return null;
  let body = text;
  // A trailing dotted quad (::ffff:192.0.2.1) is the last two groups.
  const lastColon = body.lastIndexOf(':');
  if (body.slice(lastColon + 1).includes('.')) {
    const quad = ipv4Bytes(body.slice(lastColon + 1));
    if (!quad) return null;
    const [a = 0, b = 0, c = 0, d = 0] = quad;
    body = `${body.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(halves[0] ?? '');
  const rest = halves.length === 2 ? groups(halves[1] ?? '') : [];
  if (![...head, ...rest].every((g) => V6_GROUP.test(g))) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const words = [...head, ...Array<string>(missing).fill('0'), ...rest].map((g) => parseInt(g, 16));
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

/** A single address of either family, or null. */
export function parseIp(text: string): { family: 4 | 6; bytes: number[] } | null {
  const trimmed = text.trim();
  const v4 = ipv4Bytes(trimmed);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = ipv6Bytes(trimmed);
  return v6 ? { family: 6, bytes: v6 } : null;
}

/** '198.51.100.0/24', '2001:db8::/32', or a single address (its whole length); null otherwise. */
export function parseIpRange(text: string): IpRange | null {
  const [address = '', prefixText, ...extra] = text.trim().split('/');
  if (extra.length > 0) return null;
  const ip = parseIp(address);
  if (!ip) return null;
  const max = ip.family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^(0|[1-9]\d{0,2})$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  return prefix <= max ? { ...ip, prefix } : null;
}

/** The range's first address: its bytes with every bit past the prefix cleared. */
function networkBytes(range: IpRange): number[] {
  return range.bytes.map((byte, i) => {
    const keep = Math.max(0, Math.min(8, range.prefix - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
}

/** An address in its usual spelling (IPv6 with its longest run of zero groups as ::). */
export function formatIp(family: 4 | 6, bytes: readonly number[]): string {
  if (family === 4) return bytes.join('.');
  const words = Array.from({ length: 8 }, (_, i) => ((bytes[i * 2] ?? 0) << 8) | (bytes[i * 2 + 1] ?? 0));
  let best = { at: -1, length: 0 };
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > best.length && j - i > 1) best = { at: i, length: j - i };
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (best.at < 0) return hex.join(':');
  return `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.length).join(':')}`;
}

/** The problem with one allow-list entry, or null when it is a valid address or range. */
export function ipEntryProblem(entry: string): string | null {
  const text = entry.trim();
  const range = text.length <= API_KEY_LIMITS.ipEntry ? parseIpRange(text) : null;
  if (!range) return API_KEY_MESSAGES.ipInvalid(text.slice(0, API_KEY_LIMITS.ipEntry));
  const network = networkBytes(range);
  if (network.some((b, i) => b !== range.bytes[i])) return API_KEY_MESSAGES.ipHostBits(text, `${formatIp(range.family, network)}/${range.prefix}`);
  return null;
}

/** The allow-list's problems, one per entry at fault, by the entry's index. */
export function allowListProblems(entries: readonly string[]): { index: number | null; message: string }[] {
  if (entries.length > API_KEY_LIMITS.allowedIps) return [{ index: null, message: API_KEY_MESSAGES.tooManyIps }];
  return entries.flatMap((entry, index) => {
    const message = ipEntryProblem(entry);
    return message ? [{ index, message }] : [];
  });
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address it carries. */
function unmapped(ip: { family: 4 | 6; bytes: number[] }): { family: 4 | 6; bytes: number[] } {
  const b = ip.bytes;
  if (ip.family === 6 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return { family: 4, bytes: b.slice(12) };
  return ip;
}

/** Whether `address` lies in one of the entries (addresses or CIDR ranges, either family). */
export function ipAllowed(address: string, entries: readonly string[]): boolean {
  const parsed = parseIp(address);
  if (!parsed) return false;
  const ip = unmapped(parsed);
  return entries.some((entry) => {
    const range = parseIpRange(entry);
    if (!range) return false;
    // A range written as mapped IPv6 (::ffff:198.51.100.0/120) holds the IPv4 addresses it maps.
    const mapped = range.family === 6 && range.prefix >= 96 ? unmapped(range) : range;
    const net = mapped === range ? range : { ...mapped, prefix: range.prefix - 96 };
    if (net.family !== ip.family) return false;
    for (let bit = 0; bit < net.prefix; bit++) {
      const mask = 0x80 >> bit % 8;
      if (((ip.bytes[bit >> 3] ?? 0) & mask) !== ((net.bytes[bit >> 3] ?? 0) & mask)) return false;
    }
    return true;
  });
}

/** The allow-list as the form's text area holds it: one entry a line (commas and spaces also separate). */
export function splitAllowList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}
