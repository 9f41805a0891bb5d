// A customer organisation's team through the whole client over a fake portal API: the owner's
// Team page (/my/team) and menu, a viewer's customer area without Team or write buttons, and the
// Members section of a customer's page on the admin side.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CustomerProfile } from '../../src/domain/auth';
import { MEMBER_MESSAGES, type TeamWire } from '../../src/domain/members';
import { customerFixture } from '../fixtures/customers';
import { adminProfile, customerProfile, profileWithRoles } from '../machines/fixtures';
import { fakePortalApi } from '../model/framework/screen';
import { openSignedInAt } from './open-app';

const LINES = [
  { serviceLineNumber: 'AST-100001-20000-11', nickname: 'North Barn' },
  { serviceLineNumber: 'AST-100002-20000-11', nickname: 'South Gate' },
  { serviceLineNumber: 'AST-100003-20000-11', nickname: null },
];
const ok = <T,>(data: T) => ({ body: { success: true, message: 'ok', data } });

function teamOf(company: string, owner: { uuid: string; name: string; email: string }): TeamWire {
  return {
    company,
    members: [
      { id: owner.uuid, original: true, name: owner.name, email: owner.email, role: 'owner', serviceLines: null, mfaEnabled: false, lastLogin: null, createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'member-1', original: false, name: 'Vic Viewer', email: 'vic@northwind.example', role: 'viewer', serviceLines: null, mfaEnabled: true, lastLogin: null, createdAt: '2026-02-01T00:00:00.000Z' },
    ],
    invitations: [],
    lines: LINES,
  };
}

const rowTexts = (name: string) =>
  within(screen.getByRole('table', { name }))
    .getAllByRole('row')
    .slice(1)
    .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));

describe('the Team page of the customer area', () => {
  it('an owner finds Team in the menu and invites a site manager limited to two lines', async () => {
    let team = teamOf(customerProfile.company, customerProfile);
    const sent: unknown[] = [];
    const api = fakePortalApi(
      {
        'GET /api/v1/my/team': () => ok(team),
        'POST /api/v1/my/team/invitations': ({ body }) => {
          sent.push(body);
          const invitation = { id: 'inv-1', ...(body as object), status: 'pending', expiresAt: '2026-03-25T00:00:00.000Z', createdAt: '2026-03-18T00:00:00.000Z' };
          team = { ...team, invitations: [invitation as TeamWire['invitations'][number]] };
          return { status: 201, body: { success: true, message: MEMBER_MESSAGES.invited('sam@northwind.example'), data: invitation } };
        },
      },
      customerProfile,
    );
    const { user } = openSignedInAt('/my', api.fetch, { profile: customerProfile });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    await user.click(within(nav).getByRole('link', { name: 'Team' }));
    await screen.findByRole('heading', { level: 1, name: 'Team' });
    await waitFor(() => expect(rowTexts('Team members')).toHaveLength(2));
    expect(rowTexts('Team members')[0]!.slice(0, 4)).toEqual([`${customerProfile.name} (organisation login)`, customerProfile.email, 'Owner', 'All lines']);
    // The organisation's own login cannot be changed or removed; the others can.
    expect(screen.queryByRole('button', { name: `Remove ${customerProfile.name}` })).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Vic Viewer' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Invite member' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Invite member' }));
    await user.type(dialog.getByLabelText('Email'), 'sam@northwind.example');
    await user.type(dialog.getByLabelText('Name'), 'Sam Site');
    await user.click(dialog.getByLabelText(/^Manager/));
    await user.click(dialog.getByLabelText('All lines'));
    await user.click(dialog.getByLabelText('AST-100001-20000-11 (North Barn)'));
    await user.click(dialog.getByLabelText('AST-100002-20000-11 (South Gate)'));
    await user.click(dialog.getByRole('button', { name: 'Send Invitation' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent).toEqual([{ email: 'sam@northwind.example', name: 'Sam Site', role: 'manager', serviceLines: ['AST-100001-20000-11', 'AST-100002-20000-11'] }]);
    await waitFor(() => expect(rowTexts('Invitations')).toHaveLength(1));
    expect(rowTexts('Invitations')[0]!.slice(0, 5)).toEqual(['sam@northwind.example', 'Sam Site', 'Manager', 'AST-100001-20000-11, AST-100002-20000-11', 'Pending']);
  });

  it('a viewer limited to one line sees neither Team nor Statements in the menu, and no Rename or New request', async () => {
    const viewer: CustomerProfile = { ...customerProfile, uuid: 'member-2', name: 'Vic Viewer', organisationRole: 'viewer', serviceLines: ['AST-100001-20000-11'] };
    const api = fakePortalApi({ 'GET /api/v1/my/requests': ok({ requests: [], lines: [LINES[0]] }) }, viewer);
    openSignedInAt('/my/requests', api.fetch, { profile: viewer });
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).getByRole('link', { name: 'Terminals' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Team' })).toBeNull();
    expect(within(nav).queryByRole('link', { name: 'Statements' })).toBeNull();
    await waitFor(() => expect(api.calls).toContain('GET /api/v1/my/requests'));
    expect(screen.queryByRole('button', { name: /New request/i })).toBeNull();
  });
});

describe("the Members section of a customer's page", () => {
  const customer = customerFixture();
  const answers = (team: TeamWire) => ({
    [`GET /api/v1/customers/${customer.uuid}`]: ok({ customer }),
    [`GET /api/v1/customers/${customer.uuid}/members`]: ok(team),
  });

  it('shows the organisation login and its members to whoever reads customers, with nothing to change without customers:manage', async () => {
    const reader = profileWithRoles('support_read_only');
    const api = fakePortalApi(answers(teamOf(customer.company, customer)), reader);
    openSignedInAt(`/customer/terminals/${customer.uuid}`, api.fetch, { profile: reader });
    await screen.findByRole('heading', { level: 2, name: 'Members' });
    await waitFor(() => expect(rowTexts('Team members')).toHaveLength(2));
    expect(rowTexts('Team members')[1]!.slice(0, 5)).toEqual(['Vic Viewer', 'vic@northwind.example', 'Viewer', 'All lines', 'On']);
    expect(screen.queryByRole('button', { name: 'Invite member' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Vic Viewer' })).toBeNull();
  });

  it("an administrator removes a member from the customer's page, after confirming", async () => {
    let team = teamOf(customer.company, customer);
    const api = fakePortalApi(
      {
        ...answers(team),
        [`GET /api/v1/customers/${customer.uuid}/members`]: () => ok(team),
        [`DELETE /api/v1/customers/${customer.uuid}/members/member-1`]: () => {
          team = { ...team, members: team.members.slice(0, 1) };
          return ok({ removed: true });
        },
      },
      adminProfile,
    );
    const { user } = openSignedInAt(`/customer/terminals/${customer.uuid}`, api.fetch, { profile: adminProfile });
    await user.click(await screen.findByRole('button', { name: 'Remove Vic Viewer' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove Vic Viewer?' }));
    await user.click(dialog.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(rowTexts('Team members')).toHaveLength(1));
    expect(api.calls).toContain(`DELETE /api/v1/customers/${customer.uuid}/members/member-1`);
  });
});
