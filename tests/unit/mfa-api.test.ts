import { describe, expect, it } from 'vitest';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import { apiAnswering, envelope } from '../fixtures/api-fetch';

const setup = { secret: 'JBSWY3DPEHPK3PXP', otpauthUri: 'otpauth://totp/Admin%20Portal:a@b.example?secret=JBSWY3DPEHPK3PXP', qrCodeDataUrl: 'data:image/png;base64,iVBOR' };
const backupCodes = ['ABCD-EFGH', 'JKLM-NPQR', 'STUV-WXYZ', '2345-6789', 'AB23-CD45', 'EF67-GH89', 'JK23-LM45', 'NP67-QR89'];

describe('mfa api', () => {
  it('starts the set-up with POST /auth/mfa/setup and reads the secret, URI and QR image', async () => {
    const { api, sent } = apiAnswering(200, envelope(setup));
    expect(await api.mfa.setup()).toMatchObject({ ok: true, data: setup });
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/auth/mfa/setup' });
  });

  it('reads a snake_case set-up answer too', async () => {
    const { api } = apiAnswering(200, envelope({ secret: setup.secret, otpauth_uri: setup.otpauthUri, qr_code_data_url: setup.qrCodeDataUrl }));
    expect(await api.mfa.setup()).toMatchObject({ ok: true, data: setup });
  });

  it('takes a set-up answer without its QR image as unexpected', async () => {
    const { api } = apiAnswering(200, envelope({ secret: setup.secret, otpauthUri: setup.otpauthUri }));
    expect(await api.mfa.setup()).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
  });

  it('verifies the code with POST /auth/mfa/verify and answers the backup codes', async () => {
    const { api, sent } = apiAnswering(200, envelope({ backupCodes }));
    expect(await api.mfa.verify('123456')).toMatchObject({ ok: true, data: { backupCodes } });
    expect(sent()).toMatchObject({ method: 'POST', path: '/api/v1/auth/mfa/verify', body: { code: '123456' } });
  });

  it('passes a wrong code through as a refusal with the server message', async () => {
    const { api } = apiAnswering(400, { success: false, message: 'Invalid verification code. Please try again.' });
    expect(await api.mfa.verify('000000')).toEqual({ ok: false, status: 400, message: 'Invalid verification code. Please try again.' });
  });

  it('disables with POST /auth/mfa/disable and the proof as given', async () => {
    const byCode = apiAnswering(200, envelope({}));
    expect((await byCode.api.mfa.disable({ code: '654321' })).ok).toBe(true);
    expect(byCode.sent()).toMatchObject({ method: 'POST', path: '/api/v1/auth/mfa/disable', body: { code: '654321' } });

    const byPassword = apiAnswering(401, { success: false, message: 'Current password is incorrect' });
    expect(await byPassword.api.mfa.disable({ password: 'pw' })).toEqual({ ok: false, status: 401, message: 'Current password is incorrect' });
    expect(byPassword.sent().body).toEqual({ password: 'pw' });
  });
});
