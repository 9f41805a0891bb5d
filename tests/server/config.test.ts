import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, durationToSeconds, loadConfig, parseEnv } from '../../server/config';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'portal-config-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('configuration', () => {
  it('uses the documented defaults', () => {
    const config = parseEnv({}, '/srv/portal');
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir: '/srv/portal/data',
      databaseUrl: null,
      jwtSecret: null,
      jwtExpiresIn: '12h',
      jwtExpiresInSeconds: 43_200,
      adminEmail: null,
      adminPassword: null,
      seedDemo: true,
      loginRateLimit: 30,
      notFoundRateLimit: 120,
      apiKeyRateLimit: 600,
      logLevel: 'info',
      clientDir: '/srv/portal/dist/client',
      publicUrl: null,
      trustProxy: false,
    });
  });

  it('reads TRUST_PROXY as a flag, a hop count or proxy addresses, and refuses anything else', () => {
    expect(parseEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(parseEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(parseEnv({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe('10.0.0.0/8, 127.0.0.1');
    expect(() => parseEnv({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });

  it('takes PUBLIC_URL as the printed address and refuses one that is not a URL', () => {
    expect(parseEnv({ PUBLIC_URL: 'http://localhost:5173/' }).publicUrl).toBe('http://localhost:5173');
    expect(() => parseEnv({ PUBLIC_URL: 'localhost' })).toThrow(/PUBLIC_URL/);
  });

  it('turns demo data off by default with DATABASE_URL, and lets SEED_DEMO decide', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db' }).seedDemo).toBe(false);
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(parseEnv({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('runs one server process unless WORKERS says more, and more only with DATABASE_URL', () => {
    expect(parseEnv({}).workers).toBe(1);
    expect(parseEnv({ WORKERS: '4', DATABASE_URL: 'postgres://u@h/db' }).workers).toBe(4);
    expect(() => parseEnv({ WORKERS: '2' })).toThrow(/WORKERS: more than one needs DATABASE_URL/);
    expect(() => parseEnv({ WORKERS: '0', DATABASE_URL: 'postgres://u@h/db' })).toThrow(/WORKERS: must be a whole number from 1 to 64/);
    expect(parseEnv({ WORKERS: '1' }).workers).toBe(1);
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ PORT: '', LOG_LEVEL: ' ' }).port).toBe(3000);
  });

  it('reports every bad variable in one readable message, without echoing secrets', () => {
    const bad = { PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'short', LOG_LEVEL: 'loud', JWT_EXPIRES_IN: 'soon' };
    let error: unknown;
    try {
      parseEnv(bad);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid environment:/);
    for (const name of Object.keys(bad)) expect(message).toContain(`  ${name}:`);
    expect(message).toContain('PORT: must be a port number (0-65535) (got "eighty")');
    expect(message).not.toContain('"short"');
  });

  it('requires ADMIN_EMAIL and ADMIN_PASSWORD together', () => {
    expect(() => parseEnv({ ADMIN_EMAIL: 'a@example.com' })).toThrow(/ADMIN_PASSWORD: ADMIN_EMAIL and ADMIN_PASSWORD must be set together/);
  });

  it('reads durations like 3600, 45m, 12h and 7d', () => {
    expect([durationToSeconds('3600'), durationToSeconds('45m'), durationToSeconds('12h'), durationToSeconds('7d')]).toEqual([3600, 2700, 43_200, 604_800]);
    expect(durationToSeconds('0')).toBeNull();
    expect(durationToSeconds('1w')).toBeNull();
  });

  it('generates a JWT secret once into DATA_DIR/jwt-secret with mode 0600 and reuses it', async () => {
    const dataDir = path.join(dir, 'data');
    const first = await loadConfig({ DATA_DIR: dataDir });
    expect(first.jwtSecretSource).toBe('generated');
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, 'jwt-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, 'utf8')).trim()).toBe(first.jwtSecret);

    const second = await loadConfig({ DATA_DIR: dataDir });
    expect(second).toMatchObject({ jwtSecret: first.jwtSecret, jwtSecretSource: 'file' });
  });

  it('prefers JWT_SECRET and MFA_ENCRYPTION_KEY and then writes nothing', async () => {
    const dataDir = path.join(dir, 'untouched');
    const key = randomBytes(32);
    const config = await loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40), MFA_ENCRYPTION_KEY: key.toString('hex') });
    expect(config).toMatchObject({ jwtSecret: 'x'.repeat(40), jwtSecretSource: 'env', mfaKeySource: 'env' });
    expect(config.mfaEncryptionKey?.equals(key)).toBe(true);
    await expect(stat(dataDir)).rejects.toThrow();
  });

  it('generates a 32-byte MFA key once into DATA_DIR/mfa-key with mode 0600 and reuses it', async () => {
    const dataDir = path.join(dir, 'mfa');
    const first = await loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
    expect(first.mfaKeySource).toBe('generated');
    expect(first.mfaEncryptionKey).toHaveLength(32);
    const file = path.join(dataDir, 'mfa-key');
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    const second = await loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
    expect(second.mfaKeySource).toBe('file');
    expect(second.mfaEncryptionKey?.equals(first.mfaEncryptionKey as Buffer)).toBe(true);
  });

  it('stops on a damaged mfa-key file instead of replacing it (the stored secrets depend on it)', async () => {
    const dataDir = path.join(dir, 'damaged');
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'mfa-key'), 'too-short\n');
    await expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) })).rejects.toThrow(/mfa-key does not hold a 32-byte key/);
    expect((await readFile(path.join(dataDir, 'mfa-key'), 'utf8')).trim()).toBe('too-short');
  });

  it('accepts MFA_ENCRYPTION_KEY as hex or base64 and refuses other values without echoing them', () => {
    const key = randomBytes(32);
    expect(parseEnv({ MFA_ENCRYPTION_KEY: key.toString('base64') }).mfaEncryptionKey?.equals(key)).toBe(true);
    let message = '';
    try {
      parseEnv({ MFA_ENCRYPTION_KEY: 'secret-but-short' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('MFA_ENCRYPTION_KEY must be 32 bytes');
    expect(message).not.toContain('secret-but-short');
  });
});
