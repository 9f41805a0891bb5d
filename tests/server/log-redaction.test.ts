import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/app';

describe('request log redaction', () => {
  it('keeps the path but not a password-setup token, in the path or the query', () => {
    expect(redactUrl('/api/v1/password-setup/abcDEF-123_x')).toBe('/api/v1/password-setup/[redacted]');
    expect(redactUrl('/api/v1/password-setup/abc?x=1')).toBe('/api/v1/password-setup/[redacted]?x=1');
    expect(redactUrl('/set-password?token=abc&x=1')).toBe('/set-password?token=[redacted]&x=1');
    expect(redactUrl('/api/v1/customers?page=2')).toBe('/api/v1/customers?page=2');
  });
});
