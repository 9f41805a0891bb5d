// The team's dialogs (teamActions machine): its generated paths walked on the machine and through
// the customer area's Team page (/my/team) signed in as the organisation's owner, plus a journey
// pinned by hand.
import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MEMBER_MESSAGES as M, invitationProblems, type InvitePayload, serviceLinesProblem, type TeamInvitationWire, type TeamMemberWire, type TeamWire } from '../../../src/domain/members';
import type { LoadOutcome } from '../../../src/machines/resource';
import { teamActionsMachine } from '../../../src/machines/team-actions';
import { customerProfile } from '../../machines/fixtures';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed, type ModelSeam } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

configure({ asyncUtilTimeout: 5_000 });

const LINE = 'AST-TEAM-1';
const sam: TeamMemberWire = { id: 'm-1', original: false, name: 'Sam Site', email: 'sam@northwind.example', role: 'viewer', serviceLines: [LINE], mfaEnabled: false, lastLogin: null, createdAt: '2026-03-01T00:00:00.000Z' };
const pending: TeamInvitationWire = { id: 'i-1', email: 'ivy@northwind.example', name: 'Ivy', role: 'viewer', serviceLines: null, status: 'pending', expiresAt: '2026-03-25T00:00:00.000Z', createdAt: '2026-03-18T00:00:00.000Z' };
const team: TeamWire = {
  company: 'Northwind Shipping',
  members: [{ ...sam, id: customerProfile.uuid, original: true, name: customerProfile.name, email: customerProfile.email, role: 'owner', serviceLines: null }, sam],
  invitations: [pending],
  lines: [{ serviceLineNumber: LINE, nickname: 'North Barn' }],
};

const confirm = { type: 'user.confirm' } as const;
const close = { type: 'user.close' } as const;
const DIALOGS: Record<string, string> = { inviting: 'Invite member', changing: 'Edit Sam Site', removing: 'Remove Sam Site?', revoking: 'Revoke invitation?' };
const CONFIRM_LABELS = /^(Send Invitation|Save|Remove|Revoke)$/;

function openTeamPage(seam: ModelSeam): PageScreen {
  return openPage('/my/team', seam, { 'GET /api/v1/my/team': { body: { success: true, message: 'ok', data: team } } }, customerProfile);
}

const dialog = () => within(screen.getByRole('dialog'));
const expectNoDialog = () => expect(screen.queryByRole('dialog')).toBeNull();
const openDialogName = (value: unknown) => DIALOGS[Object.keys(value as object)[0]!]!;

export const teamActionsModel = defineModel<typeof teamActionsMachine, PageScreen>({
  name: 'team-actions',
  machine: teamActionsMachine,
  events: {
    'user.invite': [{ type: 'user.invite' }],
    'user.edit': [{ type: 'user.edit', member: sam }],
    'user.remove': [{ type: 'user.remove', member: sam }],
    'user.revoke': [{ type: 'user.revoke', invitation: pending }],
    'user.field': [
      { type: 'user.field', field: 'email', value: 'new@northwind.example' },
      { type: 'user.field', field: 'name', value: 'New Person' },
    ],
    'user.role': [{ type: 'user.role', role: 'manager' }],
    // Every line, none yet (the guard refuses it), one line.
    'user.lines': [
      { type: 'user.lines', lines: null },
      { type: 'user.lines', lines: [] },
      { type: 'user.lines', lines: [LINE] },
    ],
    'user.confirm': [confirm],
    'user.close': [close],
  },
  actorResults: [
    done('inviteMember', ok({})),
    done('inviteMember', refused(M.emailTaken)),
    failed('inviteMember', new Error('boom')),
    done('updateMember', ok({})),
    done('updateMember', refused(M.lineNotOurs(LINE))),
    failed('updateMember', new Error('boom')),
    done('removeMember', ok({})),
    done('removeMember', refused(M.memberNotFound)),
    failed('removeMember', new Error('boom')),
    done('revokeInvitation', ok({})),
    done('revokeInvitation', refused(M.invitationNotPending)),
    failed('revokeInvitation', new Error('boom')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open')).toBe(false);
      expect(s.hasTag('busy')).toBe(false);
    },
    'inviting.editing': (s) => expect(s.hasTag('open')).toBe(true),
    'inviting.sending': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
      // Only a form without problems is ever sent.
      expect(invitationProblems(s.context.form)).toEqual({});
    },
    'changing.editing': (s) => expect(s.context.member).toEqual(sam),
    'changing.saving': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(serviceLinesProblem(s.context.form.serviceLines)).toBeNull();
    },
    'removing.confirming': (s) => expect(s.context.member).toEqual(sam),
    'removing.sending': (s) => expect(s.hasTag('busy')).toBe(true),
    'revoking.confirming': (s) => expect(s.context.invitation).toEqual(pending),
    'revoking.sending': (s) => expect(s.hasTag('busy')).toBe(true),
  },
  ui: {
    open: async (seam) => {
      const opened = openTeamPage(seam);
      await screen.findByRole('table', { name: 'Team members' }, { timeout: 5000 });
      return opened;
    },
    // A control sends exactly its event only from where it stands: a checked radio sends nothing,
    // "All lines" sends [] when ticked and null when not, a line's box adds it to the chosen ones.
    drivable: (s, event) => {
      if (event.type === 'user.role') return s.context.form.role !== event.role;
      if (event.type === 'user.lines') {
        if (event.lines === null) return s.context.form.serviceLines !== null;
        if (event.lines.length === 0) return s.context.form.serviceLines === null;
        return s.context.form.serviceLines !== null && s.context.form.serviceLines.length === 0;
      }
      return true;
    },
    events: {
      'user.invite': async ({ user }) => user.click(screen.getByRole('button', { name: 'Invite member' })),
      'user.edit': async ({ user }) => user.click(screen.getByRole('button', { name: 'Edit Sam Site' })),
      'user.remove': async ({ user }) => user.click(screen.getByRole('button', { name: 'Remove Sam Site' })),
      'user.revoke': async ({ user }) => user.click(screen.getByRole('button', { name: `Revoke the invitation to ${pending.email}` })),
      'user.field': async ({ user }, event) => {
        const input = dialog().getByLabelText(event.field === 'email' ? 'Email' : 'Name');
        await user.clear(input);
        await user.paste(event.value);
      },
      'user.role': async ({ user }, event) => user.click(dialog().getByLabelText(new RegExp(`^${event.role === 'manager' ? 'Manager' : event.role === 'owner' ? 'Owner' : 'Viewer'}`))),
      'user.lines': async ({ user }, event) => user.click(dialog().getByLabelText(event.lines !== null && event.lines.length > 0 ? `${LINE} (North Barn)` : 'All lines')),
      'user.confirm': async ({ user }) => user.click(dialog().getByRole('button', { name: CONFIRM_LABELS })),
      'user.close': async ({ user }) => user.click(dialog().getByRole('button', { name: 'Cancel' })),
    },
    states: {
      closed: () => {
        expectNoDialog();
        expect(screen.getByRole('button', { name: 'Invite member' })).toHaveProperty('disabled', false);
      },
      'inviting.editing': ({ context }) => {
        expect(screen.getByRole('dialog', { name: 'Invite member' })).toBeTruthy();
        expect(dialog().getByLabelText('Email')).toHaveProperty('value', context.form.email);
        if (context.fieldErrors.email) expect(dialog().getByText(context.fieldErrors.email)).toBeTruthy();
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
      },
      'inviting.sending': () => expect(dialog().getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true),
      'changing.editing': ({ context }) => {
        expect(screen.getByRole('dialog', { name: 'Edit Sam Site' })).toBeTruthy();
        expect(dialog().getByLabelText('All lines')).toHaveProperty('checked', context.form.serviceLines === null);
        if (context.fieldErrors.serviceLines) expect(dialog().getByText(context.fieldErrors.serviceLines)).toBeTruthy();
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
      },
      'changing.saving': () => expect(dialog().getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true),
      'removing.confirming': ({ context }) => {
        expect(screen.getByRole('dialog', { name: 'Remove Sam Site?' })).toBeTruthy();
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
      },
      'removing.sending': () => expect(dialog().getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true),
      'revoking.confirming': ({ context }) => {
        expect(screen.getByRole('dialog', { name: 'Revoke invitation?' })).toBeTruthy();
        if (context.failure) expect(dialog().getByText(context.failure)).toBeTruthy();
      },
      'revoking.sending': (s) => {
        expect(openDialogName(s.value)).toBe('Revoke invitation?');
        expect(dialog().getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
      },
    },
  },
});

modelSuite(teamActionsModel);

describe('team actions (pinned journeys)', () => {
  it('an invitation refused for a taken email, corrected and sent: one reload, the corrected address sent', async () => {
    const answers: LoadOutcome<unknown>[] = [refused(M.emailTaken), ok({})];
    const inputs: unknown[] = [];
    const teamChanged = vi.fn();
    const invite = fromPromise<LoadOutcome<unknown>, InvitePayload>(async ({ input }) => {
      inputs.push(input);
      return answers.shift()!;
    });
    const actor = createActor(teamActionsMachine.provide({ actors: { inviteMember: invite }, actions: { teamChanged } })).start();
    actor.send({ type: 'user.invite' });
    actor.send({ type: 'user.field', field: 'email', value: 'taken@northwind.example' });
    actor.send({ type: 'user.field', field: 'name', value: 'Tia' });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches({ inviting: 'editing' }) && s.context.failure === M.emailTaken);
    actor.send({ type: 'user.field', field: 'email', value: 'tia@northwind.example' });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(inputs).toEqual([
      { email: 'taken@northwind.example', name: 'Tia', role: 'viewer', serviceLines: null },
      { email: 'tia@northwind.example', name: 'Tia', role: 'viewer', serviceLines: null },
    ]);
    expect(teamChanged).toHaveBeenCalledOnce();
  });
});
