// The team's dialogs (teamActions machine): invite, change a member's seat, remove, revoke — each
// ends in one request through the shared submitting state; the requests are stubbed at the seam.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MEMBER_MESSAGES as M, type InvitePayload, type MemberPatchPayload, type TeamInvitationWire, type TeamMemberWire } from '../../src/domain/members';
import type { LoadOutcome } from '../../src/machines/resource';
import { TEAM_ACTION_MESSAGES, teamActionsMachine } from '../../src/machines/team-actions';

const sam: TeamMemberWire = { id: 'm-1', original: false, name: 'Sam Site', email: 'sam@northwind.example', role: 'manager', serviceLines: ['AST-1'], mfaEnabled: false, lastLogin: null, createdAt: '2026-03-01T00:00:00.000Z' };
const pending: TeamInvitationWire = { id: 'i-1', email: 'ivy@northwind.example', name: 'Ivy', role: 'viewer', serviceLines: null, status: 'pending', expiresAt: '2026-03-25T00:00:00.000Z', createdAt: '2026-03-18T00:00:00.000Z' };

type Answer = LoadOutcome<unknown> | Error;

function start(answers: Answer[] = []) {
  const calls: { src: string; input: unknown }[] = [];
  const answer = <I,>(src: string) =>
    fromPromise<LoadOutcome<unknown>, I>(async ({ input }) => {
      calls.push({ src, input });
      const next = answers.shift() ?? { ok: true, data: {} };
      if (next instanceof Error) throw next;
      return next;
    });
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const teamChanged = vi.fn();
  const actor = createActor(
    teamActionsMachine.provide({
      actors: {
        inviteMember: answer<InvitePayload>('inviteMember'),
        updateMember: answer<{ id: string; patch: MemberPatchPayload }>('updateMember'),
        removeMember: answer<{ id: string }>('removeMember'),
        revokeInvitation: answer<{ id: string }>('revokeInvitation'),
      },
      actions: { notifySuccess: (_, m: string) => notifySuccess(m), notifyFailure: (_, m: string) => notifyFailure(m), teamChanged },
    }),
  ).start();
  return { actor, calls, notifySuccess, notifyFailure, teamChanged };
}

describe('team actions machine', () => {
  it('invites a site manager on one line: the trimmed form is sent, the dialog closes with a toast and the team reloads', async () => {
    const { actor, calls, notifySuccess, teamChanged } = start();
    actor.send({ type: 'user.invite' });
    expect(actor.getSnapshot().matches({ inviting: 'editing' })).toBe(true);
    actor.send({ type: 'user.field', field: 'email', value: ' sam@northwind.example ' });
    actor.send({ type: 'user.field', field: 'name', value: 'Sam Site' });
    actor.send({ type: 'user.role', role: 'manager' });
    actor.send({ type: 'user.lines', lines: ['AST-1'] });
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([{ src: 'inviteMember', input: { email: 'sam@northwind.example', name: 'Sam Site', role: 'manager', serviceLines: ['AST-1'] } }]);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(M.invited('sam@northwind.example'));
    expect(teamChanged).toHaveBeenCalledOnce();
  });

  it('keeps the invitation form with each problem by its field, sending nothing; an edit clears its field', () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.invite' });
    actor.send({ type: 'user.lines', lines: [] });
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: M.emailRequired, name: M.nameRequired, serviceLines: M.linesEmpty });
    actor.send({ type: 'user.field', field: 'email', value: 'x' });
    expect(actor.getSnapshot().context.fieldErrors.email).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("changes a member's role and lines, and refuses an empty line list before sending", async () => {
    const { actor, calls } = start();
    actor.send({ type: 'user.edit', member: sam });
    expect(actor.getSnapshot().context.form).toMatchObject({ role: 'manager', serviceLines: ['AST-1'] });
    actor.send({ type: 'user.lines', lines: [] });
    actor.send({ type: 'user.confirm' });
    expect(actor.getSnapshot().context.fieldErrors.serviceLines).toBe(M.linesEmpty);
    actor.send({ type: 'user.lines', lines: null });
    actor.send({ type: 'user.role', role: 'viewer' });
    actor.send({ type: 'user.confirm' });
    await waitFor(actor, (s) => s.matches('closed'));
    expect(calls).toEqual([{ src: 'updateMember', input: { id: 'm-1', patch: { role: 'viewer', serviceLines: null } } }]);
  });

  it("keeps a refused removal open with the server's words, and a failed revoke with its own", async () => {
    const { actor, notifyFailure } = start([{ ok: false, message: M.originalOwner }, new Error('offline')]);
    actor.send({ type: 'user.remove', member: sam });
    actor.send({ type: 'user.confirm' });
    expect((await waitFor(actor, (s) => s.matches({ removing: 'confirming' }) && s.context.failure !== null)).context.failure).toBe(M.originalOwner);
    actor.send({ type: 'user.close' });
    actor.send({ type: 'user.revoke', invitation: pending });
    actor.send({ type: 'user.confirm' });
    expect((await waitFor(actor, (s) => s.matches({ revoking: 'confirming' }) && s.context.failure !== null)).context.failure).toBe(TEAM_ACTION_MESSAGES.revokeFailed);
    expect(notifyFailure).toHaveBeenCalledTimes(2);
  });
});
