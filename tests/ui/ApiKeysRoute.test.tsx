// The API keys page through the whole client (composition root, router, session, the key list, the
// API keys machine, the views) against a fake of the portal API at the fetch seam that keeps the
// keys it was told about.
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUser } from '../../src/domain/auth';
import type { ApiKeyWire } from '../../src/domain/api-keys';
import { API_KEY_TEXTS as T } from '../../src/ui/api-keys/parts';
import { profileWithRoles } from '../machines/fixtures';
import { API_KEY_SECRET, apiKeyWire, createdKey, revokedKey } from '../fixtures/api-keys';
import { builtInRoleFixture } from '../fixtures/roles';
import { enteredDialog } from './dialogs';
import { fill } from './fill';
import { openSignedInAt } from './open-app';

const ROLES = [builtInRoleFixture('owner'), builtInRoleFixture('user_management_read_only')];

function fakePortalApi(profile: AdminUser) {
  const keys: ApiKeyWire[] = [apiKeyWire(), revokedKey];
  const bodies: Array<[string, unknown]> = [];
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const ok = (data: unknown, status = 200) => json(status, { success: true, message: 'ok', data });
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    if (body !== undefined) bodies.push([call, body]);
    if (call === 'GET /api/v1/auth/me') return ok({ user: profile });
    if (call === 'GET /api/v1/api-keys') return ok(keys);
    if (call === 'GET /api/v1/roles') return ok(ROLES);
    if (call === 'POST /api/v1/api-keys') {
      keys.unshift({ ...createdKey.key, name: body.name });
      return ok({ key: keys[0], secret: API_KEY_SECRET }, 201);
    }
    if (call === `POST /api/v1/api-keys/${keys.find((k) => k.name === 'ERP integration')?.id}/revoke`) {
      const index = keys.findIndex((k) => k.name === 'ERP integration');
      keys[index] = { ...keys[index]!, status: 'revoked', revokedAt: '2026-11-20T10:00:00.000Z', revokedBy: keys[index]!.createdBy };
      return ok(keys[index]);
    }
    return json(404, { success: false, message: `Route not found: ${call}` });
  });
  return { fetch, bodies, keys };
}

const table = async () => within(await screen.findByRole('table', { name: T.pageTitle }, { timeout: 5000 }));

describe('API keys page', () => {
  it('a user manager makes a key within their own permissions, sees it once, and revokes another', async () => {
    const user = userEvent.setup();
    const api = fakePortalApi(profileWithRoles('user_management'));
    openSignedInAt('/users/api-keys', api.fetch, { profile: profileWithRoles('user_management') });
    const rows = await table();
    expect(rows.getByText('ERP integration')).toBeTruthy();
    expect(rows.getByText('slk_Zx81mQpL…')).toBeTruthy();
    expect(rows.getByText('203.0.113.9')).toBeTruthy();
    expect(rows.getByText('Revoked')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: T.newKey }));
    const form = within(await enteredDialog(T.formTitle));
    // The Owner role grants more than a user manager holds: it cannot be chosen.
    expect((await form.findByLabelText('Owner') as HTMLInputElement).disabled).toBe(true);
    await fill(user, form.getByLabelText('Name'), 'Accounting');
    await user.click(form.getByLabelText('User Management (read-only)'));
    await fill(user, form.getByLabelText('Allowed addresses'), '198.51.100.0/24');
    await user.click(form.getByRole('button', { name: T.create }));

    const secret = within(await enteredDialog(T.secretTitle));
    expect((secret.getByLabelText(T.secretLabel) as HTMLInputElement).value).toBe(API_KEY_SECRET);
    expect(api.bodies).toContainEqual(['POST /api/v1/api-keys', { name: 'Accounting', roleId: 'role-user_management_read_only', expiresAt: null, allowedIps: ['198.51.100.0/24'] }]);
    await user.click(secret.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: T.secretTitle })).toBeNull());
    expect(await (await table()).findByText('Accounting')).toBeTruthy();
    expect(document.body.textContent).not.toContain(API_KEY_SECRET);

    await user.click((await table()).getByRole('button', { name: `${T.revoke}: ERP integration` }));
    const question = within(await enteredDialog(T.revokeTitle));
    expect(question.getByText(T.revokeQuestion('ERP integration'))).toBeTruthy();
    await user.click(question.getByRole('button', { name: T.revoke }));
    await waitFor(() => expect((within(screen.getByRole('table', { name: T.pageTitle })).queryByRole('button', { name: `${T.revoke}: ERP integration` }))).toBeNull());
  });

  it('a reader sees the keys with the buttons disabled and why', async () => {
    const profile = profileWithRoles('user_management_read_only');
    openSignedInAt('/users/api-keys', fakePortalApi(profile).fetch, { profile });
    const rows = await table();
    expect((rows.getByRole('button', { name: `${T.revoke}: ERP integration` }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: T.newKey }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(T.readOnly)).toBeTruthy();
  });
});
