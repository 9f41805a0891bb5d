// The allow-list rules the server enforces and the form checks first: addresses and CIDR ranges of
// either family, each the start of its range, and whether a caller's address lies in one.
import { describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES as M, allowListProblems, formatIp, ipAllowed, ipEntryProblem, parseIp, parseIpRange, splitAllowList } from '../../src/domain/api-keys';

describe('API key allow-lists', () => {
  it('reads IPv4 and IPv6 addresses in their usual spellings, and refuses the rest', () => {
    expect(parseIp('203.0.113.7')?.bytes).toEqual([203, 0, 113, 7]);
    expect(parseIp('::ffff:192.0.2.1')?.bytes.slice(10)).toEqual([255, 255, 192, 0, 2, 1]);
    expect(parseIp('2001:db8::1')?.bytes).toEqual([0x20, 0x01, 0x0d, 0xb8, ...Array<number>(11).fill(0), 1]);
    for (const bad of ['01.2.3.4', '256.1.1.1', '1.2.3', '1::2::3', '1:2:3:4:5:6:7:8:9', 'fe80::1%eth0', 'abcde::1', 'example.com', '']) expect(parseIp(bad), bad).toBeNull();
    expect(parseIpRange('2001:db8::/32')?.prefix).toBe(32);
    expect(parseIpRange('10.0.0.0/33')).toBeNull();
    expect(parseIpRange('10.0.0.0/08')).toBeNull();
  });

  it('wants each range written from its first address, and says which one was meant', () => {
    expect(ipEntryProblem('10.0.0.0/8')).toBeNull();
    expect(ipEntryProblem('0.0.0.0/0')).toBeNull();
    expect(ipEntryProblem('10.0.0.1/8')).toBe(M.ipHostBits('10.0.0.1/8', '10.0.0.0/8'));
    expect(ipEntryProblem('2001:db8::1/32')).toBe(M.ipHostBits('2001:db8::1/32', '2001:db8::/32'));
    expect(ipEntryProblem('nope')).toBe(M.ipInvalid('nope'));
    expect(formatIp(6, parseIp('2001:db8:0:0:1:0:0:1')!.bytes)).toBe('2001:db8::1:0:0:1');
    expect(allowListProblems(Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`))).toEqual([{ index: null, message: M.tooManyIps }]);
    expect(splitAllowList(' 10.0.0.0/8,\n2001:db8::/32 ;198.51.100.7 ')).toEqual(['10.0.0.0/8', '2001:db8::/32', '198.51.100.7']);
  });

  it('lets a caller in from an address in a listed range, an IPv4-mapped address as the IPv4 one', () => {
    const list = ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'];
    expect(ipAllowed('203.0.113.255', list)).toBe(true);
    expect(ipAllowed('::ffff:203.0.113.9', list)).toBe(true);
    expect(ipAllowed('2001:db8:ffff::1', list)).toBe(true);
    expect(ipAllowed('198.51.100.7', list)).toBe(true);
    expect(ipAllowed('198.51.100.8', list)).toBe(false);
    expect(ipAllowed('2001:db9::1', list)).toBe(false);
    expect(ipAllowed('not an address', list)).toBe(false);
    expect(ipAllowed('10.1.2.3', ['::ffff:10.0.0.0/104'])).toBe(true);
  });
});
