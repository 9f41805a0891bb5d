import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import { providerSettingsFromEnv } from '../../server/provider';

describe('provider settings from the environment', () => {
  it('is null when no STARLINK_* variable is set (the built-in simulator is used)', () => {
    expect(providerSettingsFromEnv({})).toBeNull();
    expect(providerSettingsFromEnv({ STARLINK_CLIENT_ID: '  ', STARLINK_API_URL: '' })).toBeNull();
  });

  it('defaults the API URL to starlink.com and derives the token URL from it', () => {
    expect(providerSettingsFromEnv({ STARLINK_CLIENT_ID: 'id', STARLINK_CLIENT_SECRET: 'secret' })).toEqual({
      apiUrl: 'https://starlink.com/api',
      tokenUrl: 'https://starlink.com/api/auth/connect/token',
      clientId: 'id',
      clientSecret: 'secret',
    });
    expect(
      providerSettingsFromEnv({ STARLINK_API_URL: 'http://127.0.0.1:4010/api/', STARLINK_CLIENT_ID: 'id', STARLINK_CLIENT_SECRET: 'secret' })?.tokenUrl,
    ).toBe('http://127.0.0.1:4010/api/auth/connect/token');
  });

  it('takes an explicit token URL and request rate', () => {
    expect(
      providerSettingsFromEnv({
        STARLINK_CLIENT_ID: 'id',
        STARLINK_CLIENT_SECRET: 'secret',
        STARLINK_TOKEN_URL: 'https://auth.example.com/token',
        STARLINK_REQUESTS_PER_MINUTE: '120',
      }),
    ).toMatchObject({ tokenUrl: 'https://auth.example.com/token', requestsPerMinute: 120 });
  });

  it('refuses a partial set, naming what is missing without echoing the secret', () => {
    const attempt = () => providerSettingsFromEnv({ STARLINK_CLIENT_SECRET: 'hunter2', STARLINK_API_URL: 'https://starlink.com/api' });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/STARLINK_CLIENT_ID: is required/);
    expect(attempt).not.toThrow(/hunter2/);
  });

  it('refuses plain http to another host (the secret would travel in clear) and a rate over 250', () => {
    const base = { STARLINK_CLIENT_ID: 'id', STARLINK_CLIENT_SECRET: 'secret' };
    expect(() => providerSettingsFromEnv({ ...base, STARLINK_API_URL: 'http://starlink.com/api' })).toThrow(/STARLINK_API_URL: must be an https/);
    expect(() => providerSettingsFromEnv({ ...base, STARLINK_API_URL: 'not a url' })).toThrow(ConfigError);
    expect(() => providerSettingsFromEnv({ ...base, STARLINK_REQUESTS_PER_MINUTE: '300' })).toThrow(/STARLINK_REQUESTS_PER_MINUTE/);
  });
});
