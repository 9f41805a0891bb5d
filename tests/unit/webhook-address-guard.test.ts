// Where a webhook may go: the URL's shape, then every address its host resolves to, refused in
// private, loopback, link-local, shared, reserved and multicast ranges (and IPv6 spellings that
// carry such an IPv4 address) unless a configured network allows it; localhost only when allowed.
// The resolver is injected, so names map to whatever address a case needs.
import { describe, expect, it } from 'vitest';
import { WEBHOOK_MESSAGES as M, WEBHOOK_URL_MAX_LENGTH } from '../../src/domain/webhooks';
import { createAddressGuard, embeddedIpv4, isRefusedAddress, parseCidr, type Resolve } from '../../server/webhooks/address-guard';

const names: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34'],
  'dual.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'intranet.example.com': ['192.168.1.10'],
  'sneaky.example.com': ['93.184.216.34', '10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'ula.example.com': ['fd12:3456::1'],
  localhost: ['127.0.0.1', '::1'],
  'evil.localhost': ['10.0.0.1'],
};
const resolve: Resolve = async (host) => {
  const found = names[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const guard = (options: { allowHttpLocalhost?: boolean; allowedNetworks?: string[] } = {}) =>
  createAddressGuard({ allowHttpLocalhost: options.allowHttpLocalhost ?? false, allowedNetworks: options.allowedNetworks ?? [], resolve });

const problemOf = async (url: string, options?: Parameters<typeof guard>[0]) => {
  const result = await guard(options).checkUrl(url);
  return result.ok ? null : result.message;
};

describe('the webhook address guard', () => {
  it('lets https to a public host through, with every address it resolved to', async () => {
    const result = await guard().checkUrl('https://dual.example.com/hooks?x=1');
    expect(result.ok).toBe(true);
    expect(result.ok && result.addresses.map((a) => a.address)).toEqual(names['dual.example.com']);
  });

  it('refuses plain http, other schemes, credentials and malformed URLs with their messages', async () => {
    expect(await problemOf('http://example.com/hooks')).toBe(M.urlHttpOnlyLocalhost);
    expect(await problemOf('ftp://example.com/')).toBe(M.urlNotHttps);
    expect(await problemOf('https://user:pw@hooks.example.com/')).toBe(M.urlCredentials);
    expect(await problemOf('not a url')).toBe(M.urlInvalid);
    expect(await problemOf('  ')).toBe(M.urlRequired);
    expect(await problemOf(`https://hooks.example.com/${'a'.repeat(WEBHOOK_URL_MAX_LENGTH)}`)).toBe(M.urlTooLong);
  });

  it.each([
    ['https://10.0.0.5/', '10.0.0.5'],
    ['https://172.16.9.9/', '172.16.9.9'],
    ['https://192.168.0.1/', '192.168.0.1'],
    ['https://127.0.0.1/', '127.0.0.1'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254'],
    ['https://100.64.0.1/', '100.64.0.1'],
    ['https://0.0.0.0/', '0.0.0.0'],
    ['https://224.0.0.1/', '224.0.0.1'],
    ['https://255.255.255.255/', '255.255.255.255'],
    ['https://198.18.0.1/', '198.18.0.1'],
    ['https://[::1]/', '::1'],
    ['https://[::]/', '::'],
    ['https://[fd00::1]/', 'fd00::1'],
    ['https://[fe80::1]/', 'fe80::1'],
    ['https://[ff02::1]/', 'ff02::1'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['https://[::ffff:a9fe:a9fe]/', '::ffff:a9fe:a9fe'],
    ['https://[64:ff9b::a00:1]/', '64:ff9b::a00:1'],
    ['https://[2002:c0a8:101::1]/', '2002:c0a8:101::1'],
    // WHATWG URL reads these as 127.0.0.1: the check sees the address the request would use.
    ['https://2130706433/', '127.0.0.1'],
    ['https://0x7f.1/', '127.0.0.1'],
  ])('refuses %s, an address in a refused range', async (url, address) => {
    expect(await problemOf(url)).toBe(M.urlPrivateAddress(address.includes(':') ? new URL(url).hostname.slice(1, -1) : address, address));
  });

  it('refuses a name that resolves into a private network, naming the name and the address', async () => {
    expect(await problemOf('https://intranet.example.com/hook')).toBe(M.urlPrivateAddress('intranet.example.com', '192.168.1.10'));
    expect(await problemOf('https://metadata.example.com/')).toBe(M.urlPrivateAddress('metadata.example.com', '169.254.169.254'));
    expect(await problemOf('https://ula.example.com/')).toBe(M.urlPrivateAddress('ula.example.com', 'fd12:3456::1'));
  });

  it('refuses a name when any one of its addresses is refused, not only the first', async () => {
    expect(await problemOf('https://sneaky.example.com/')).toBe(M.urlPrivateAddress('sneaky.example.com', '10.1.2.3'));
  });

  it('refuses a name that does not resolve', async () => {
    expect(await problemOf('https://nowhere.example.com/')).toBe(M.urlUnresolvable('nowhere.example.com'));
  });

  it('allows addresses inside a configured network, and only those', async () => {
    const allowed = { allowedNetworks: ['10.0.0.0/8', '192.168.1.10', 'fd12::/16'] };
    expect(await problemOf('https://10.0.0.5/', allowed)).toBeNull();
    expect(await problemOf('https://intranet.example.com/', allowed)).toBeNull();
    expect(await problemOf('https://ula.example.com/', allowed)).toBeNull();
    expect(await problemOf('https://[::ffff:10.9.9.9]/', allowed)).toBeNull();
    expect(await problemOf('https://192.168.1.11/', allowed)).toBe(M.urlPrivateAddress('192.168.1.11', '192.168.1.11'));
    expect(await problemOf('https://127.0.0.1/', allowed)).toBe(M.urlPrivateAddress('127.0.0.1', '127.0.0.1'));
  });

  it('refuses localhost unless allowed, and then lets http reach loopback through localhost names only', async () => {
    expect(await problemOf('http://localhost:8080/hook')).toBe(M.urlHttpOnlyLocalhost);
    expect(await problemOf('https://localhost/hook')).toBe(M.urlPrivateAddress('localhost', '127.0.0.1'));
    const local = { allowHttpLocalhost: true };
    expect(await problemOf('http://localhost:8080/hook', local)).toBeNull();
    expect(await problemOf('http://127.0.0.1:8080/hook', local)).toBeNull();
    expect(await problemOf('http://[::1]:8080/hook', local)).toBeNull();
    // Loopback only: a localhost name resolving into a private network is still refused.
    expect(await problemOf('http://evil.localhost/', local)).toBe(M.urlPrivateAddress('evil.localhost', '10.0.0.1'));
    // And the mapped spelling of loopback is not a localhost name.
    expect(await problemOf('https://[::ffff:127.0.0.1]/', local)).toBe(M.urlPrivateAddress('::ffff:7f00:1', '::ffff:7f00:1'));
    expect(await problemOf('http://example.com/', local)).toBe(M.urlHttpOnlyLocalhost);
  });

  it('refuses in its lookup, before any connection, what it would refuse in a URL', async () => {
    const g = guard();
    const lookup = (host: string, all: boolean) =>
      new Promise<unknown>((done) => g.lookup(host, { all }, (error, address) => done(error ? `error: ${error.message}` : address)));
    expect(await lookup('intranet.example.com', false)).toBe(`error: ${M.urlPrivateAddress('intranet.example.com', '192.168.1.10')}`);
    expect(await lookup('sneaky.example.com', true)).toBe(`error: ${M.urlPrivateAddress('sneaky.example.com', '10.1.2.3')}`);
    expect(await lookup('hooks.example.com', false)).toBe('93.184.216.34');
    expect(await lookup('dual.example.com', true)).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    expect(await lookup('nowhere.example.com', false)).toBe(`error: ${M.urlUnresolvable('nowhere.example.com')}`);
  });

  it('reads the IPv4 address inside mapped, NAT64 and 6to4 IPv6 addresses', () => {
    expect(embeddedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('::ffff:a9fe:a9fe')).toBe('169.254.169.254');
    expect(embeddedIpv4('64:ff9b::c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIpv4('2002:0a00:0001::5')).toBe('10.0.0.1');
    expect(embeddedIpv4('2606:4700::1111')).toBeNull();
    expect(embeddedIpv4('10.0.0.1')).toBeNull();
  });

  it('tells public addresses from refused ones', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '100.128.0.1', '172.32.0.1']) {
      expect(isRefusedAddress(address), address).toBe(false);
    }
    for (const address of ['100.127.255.255', '172.31.255.255', '192.0.2.1', '203.0.113.9', '2001:db8::1', 'fec0::1', 'not-an-ip']) {
      expect(isRefusedAddress(address), address).toBe(true);
    }
  });

  it('parses CIDRs and single addresses, and nothing else', () => {
    expect(parseCidr('10.0.0.0/8')).toEqual({ network: '10.0.0.0', prefix: 8, family: 4 });
    expect(parseCidr(' fd00::/8 ')).toEqual({ network: 'fd00::', prefix: 8, family: 6 });
    expect(parseCidr('192.168.1.10')).toEqual({ network: '192.168.1.10', prefix: 32, family: 4 });
    for (const bad of ['10.0.0.0/33', '::/129', '10.0.0/8', 'example.com/8', '10.0.0.0/8/8', '10.0.0.0/x', '']) expect(parseCidr(bad), bad).toBeNull();
  });
});
