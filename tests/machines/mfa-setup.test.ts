import { describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { FALLBACK_LOAD_ERROR } from '../../src/machines/resource';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { refused } from './scripted-actors';
import { backupCodes, cancel, confirm, disable, enable, secret, startCard, typeCode, verify, type Answers } from './starters/mfa-setup';

async function inSetup(answers: Answers = {}) {
  const card = startCard(false, answers);
  card.actor.send(enable);
  await waitFor(card.actor, (s) => s.matches('setup'));
  return card;
}

describe('mfa setup machine: the first mode follows the profile', () => {
  it('a profile without MFA opens on the disabled warning', () => {
    const { actor, calls } = startCard(false);
    expect(actor.getSnapshot().value).toBe('disabled');
    expect(calls).toEqual([]);
  });

  it('a profile with MFA opens enabled, without backup codes to show', () => {
    const { actor } = startCard(true);
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(actor.getSnapshot().context.backupCodes).toBeNull();
  });
});

describe('mfa setup machine: enabling', () => {
  it('Enable fetches a new secret and shows the QR code and the manual code', async () => {
    const { actor, called } = startCard(false);
    actor.send(enable);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('setup'));
    expect(snapshot.context).toMatchObject({ setup: secret, code: '' });
    expect(called('startSetup')).toHaveLength(1);
  });

  it.each([
    ['a refusal', refused('Multi-factor authentication is already enabled'), 'Multi-factor authentication is already enabled'],
    ['a refusal without words', refused(' '), FALLBACK_LOAD_ERROR],
    ['no answer', new TypeError('fetch failed'), FALLBACK_LOAD_ERROR],
  ])('%s to Enable goes back to disabled with a failure toast', async (_name, answer, message) => {
    const { actor, notifyFailure } = startCard(false, { start: [answer] });
    actor.send(enable);
    await waitFor(actor, (s) => s.matches('disabled'));
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(message);
    expect(actor.getSnapshot().context.setup).toBeNull();
  });

  it('the code input keeps digits only, at most six', async () => {
    const { actor } = await inSetup();
    actor.send(typeCode('12a-3 4'));
    expect(actor.getSnapshot().context.code).toBe('1234');
    actor.send(typeCode('123456789'));
    expect(actor.getSnapshot().context.code).toBe('123456');
  });

  it('Verify is possible only at exactly six digits', async () => {
    const { actor, called } = await inSetup();
    for (const typed of ['', '1', '12345']) {
      actor.send(typeCode(typed));
      expect(actor.getSnapshot().can(verify)).toBe(false);
      actor.send(verify);
      expect(actor.getSnapshot().value).toBe('setup');
    }
    actor.send(typeCode('123456'));
    expect(actor.getSnapshot().can(verify)).toBe(true);
    expect(called('verifyCode')).toHaveLength(0);
  });

  it('a right code enables MFA, shows the backup codes once and tells the session', async () => {
    const { actor, called, notifySuccess, mfaChanged } = await inSetup();
    actor.send(typeCode('123456'));
    actor.send(verify);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('enabled'));
    expect(called('verifyCode').map((c) => c.input)).toEqual([{ code: '123456' }]);
    expect(snapshot.context).toMatchObject({ backupCodes, setup: null, code: '' });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(MFA_MESSAGES.enabled);
    expect(mfaChanged).toHaveBeenCalledExactlyOnceWith(true);
  });

  it.each([
    ['a wrong code', refused(MFA_MESSAGES.wrongCode)],
    ['no answer', new TypeError('fetch failed')],
  ])('%s goes back to setup with the code cleared and the wrong-code toast', async (_name, answer) => {
    const { actor, notifyFailure, mfaChanged } = await inSetup({ verify: [answer] });
    actor.send(typeCode('654321'));
    actor.send(verify);
    const snapshot = await waitFor(actor, (s) => s.matches('setup'));
    expect(snapshot.context).toMatchObject({ code: '', setup: secret });
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(MFA_MESSAGES.wrongCode);
    expect(mfaChanged).not.toHaveBeenCalled();
  });

  it('Cancel in setup returns to disabled and forgets the secret', async () => {
    const { actor } = await inSetup();
    actor.send(typeCode('123'));
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('disabled');
    expect(actor.getSnapshot().context).toMatchObject({ setup: null, code: '' });
  });

  it('the manual code can be copied during setup', async () => {
    const { actor, copyText, notifySuccess } = await inSetup();
    actor.send({ type: 'user.copy', text: secret.secret });
    expect(copyText).toHaveBeenCalledExactlyOnceWith(secret.secret);
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(MFA_MESSAGES.copied);
  });

  it('leaving the card while the code is checked aborts the request', async () => {
    const { actor, called } = await inSetup({ verify: ['hang'] });
    actor.send(typeCode('123456'));
    actor.send(verify);
    await vi.waitFor(() => expect(called('verifyCode')).toHaveLength(1));
    actor.stop();
    expect(called('verifyCode')[0]!.signal.aborted).toBe(true);
  });
});

describe('mfa setup machine: enabled and disabling', () => {
  it('a backup code is copied with the copied toast', () => {
    const { actor, copyText, notifySuccess } = startCard(true);
    actor.send({ type: 'user.copy', text: 'AB2C-DE3F' });
    expect(copyText).toHaveBeenCalledExactlyOnceWith('AB2C-DE3F');
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(MFA_MESSAGES.copied);
  });

  it('Disable asks for proof, and confirming without any says what is needed without a call', () => {
    const { actor, calls } = startCard(true);
    actor.send(disable);
    expect(actor.getSnapshot().value).toBe('confirmingDisable');
    actor.send(confirm);
    expect(actor.getSnapshot().value).toBe('confirmingDisable');
    expect(actor.getSnapshot().context.error).toBe(MFA_MESSAGES.disableNeedsProof);
    actor.send({ type: 'user.proof', code: '12' });
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send(confirm);
    expect(actor.getSnapshot().context.error).toBe(MFA_MESSAGES.disableNeedsProof);
    expect(calls).toEqual([]);
  });

  it('a current code disables MFA, forgets the backup codes and tells the session', async () => {
    const { actor, called, notifySuccess, mfaChanged } = startCard(true);
    actor.send(disable);
    actor.send({ type: 'user.proof', code: '98 7654' });
    actor.send(confirm);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('disabled'));
    expect(called('disableMfa').map((c) => c.input)).toEqual([{ code: '987654' }]);
    expect(snapshot.context).toMatchObject({ backupCodes: null, proof: { code: '', password: '' }, error: null });
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(MFA_MESSAGES.disabled);
    expect(mfaChanged).toHaveBeenCalledExactlyOnceWith(false);
  });

  it('the password disables MFA when no complete code was given', async () => {
    const { actor, called } = startCard(true);
    actor.send(disable);
    actor.send({ type: 'user.proof', password: 'correct horse' });
    actor.send({ type: 'user.proof', code: '12' });
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('disabled'));
    expect(called('disableMfa').map((c) => c.input)).toEqual([{ password: 'correct horse' }]);
  });

  it.each([
    ['a refusal', refused('Invalid verification code. Please try again.'), 'Invalid verification code. Please try again.'],
    ['a refusal without words', refused(''), MFA_MESSAGES.disableFailed],
    ['no answer', new TypeError('fetch failed'), MFA_MESSAGES.disableFailed],
  ])('%s keeps the disable step with the reason inline and in a toast', async (_name, answer, message) => {
    const { actor, notifyFailure, mfaChanged } = startCard(true, { disable: [answer] });
    actor.send(disable);
    actor.send({ type: 'user.proof', password: 'wrong' });
    actor.send(confirm);
    const snapshot = await waitFor(actor, (s) => s.matches('confirmingDisable') && s.context.error !== null);
    expect(snapshot.context.error).toBe(message);
    expect(notifyFailure).toHaveBeenCalledExactlyOnceWith(message);
    expect(mfaChanged).not.toHaveBeenCalled();
  });

  it('Cancel in the disable step returns to enabled and forgets what was typed', () => {
    const { actor } = startCard(true);
    actor.send(disable);
    actor.send({ type: 'user.proof', password: 'secret' });
    actor.send(cancel);
    expect(actor.getSnapshot().value).toBe('enabled');
    expect(actor.getSnapshot().context.proof).toEqual({ code: '', password: '' });
  });
});
