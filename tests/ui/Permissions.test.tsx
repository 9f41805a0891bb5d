// The UI follows the session's permissions: a read-only role sees the pages it reads with no
// button that would write, and a page it may not read says so instead of failing.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { NO_PERMISSION_TEXTS } from '../../src/ui/common/NoPermission';
import { userProfile } from '../machines/fixtures';
import { customerFixture } from '../fixtures/customers';
import { terminalRowWire } from '../fixtures/terminals-client';
import { fleetHealth } from '../fixtures/terminals-ui';
import { fakePortalApi } from '../model/framework/screen';
import { openSignedInAt } from './open-app';

const envelope = (data: unknown) => ({ body: { success: true, message: 'ok', data } });
const answers = {
  'GET /api/v1/customers': envelope({ customers: [customerFixture({ name: 'Nina Park' })], pagination: { total: 1, page: 1, limit: 10, pages: 1 } }),
  'GET /api/v1/customers/stats': envelope({ total: 1, active: 1, pending: 0, mfaEnabled: 0, blocked: 0, expiringSoon: 0, expired: 0 }),
  'GET /api/v1/terminals': envelope({ results: [terminalRowWire()], totalCount: 1, page: 1, limit: 25 }),
  'GET /api/v1/terminals/health': envelope(fleetHealth({ total: 1 })),
  'GET /api/v1/terminals/sync/queue': envelope({ active: null, recent: [] }),
};

function openAs(path: string) {
  const api = fakePortalApi(answers, userProfile);
  return { ...openSignedInAt(path, api.fetch, { profile: userProfile }), calls: api.calls };
}

describe('a read-only role (Admin read-only)', () => {
  it('sees the customers with no Add Customer and only the row actions that read', async () => {
    const { user } = openAs('/customers');
    await user.click(await screen.findByRole('button', { name: /^Actions for / }, { timeout: 5000 }));
    const items = (await screen.findAllByRole('menuitem')).map((item) => item.textContent?.trim());
    expect(items).toEqual(['View Details', 'Manage Terminals', 'View as customer']);
    expect(screen.queryByRole('button', { name: 'Add Customer' })).toBeNull();
  });

  it('sees the terminals with no Sync and no Add Terminal', async () => {
    openAs('/terminals');
    expect(await screen.findByRole('heading', { level: 1, name: 'Terminal Management' }, { timeout: 5000 })).toBeTruthy();
    await screen.findByRole('button', { name: /^View details of / });
    expect(screen.queryByRole('button', { name: 'Sync from the provider' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Terminal' })).toBeNull();
  });

  it('is told it may not view the users page, whose data is not asked for; the menu does not offer it', async () => {
    const { calls } = openAs('/users');
    expect(await screen.findByText(NO_PERMISSION_TEXTS.title, {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'User Management' })).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: /main/i });
    expect(within(menu).queryByRole('link', { name: 'Users' })).toBeNull();
    expect(within(menu).queryByRole('link', { name: 'Audit log' })).toBeNull();
    expect(within(menu).getByRole('link', { name: 'Terminals' })).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.startsWith('GET /api/v1/auth/me'))).toBe(true));
    expect(calls.some((c) => c.startsWith('GET /api/v1/users'))).toBe(false);
  });
});
