import { describe, expect, it } from 'vitest';
import { buildApp, loggerOptions, redactUrl } from '../../server/app';
import { createTestContext } from './helpers';

describe('request log redaction', () => {
  it('keeps the path but not a password-setup token, in the path or the query', () => {
    expect(redactUrl('/api/v1/password-setup/abcDEF-123_x')).toBe('/api/v1/password-setup/[redacted]');
    expect(redactUrl('/api/v1/password-setup/abc?x=1')).toBe('/api/v1/password-setup/[redacted]?x=1');
    expect(redactUrl('/set-password?token=abc&x=1')).toBe('/set-password?token=[redacted]&x=1');
    expect(redactUrl('/api/v1/customers?page=2')).toBe('/api/v1/customers?page=2');
  });
});

describe('the request log', () => {
  it('writes one line per request: method, redacted URL, status, time, and the id the response carries', async () => {
    const ctx = await createTestContext();
    const lines: Record<string, unknown>[] = [];
    const app = await buildApp({ config: ctx.config, database: ctx.database, now: ctx.clock.now, logger: loggerOptions('info', { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }) });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/v1/password-setup/secret-token-value?x=1' });
      const logged = lines.filter((line) => line.reqId === res.headers['x-request-id']);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({
        msg: 'request completed',
        req: { method: 'GET', url: '/api/v1/password-setup/[redacted]?x=1' },
        res: { statusCode: res.statusCode },
        responseTime: expect.any(Number),
      });
      expect(JSON.stringify(lines)).not.toContain('secret-token-value');
    } finally {
      await app.close();
      await ctx.close();
    }
  });
});
