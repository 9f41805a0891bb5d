// The portal's password hashes: Argon2id at OWASP's minimum (m=19 MiB, t=2, p=1), a salt of its
// own each time; a sign-in verifies with the parameters the stored hash names; a malformed stored
// hash is a failed sign-in, never an error; generated passwords avoid look-alike characters.
import { describe, expect, it } from 'vitest';
import { generatePassword, hashPassword, verifyDummyPassword, verifyPassword } from '../../server/auth/passwords';

describe('password hashes', () => {
  it('are Argon2id at m=19456, t=2, p=1, salted afresh each time, and verify only the password they were made from', async () => {
    const first = await hashPassword('correct horse battery');
    const second = await hashPassword('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(second).not.toBe(first);
    expect(await verifyPassword(first, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(second, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(first, 'correct horse batterY')).toBe(false);
  });

  it('treat a malformed stored hash as a failed sign-in, and an unknown account as a wrong password', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(await verifyPassword('', '')).toBe(false);
    expect(await verifyDummyPassword('anything')).toBe(false);
  });
});

describe('generated passwords', () => {
  it('have the length asked for and no look-alike characters', () => {
    for (const length of [1, 16, 40]) {
      const password = generatePassword(length);
      expect(password).toHaveLength(length);
      expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]+$/);
    }
    expect(new Set(Array.from({ length: 20 }, () => generatePassword())).size).toBe(20);
  });
});
