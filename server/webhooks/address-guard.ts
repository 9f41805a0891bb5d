// Where a webhook may go. An admin types the URL, but the server makes the request, so
// a URL naming an address inside our own network would let anyone with the admin role probe it
// (server-side request forgery). The check runs when an endpoint is registered or changed AND on
// every attempt, and the sender's connection resolves the host through `lookup` below, which runs
// it once more on the addresses it actually connects to: a name that resolved to a public address
// when checked and to a private one a moment later (DNS rebinding) is refused before connecting.
//
// Refused: every address in a private, loopback, link-local, shared (CGNAT), unspecified,
// multicast, documentation, benchmarking or otherwise reserved range, and IPv6 forms that carry
// an IPv4 address (mapped, NAT64, 6to4) when that address is refused. Allowed anyway: addresses
// inside a network of WEBHOOK_ALLOWED_NETWORKS, and loopback reached through a localhost name
// when WEBHOOK_ALLOW_HTTP_LOCALHOST is on.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_MESSAGES as M, isLocalhostName, webhookUrlProblem } from '../../src/domain/webhooks';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (A and AAAA); tests inject their own map of names. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export interface AddressPolicy {
  /** WEBHOOK_ALLOW_HTTP_LOCALHOST: plain http, and loopback, through a localhost name. */
  allowHttpLocalhost: boolean;
  /** WEBHOOK_ALLOWED_NETWORKS: CIDRs whose addresses are allowed whatever range they are in. */
  allowedNetworks: readonly string[];
}

export type UrlCheck = { ok: true; url: URL; hostname: string; addresses: ResolvedAddress[] } | { ok: false; message: string };

/** The callback shape of `dns.lookup`, which node:http's `lookup` option takes. */
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type GuardedLookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

export interface AddressGuard {
  /** The URL's shape, then every address its host resolves to; the first problem in WEBHOOK_MESSAGES' words. */
  checkUrl(url: string): Promise<UrlCheck>;
  /** Why `hostname` must not be reached at `address`, or null when it may. */
  addressProblem(hostname: string, address: string): string | null;
  /** `dns.lookup` for node:http, refusing (before any connection) what addressProblem refuses. */
  lookup: GuardedLookup;
}

/** Raised through `lookup` when a resolved address is refused; the sender reports its message. */
export class WebhookAddressError extends Error {
  override name = 'WebhookAddressError';
  readonly code = 'EWEBHOOKADDRESS';
}

// IANA's special-purpose registries (RFC 6890 and successors), IPv4 then IPv6.
const REFUSED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];
const REFUSED_V6: readonly [string, number][] = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['5f00::', 16], // segment routing
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const refused = new BlockList();
for (const [network, prefix] of REFUSED_V4) refused.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of REFUSED_V6) refused.addSubnet(network, prefix, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export interface Cidr {
  network: string;
  prefix: number;
  family: 4 | 6;
}

/** '10.0.0.0/8', 'fd00::/8', or a single address (a whole-length prefix); null for anything else. */
export function parseCidr(text: string): Cidr | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0) return null;
  const family = isIP(address);
  if (family !== 4 && family !== 6) return null;
  const max = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  return prefix <= max ? { network: address, prefix, family } : null;
}

/** The 16 bytes of an IPv6 address in any of its spellings (net.isIP must have said 6). */
function ipv6Bytes(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const words: number[] = [];
  // A trailing dotted quad (::ffff:1.2.3.4) is the last two words.
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  words.push(...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back);
  return words.flatMap((w) => [w >> 8, w & 0xff]);
}

const dotted = (bytes: number[]) => bytes.join('.');

/**
 * The IPv4 address an IPv6 one carries where a router would deliver it to that IPv4 address:
 * IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). Null otherwise.
 */
export function embeddedIpv4(address: string): string | null {
  if (isIP(address) !== 6) return null;
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return dotted(b.slice(12));
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return dotted(b.slice(12));
  if (b[0] === 0x20 && b[1] === 0x02) return dotted(b.slice(2, 6));
  return null;
}

/** Whether an address (either family) is in a refused range. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refused.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  return refused.check(address, 'ipv6') || (inner !== null && refused.check(inner, 'ipv4'));
}

export function createAddressGuard(options: AddressPolicy & { resolve?: Resolve }): AddressGuard {
  const resolve = options.resolve ?? systemResolve;
  const allowed = new BlockList();
  for (const text of options.allowedNetworks) {
    const cidr = parseCidr(text);
    // config.ts refuses a bad CIDR at start-up; one that slips through allows nothing.
    if (cidr) allowed.addSubnet(cidr.network, cidr.prefix, cidr.family === 4 ? 'ipv4' : 'ipv6');
  }

  const isAllowed = (address: string) => {
    const family = isIP(address);
    if (family === 4) return allowed.check(address, 'ipv4');
    if (family !== 6) return false;
    const inner = embeddedIpv4(address);
    return allowed.check(address, 'ipv6') || (inner !== null && allowed.check(inner, 'ipv4'));
  };

  function addressProblem(hostname: string, address: string): string | null {
    const host = hostname.replace(/^\[|\]$/g, '');
    if (!isRefusedAddress(address) || isAllowed(address)) return null;
    const inner = embeddedIpv4(address);
    const isLoopback = loopback.check(address, isIP(address) === 4 ? 'ipv4' : 'ipv6') || (inner !== null && loopback.check(inner, 'ipv4'));
    if (isLoopback && options.allowHttpLocalhost && isLocalhostName(host)) return null;
    return M.urlPrivateAddress(host, address);
  }

  async function addressesOf(hostname: string): Promise<ResolvedAddress[] | null> {
    const literal = isIP(hostname);
    if (literal === 4 || literal === 6) return [{ address: hostname, family: literal }];
    try {
      const found = await resolve(hostname);
      return found.length > 0 ? found : null;
    } catch {
      return null;
    }
  }

  return {
    addressProblem,

    async checkUrl(url) {
      const shape = webhookUrlProblem(url, options.allowHttpLocalhost);
      if (shape) return { ok: false, message: shape };
      const parsed = new URL(url.trim());
      const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
      const addresses = await addressesOf(hostname);
      if (!addresses) return { ok: false, message: M.urlUnresolvable(hostname) };
      for (const { address } of addresses) {
        const problem = addressProblem(hostname, address);
        if (problem) return { ok: false, message: problem };
      }
      return { ok: true, url: parsed, hostname, addresses };
    },

    lookup(hostname, lookupOptions, callback) {
      addressesOf(hostname).then(
        (addresses) => {
          if (!addresses) {
            callback(Object.assign(new WebhookAddressError(M.urlUnresolvable(hostname)), { code: 'ENOTFOUND' }), '');
            return;
          }
          // Every address is checked, not only the one used: the connection may fall back to another.
          for (const { address } of addresses) {
            const problem = addressProblem(hostname, address);
            if (problem) {
              callback(new WebhookAddressError(problem), '');
              return;
            }
          }
          const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? addresses.filter((a) => a.family === lookupOptions.family) : addresses;
          const usable = wanted.length > 0 ? wanted : addresses;
          if (lookupOptions.all) callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
          else callback(null, usable[0]!.address, usable[0]!.family);
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), ''),
      );
    },
  };
}
