import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { PASSWORD_SETUP_MESSAGES, type CheckResult } from '../../src/machines/customer-password-setup';
import { CUSTOMER_MESSAGES } from '../../src/domain/customers';
import { PASSWORD_MESSAGES } from '../../src/domain/password';
import { account, ok, refused, startSetup } from './starters/customer-password-setup';

const type = (field: 'password' | 'confirmPassword', value: string) => ({ type: 'user.field', field, value }) as const;

describe('password setup machine (actor)', () => {
  it('checks the link, shows whose account it is, sets the password and ends done', async () => {
    const { actor, checked, submitted } = startSetup(' tok-123 ', [ok(account)]);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect((await waitFor(actor, (s) => s.matches('ready'))).context.account).toEqual(account);
    expect(checked).toHaveBeenCalledExactlyOnceWith('tok-123');
    actor.send(type('password', 'correct horse'));
    actor.send(type('confirmPassword', 'correct horse'));
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(submitted).toHaveBeenCalledExactlyOnceWith({ token: 'tok-123', password: 'correct horse', confirmPassword: 'correct horse' });
    expect(done.context).toMatchObject({ email: account.email, password: '', confirmPassword: '', problem: null });
  });

  it('a link without a token is invalid without asking the server', () => {
    for (const token of [null, '', '   ']) {
      const { actor, checked } = startSetup(token, [ok(account)]);
      expect(actor.getSnapshot().value).toBe('invalid');
      expect(actor.getSnapshot().context.linkMessage).toBe(CUSTOMER_MESSAGES.setupTokenInvalid);
      expect(checked).not.toHaveBeenCalled();
    }
  });

  it('an unknown link (404) is invalid and a used or expired one (410) is gone, each with the server message or a fallback', async () => {
    const cases: Array<[CheckResult, string, string]> = [
      [refused(404, 'This password setup link is not valid.'), 'invalid', 'This password setup link is not valid.'],
      [refused(404, ''), 'invalid', CUSTOMER_MESSAGES.setupTokenInvalid],
      [refused(400, ''), 'invalid', CUSTOMER_MESSAGES.setupTokenInvalid],
      [refused(410, CUSTOMER_MESSAGES.setupTokenUsed), 'gone', CUSTOMER_MESSAGES.setupTokenUsed],
      [refused(410, ''), 'gone', CUSTOMER_MESSAGES.setupTokenExpired],
    ];
    for (const [answer, state, message] of cases) {
      const { actor } = startSetup('tok', [answer]);
      const snapshot = await waitFor(actor, (s) => s.matches(state as 'invalid'));
      expect(snapshot.context.linkMessage).toBe(message);
    }
  });

  it('a check that gets no answer (or a 5xx) can be tried again', async () => {
    const { actor, checked } = startSetup('tok', [new TypeError('fetch failed'), refused(503, ''), ok(account)]);
    expect((await waitFor(actor, (s) => s.matches('checkFailed'))).context.linkMessage).toBe(PASSWORD_SETUP_MESSAGES.checkFailed);
    actor.send({ type: 'user.retry' });
    expect((await waitFor(actor, (s) => s.matches('checkFailed'))).context.linkMessage).toBe(PASSWORD_SETUP_MESSAGES.checkFailed);
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(checked).toHaveBeenCalledTimes(3);
  });

  it('the password rules are checked in the spec order, and an edit clears the message', async () => {
    const { actor, submitted } = startSetup('tok', [ok(account)]);
    await waitFor(actor, (s) => s.matches('ready'));
    const problemAfter = (password: string, confirm: string) => {
      actor.send(type('password', password));
      actor.send(type('confirmPassword', confirm));
      actor.send({ type: 'user.submit' });
      return actor.getSnapshot().context.problem;
    };
    expect(problemAfter('', '')).toBe(PASSWORD_MESSAGES.allRequired);
    expect(problemAfter('abcdefgh', 'abcdefgi')).toBe(PASSWORD_MESSAGES.mismatch);
    expect(problemAfter('short', 'short')).toBe(PASSWORD_MESSAGES.tooShort);
    actor.send(type('password', 'short!'));
    expect(actor.getSnapshot().context.problem).toBeNull();
    expect(submitted).not.toHaveBeenCalled();
  });

  it("the server's refusal of the password is shown on the form; a link that ran out meanwhile is gone", async () => {
    const { actor } = startSetup('tok', [ok(account)], [refused(400, 'Password is too common'), new TypeError('fetch failed'), refused(410, '')]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send(type('password', 'password1'));
    actor.send(type('confirmPassword', 'password1'));
    actor.send({ type: 'user.submit' });
    expect((await waitFor(actor, (s) => s.matches('ready') && s.context.problem !== null)).context.problem).toBe('Password is too common');
    actor.send({ type: 'user.submit' });
    expect((await waitFor(actor, (s) => s.matches('ready') && s.context.problem !== null)).context.problem).toBe(
      PASSWORD_SETUP_MESSAGES.submitFailed,
    );
    actor.send({ type: 'user.submit' });
    const gone = await waitFor(actor, (s) => s.matches('gone'));
    expect(gone.context).toMatchObject({ linkMessage: CUSTOMER_MESSAGES.setupTokenExpired, password: '', confirmPassword: '' });
  });
});
