// The /users page as the user-form and user-actions models open it: the users their event fixtures
// name are the rows the fake API lists, so a fixture's user is a row the walk can click.
import { screen } from '@testing-library/react';
import type { PortalUser, UserListWire } from '../../../src/domain/users';
import { userWireOf } from '../../fixtures/portal-users';
import { builtInRoleFixtures } from '../../fixtures/roles';
import type { ModelSeam } from '../framework/model';
import { openPage, type FakeAnswer, type PageScreen } from '../framework/screen';

/** Opens /users listing `users` (the first one's row is on screen when this returns). */
export async function openUsersPage(seam: ModelSeam, users: readonly PortalUser[], path = '/users'): Promise<PageScreen> {
  const data: UserListWire = {
    users: users.map(userWireOf),
    pagination: { total: users.length, page: 1, limit: 100, pages: 1 },
    stats: { total: users.length, active: users.filter((u) => u.isActive).length, mfaEnabled: users.filter((u) => u.mfaEnabled).length },
  };
  const answers: Record<string, FakeAnswer> = {
    'GET /api/v1/users': { body: { success: true, message: 'ok', data } },
    // The Add User / Edit dialog's roles.
    'GET /api/v1/roles': { body: { success: true, message: 'ok', data: { roles: builtInRoleFixtures } } },
  };
  const page = openPage(path, seam, answers);
  await screen.findByText(users[0]!.name, {}, { timeout: 5000 });
  return page;
}

/** The table row of a user, found by the name it shows. */
export const rowOf = (user: PortalUser) => screen.getByText(user.name, { selector: '.cell-primary' }).closest('tr') as HTMLElement;
