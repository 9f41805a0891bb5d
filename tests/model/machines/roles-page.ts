// The /users/roles page as the role-form model opens it: the built-in roles and one custom role
// (the event fixtures' Night shift), so that its Edit and Delete are on screen.
import { screen } from '@testing-library/react';
import { builtInRoleFixtures, customRoleFixture } from '../../fixtures/roles';
import type { ModelSeam } from '../framework/model';
import { openPage, type FakeAnswer, type PageScreen } from '../framework/screen';
import { ROLES_TEXTS as T } from '../../../src/ui/roles/parts';

export const rolesAnswer = (roles = [...builtInRoleFixtures, customRoleFixture()]): FakeAnswer => ({ body: { success: true, message: 'ok', data: { roles } } });

/** Opens the page; returns once the matrix shows. */
export async function openRolesPage(seam: ModelSeam, answers: Record<string, FakeAnswer> = {}): Promise<PageScreen> {
  const page = openPage('/users/roles', seam, { 'GET /api/v1/roles': rolesAnswer(), ...answers });
  await screen.findByRole('table', { name: T.matrixLabel }, { timeout: 5000 });
  return page;
}
