// Session tokens: a token verified once is answered from memory afterwards, and still stops
// working exactly when jose would stop accepting it; a changed token is never taken for it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenService, VERIFIED_TOKEN_CACHE_SIZE } from '../../server/auth/tokens';

const SECRET = 'a-test-secret-of-at-least-32-characters!';
const T0 = new Date('2026-11-26T10:00:00Z').getTime();

function service(expiresInSeconds = 60) {
  let at = T0;
  const tokens = createTokenService({ secret: SECRET, expiresInSeconds, now: () => new Date(at) });
  return { tokens, setSeconds: (s: number) => (at = T0 + s * 1000) };
}

afterEach(() => vi.restoreAllMocks());

describe('session tokens', () => {
  it('checks a token’s signature once, then answers it from memory', async () => {
    const { tokens } = service();
    const token = await tokens.sign({ sub: '3f0c1a9e-8a3b-4a55-9a43-2a3c7c1d9e01', typ: 'admin', role: 'admin' });
    const verify = vi.spyOn(crypto.subtle, 'verify');
    const first = await tokens.verify(token);
    expect(first).toEqual({ sub: '3f0c1a9e-8a3b-4a55-9a43-2a3c7c1d9e01', typ: 'admin', role: 'admin', iat: T0 / 1000 });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(await tokens.verify(token)).toEqual(first);
    expect(verify).toHaveBeenCalledTimes(1);
    // What one caller was given cannot change what the next one gets.
    expect(() => Object.assign(first!, { typ: 'customer' })).toThrow(TypeError);
    expect((await tokens.verify(token))?.typ).toBe('admin');
  });

  it('refuses a remembered token from the second its expiry is reached, as jose does', async () => {
    const { tokens, setSeconds } = service(60);
    const token = await tokens.sign({ sub: '3f0c1a9e-8a3b-4a55-9a43-2a3c7c1d9e01', typ: 'customer' });
    expect(await tokens.verify(token)).not.toBeNull();
    setSeconds(59.999);
    expect(await tokens.verify(token)).not.toBeNull();
    setSeconds(60);
    expect(await tokens.verify(token)).toBeNull();
    // jose agrees on a fresh service that never saw it.
    const fresh = createTokenService({ secret: SECRET, expiresInSeconds: 60, now: () => new Date(T0 + 60_000) });
    expect(await fresh.verify(token)).toBeNull();
    const before = createTokenService({ secret: SECRET, expiresInSeconds: 60, now: () => new Date(T0 + 59_999) });
    expect(await before.verify(token)).not.toBeNull();
  });

  it('never takes a changed token for a remembered one', async () => {
    const { tokens } = service();
    const token = await tokens.sign({ sub: '3f0c1a9e-8a3b-4a55-9a43-2a3c7c1d9e01', typ: 'customer' });
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const admin = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), typ: 'admin' })).toString('base64url');
    expect(await tokens.verify(`${header}.${admin}.${signature}`)).toBeNull();
    expect(await tokens.verify(`${token}x`)).toBeNull();
  });

  it('keeps a bounded number, and verifies a forgotten one again', async () => {
    const { tokens, setSeconds } = service(3600);
    const first = await tokens.sign({ sub: '3f0c1a9e-8a3b-4a55-9a43-2a3c7c1d9e01', typ: 'admin', role: 'user' });
    await tokens.verify(first);
    for (let i = 0; i < VERIFIED_TOKEN_CACHE_SIZE; i++) {
      setSeconds(i + 1); // a new iat, so a new token
      await tokens.verify(await tokens.sign({ sub: '3f0c1a9e-8a3b-4a55-9a43-2a3c7c1d9e01', typ: 'admin', role: 'user' }));
    }
    const verify = vi.spyOn(crypto.subtle, 'verify');
    expect(await tokens.verify(first)).not.toBeNull();
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
