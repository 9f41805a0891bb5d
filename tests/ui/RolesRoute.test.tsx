// Users → Roles (/users/roles) through the whole client over a fake roles API: the matrix, a new
// custom role refused as an escalation then saved, a delete refused while the role is held, and
// what a user who may only read the roles is offered.
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { AREA_LABELS, ROLE_MESSAGES, type RoleInput, type RoleWire } from '../../src/domain/permissions';
import { ROLES_TEXTS as T } from '../../src/ui/roles/parts';
import { profileWithRoles } from '../machines/fixtures';
import { builtInRoleFixtures, customRoleFixture } from '../fixtures/roles';
import { fakePortalApi } from '../model/framework/screen';
import { enteredDialog } from './dialogs';
import { openSignedInAt } from './open-app';

const night = customRoleFixture({ userCount: 2 });

function openRoles(profile = profileWithRoles('user_management')) {
  const roles: RoleWire[] = [...builtInRoleFixtures, night];
  const bodies: RoleInput[] = [];
  let escalate = true;
  const api = fakePortalApi(
    {
      'GET /api/v1/roles': () => ({ body: { success: true, message: ROLE_MESSAGES.listed, data: { roles } } }),
      'POST /api/v1/roles': ({ body }) => {
        bodies.push(body as RoleInput);
        // The first attempt asks for more than the fixture lets it give; the server refuses it.
        if (escalate) {
          escalate = false;
          return { status: 403, body: { success: false, message: ROLE_MESSAGES.escalation } };
        }
        const role = customRoleFixture({ id: 'role-new', ...(body as RoleInput), description: (body as RoleInput).description ?? '' });
        roles.push(role);
        return { status: 201, body: { success: true, message: ROLE_MESSAGES.created, data: { role } } };
      },
      [`DELETE /api/v1/roles/${night.id}`]: { status: 409, body: { success: false, message: ROLE_MESSAGES.inUse(2) } },
    },
    profile,
  );
  return { ...openSignedInAt('/users/roles', api.fetch, { profile }), bodies, calls: api.calls };
}

const matrix = async () => within(await screen.findByRole('table', { name: T.matrixLabel }, { timeout: 5000 }));

describe('the roles page', () => {
  it('shows the matrix: areas down, roles across, each cell the level; only custom roles have Edit and Delete', async () => {
    openRoles();
    const table = await matrix();
    const headers = table.getAllByRole('columnheader').map((h) => h.querySelector('.role-name')?.textContent ?? h.textContent);
    expect(headers).toEqual(['Area', ...builtInRoleFixtures.map((r) => r.name), night.name]);
    const billingRow = within(table.getByRole('rowheader', { name: new RegExp(AREA_LABELS.billing) }).closest('tr')!);
    // Owner manages billing, Admin (read-only) reads it, Technical has none of it.
    // What a screen reader says of each cell: a dash is read as None.
    const cells = billingRow.getAllByRole('cell').map((c) => c.querySelector('.sr-only')?.textContent ?? c.textContent);
    expect([cells[0], cells[2], cells[5]]).toEqual(['Manage', 'Read', 'None']);
    expect(table.getByRole('button', { name: `${T.edit} ${night.name}` })).toBeTruthy();
    expect(table.queryByRole('button', { name: `${T.edit} Owner` })).toBeNull();
    expect(table.getByText(T.holders(2))).toBeTruthy();
  });

  it("creates a role from the grid: the levels a user manager does not hold are greyed out, the server's escalation refusal is shown, then it saves", async () => {
    const { user, bodies } = openRoles();
    await matrix();
    await user.click(screen.getByRole('button', { name: T.newRole }));
    const dialog = within(await enteredDialog(T.createHeader));
    const level = (area: keyof typeof AREA_LABELS, name: string) => within(dialog.getByRole('group', { name: AREA_LABELS[area] })).getByRole('radio', { name }) as HTMLInputElement;
    expect(level('billing', 'Read').disabled).toBe(true);
    expect(level('users', 'Manage').disabled).toBe(false);
    expect(within(dialog.getByRole('group', { name: AREA_LABELS.audit })).queryByRole('radio', { name: 'Manage' })).toBeNull();

    await user.click(dialog.getByRole('button', { name: T.save }));
    expect(dialog.getByText(ROLE_MESSAGES.nameRequired)).toBeTruthy();
    expect(dialog.getByText(ROLE_MESSAGES.permissionsRequired)).toBeTruthy();

    await user.type(dialog.getByLabelText(T.nameLabel), 'Auditors');
    await user.click(level('audit', 'Read'));
    await user.click(level('users', 'Read'));
    await user.click(dialog.getByRole('button', { name: T.save }));
    expect(await dialog.findByText(ROLE_MESSAGES.escalation)).toBeTruthy();
    await user.click(dialog.getByRole('button', { name: T.save }));
    expect(await screen.findByText(ROLE_MESSAGES.created)).toBeTruthy();
    expect(bodies.at(-1)).toEqual({ name: 'Auditors', permissions: ['users:read', 'audit:read'] });
    expect((await matrix()).getByText('Auditors')).toBeTruthy();
  });

  it('shows the server refusing to delete a role still held, in the confirmation', async () => {
    const { user } = openRoles();
    await user.click((await matrix()).getByRole('button', { name: `${T.delete} ${night.name}` }));
    const dialog = within(await enteredDialog(T.deleteHeader));
    await user.click(dialog.getByRole('button', { name: T.delete }));
    expect(await dialog.findByText(ROLE_MESSAGES.inUse(2))).toBeTruthy();
  });

  it('offers a reader of the roles no New role, Edit or Delete', async () => {
    openRoles(profileWithRoles('user_management_read_only'));
    const table = await matrix();
    expect(screen.queryByRole('button', { name: T.newRole })).toBeNull();
    expect(table.queryByRole('button', { name: `${T.edit} ${night.name}` })).toBeNull();
    expect(screen.getByText(T.readOnlyNote)).toBeTruthy();
  });
});
