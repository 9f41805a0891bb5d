// The public invitation page's machine: the link checked, the invitee's name and password, the
// member made; an unknown, used, expired or revoked invitation shown as such.
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { MEMBER_MESSAGES } from '../../src/domain/members';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { INVITATION_ACCEPT_MESSAGES, type InvitationCheckResult } from '../../src/machines/invitation-accept';
import { invitation, ok, refused, startInvitation } from './starters/invitation-accept';

const type = (field: 'name' | 'password' | 'confirmPassword', value: string) => ({ type: 'user.field', field, value }) as const;

describe('invitation accept machine (actor)', () => {
  it('checks the invitation, fills in the invited name, sends name and password and ends done', async () => {
    const { actor, checked, submitted } = startInvitation(' tok-1 ', [ok(invitation)]);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const ready = await waitFor(actor, (s) => s.matches('ready'));
    expect(ready.context).toMatchObject({ invitation, name: 'Sam Site' });
    expect(checked).toHaveBeenCalledExactlyOnceWith('tok-1');
    actor.send(type('name', ' Samantha Site '));
    actor.send(type('password', 'correct horse'));
    actor.send(type('confirmPassword', 'correct horse'));
    actor.send({ type: 'user.submit' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(submitted).toHaveBeenCalledExactlyOnceWith({ token: 'tok-1', name: 'Samantha Site', password: 'correct horse', confirmPassword: 'correct horse' });
    expect(done.context).toMatchObject({ email: invitation.email, password: '', confirmPassword: '', problem: null });
  });

  it('a link without a token is invalid without asking the server', () => {
    for (const token of [null, '', '  ']) {
      const { actor, checked } = startInvitation(token, [ok(invitation)]);
      expect(actor.getSnapshot().value).toBe('invalid');
      expect(actor.getSnapshot().context.linkMessage).toBe(MEMBER_MESSAGES.invitationInvalid);
      expect(checked).not.toHaveBeenCalled();
    }
  });

  it("an unknown invitation (404) is invalid and an accepted, expired or revoked one (410) is gone, in the server's words", async () => {
    const cases: Array<[InvitationCheckResult, string, string]> = [
      [refused(404, MEMBER_MESSAGES.invitationInvalid), 'invalid', MEMBER_MESSAGES.invitationInvalid],
      [refused(410, MEMBER_MESSAGES.invitationUsed), 'gone', MEMBER_MESSAGES.invitationUsed],
      [refused(410, MEMBER_MESSAGES.invitationRevoked), 'gone', MEMBER_MESSAGES.invitationRevoked],
      [refused(410, ''), 'gone', MEMBER_MESSAGES.invitationExpired],
    ];
    for (const [answer, state, message] of cases) {
      const { actor } = startInvitation('tok', [answer]);
      const snapshot = await waitFor(actor, (s) => s.matches(state as 'invalid'));
      expect(snapshot.context.linkMessage).toBe(message);
    }
  });

  it('a check that gets no answer (or a 5xx) can be tried again', async () => {
    const { actor, checked } = startInvitation('tok', [new TypeError('fetch failed'), refused(503, ''), ok(invitation)]);
    expect((await waitFor(actor, (s) => s.matches('checkFailed'))).context.linkMessage).toBe(INVITATION_ACCEPT_MESSAGES.checkFailed);
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('checkFailed'));
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(checked).toHaveBeenCalledTimes(3);
  });

  it('names the first broken rule (name, then passwords) and sends nothing; an edit clears it', async () => {
    const { actor, submitted } = startInvitation('tok', [ok(invitation)]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send(type('name', '  '));
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.problem).toBe(MEMBER_MESSAGES.nameRequired);
    actor.send(type('name', 'Sam'));
    expect(actor.getSnapshot().context.problem).toBeNull();
    actor.send(type('password', 'short'));
    actor.send(type('confirmPassword', 'short'));
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.problem).toBe(PASSWORD_MESSAGES.tooShort);
    expect(submitted).not.toHaveBeenCalled();
  });

  it('an invitation used or revoked while the form was open is gone; a refusal of the password stays on the form; no answer says so', async () => {
    const fill = (actor: ReturnType<typeof startInvitation>['actor']) => {
      actor.send(type('password', 'correct horse'));
      actor.send(type('confirmPassword', 'correct horse'));
      actor.send({ type: 'user.submit' });
    };
    const gone = startInvitation('tok', [ok(invitation)], [refused(410, MEMBER_MESSAGES.invitationUsed)]);
    await waitFor(gone.actor, (s) => s.matches('ready'));
    fill(gone.actor);
    expect((await waitFor(gone.actor, (s) => s.matches('gone'))).context).toMatchObject({ linkMessage: MEMBER_MESSAGES.invitationUsed, password: '' });

    const unknown = startInvitation('tok', [ok(invitation)], [refused(404, '')]);
    await waitFor(unknown.actor, (s) => s.matches('ready'));
    fill(unknown.actor);
    expect((await waitFor(unknown.actor, (s) => s.matches('invalid'))).context.linkMessage).toBe(MEMBER_MESSAGES.invitationInvalid);

    const taken = startInvitation('tok', [ok(invitation)], [refused(409, MEMBER_MESSAGES.emailTaken), new TypeError('offline')]);
    await waitFor(taken.actor, (s) => s.matches('ready'));
    fill(taken.actor);
    expect((await waitFor(taken.actor, (s) => s.matches('ready') && s.context.problem !== null)).context.problem).toBe(MEMBER_MESSAGES.emailTaken);
    taken.actor.send({ type: 'user.submit' });
    expect((await waitFor(taken.actor, (s) => s.matches('ready') && s.context.problem === INVITATION_ACCEPT_MESSAGES.submitFailed)).context.password).toBe('correct horse');
  });
});
