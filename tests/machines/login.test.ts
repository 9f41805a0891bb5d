import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { loginMachine, type AdminLoginOutcome, type MfaRequiredOutcome } from '../../src/machines/login';
import type { LoginOutcome } from '../../src/api/auth';
import { INVALID_CREDENTIALS_MESSAGE } from '../../src/domain/auth';
import { NETWORK_ERROR_MESSAGE } from '../../src/domain/login';
import { MFA_MESSAGES, type MfaLoginPayload } from '../../src/domain/mfa';
import { adminProfile, customerProfile } from './fixtures';

const adminOk: LoginOutcome = { ok: true, token: 'admin-token', profile: adminProfile, userType: 'admin' };
const customerOk: LoginOutcome = { ok: true, token: 'customer-token', profile: customerProfile, userType: 'customer' };
const refused = (message: string | null, status = 401): LoginOutcome => ({ ok: false, status, message });

const mfaRequired: MfaRequiredOutcome = { ok: true, mfaRequired: true, challenge: 'challenge-1' };

function startLogin(
  admin: () => Promise<AdminLoginOutcome>,
  customer: () => Promise<AdminLoginOutcome>,
  verify: (input: MfaLoginPayload, signal: AbortSignal) => Promise<LoginOutcome> = async () => adminOk,
) {
  const completeSignIn = vi.fn();
  const adminCalls = vi.fn();
  const customerCalls = vi.fn();
  const verifyCalls = vi.fn();
  const actor = createActor(
    loginMachine.provide({
      actors: {
        adminLogin: fromPromise(async ({ input }) => (adminCalls(input), admin())),
        customerLogin: fromPromise(async ({ input }) => (customerCalls(input), customer())),
        verifyLoginCode: fromPromise(async ({ input, signal }) => (verifyCalls(input), verify(input, signal))),
      },
      actions: { completeSignIn: (_, outcome) => completeSignIn(outcome) },
    }),
  ).start();
  return { actor, completeSignIn, adminCalls, customerCalls, verifyCalls };
}

const submit = { type: 'user.submit', email: ' ana.lima@example.com ', password: 'correct horse' } as const;

describe('login machine (actor)', () => {
  it('an admin signs in on the first attempt and the customer login is never tried', async () => {
    const { actor, completeSignIn, customerCalls, adminCalls } = startLogin(async () => adminOk, async () => customerOk);
    actor.send(submit);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(completeSignIn).toHaveBeenCalledWith(adminOk);
    expect(adminCalls).toHaveBeenCalledWith({ email: 'ana.lima@example.com', password: 'correct horse' });
    expect(customerCalls).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.credentials).toBeNull();
  });

  it('a customer signs in through the fallback after the admin attempt fails', async () => {
    const { actor, completeSignIn } = startLogin(async () => refused(INVALID_CREDENTIALS_MESSAGE), async () => customerOk);
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('customerAttempt'));
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(completeSignIn).toHaveBeenCalledWith(customerOk);
  });

  it('when both attempts fail the admin message wins over the customer message', async () => {
    const { actor } = startLogin(async () => refused('Your account has been blocked.', 403), async () => refused('Customer says no'));
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.error).toBe('Your account has been blocked.');
    expect(snapshot.hasTag('busy')).toBe(false);
  });

  it('without an admin message the customer message is shown, and without either the generic one', async () => {
    const first = startLogin(async () => refused(null), async () => refused('Customer account locked'));
    first.actor.send(submit);
    expect((await waitFor(first.actor, (s) => s.matches('failed'))).context.error).toBe('Customer account locked');

    const second = startLogin(async () => refused(null), async () => refused(''));
    second.actor.send(submit);
    expect((await waitFor(second.actor, (s) => s.matches('failed'))).context.error).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  it('a network failure shows a connection message and keeps no password', async () => {
    const { actor } = startLogin(async () => Promise.reject(new TypeError('fetch failed')), async () => customerOk);
    actor.send(submit);
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context.error).toBe(NETWORK_ERROR_MESSAGE);
    expect(snapshot.context.credentials).toBeNull();
  });

  it('submitting again after a failure clears the old error and tries the admin login first', async () => {
    let attempt = 0;
    const { actor } = startLogin(async () => (++attempt === 1 ? refused('Wrong') : adminOk), async () => refused(null));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send(submit);
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.status === 'done');
  });
});

describe('login machine: the code step of an account with MFA on', () => {
  async function atCodeStep(verify?: (input: MfaLoginPayload, signal: AbortSignal) => Promise<LoginOutcome>) {
    const started = startLogin(async () => mfaRequired, async () => customerOk, verify);
    started.actor.send(submit);
    await waitFor(started.actor, (s) => s.hasTag('codeStep'));
    return started;
  }
  const typeCode = (value: string) => ({ type: 'user.code', value }) as const;

  it('a right password with MFA on asks for a code, never tries the customer login and keeps no password', async () => {
    const { actor, customerCalls, completeSignIn } = await atCodeStep();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches({ code: 'entering' })).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(snapshot.context).toMatchObject({ challenge: 'challenge-1', code: '', error: null, credentials: null });
    expect(customerCalls).not.toHaveBeenCalled();
    expect(completeSignIn).not.toHaveBeenCalled();
  });

  it('a six-digit code is sent with the challenge and signs in like an admin success', async () => {
    const { actor, verifyCalls, completeSignIn } = await atCodeStep();
    actor.send(typeCode('123456'));
    actor.send({ type: 'user.submitCode' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(verifyCalls).toHaveBeenCalledExactlyOnceWith({ challenge: 'challenge-1', code: '123456', userType: 'admin' });
    expect(completeSignIn).toHaveBeenCalledExactlyOnceWith(adminOk);
    expect(actor.getSnapshot().context).toMatchObject({ challenge: null, code: '' });
  });

  it('a backup code is accepted as typed, without the spaces around it', async () => {
    const { actor, verifyCalls } = await atCodeStep();
    actor.send(typeCode(' abcd-efgh '));
    actor.send({ type: 'user.submitCode' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(verifyCalls).toHaveBeenCalledExactlyOnceWith({ challenge: 'challenge-1', code: 'abcd-efgh', userType: 'admin' });
  });

  it.each(['', '12345', '1234567', '12a456', 'ABCD-EFG'])('the malformed code "%s" is refused without a call', async (code) => {
    const { actor, verifyCalls } = await atCodeStep();
    actor.send(typeCode(code));
    actor.send({ type: 'user.submitCode' });
    expect(actor.getSnapshot().matches({ code: 'entering' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(MFA_MESSAGES.invalidCode);
    expect(verifyCalls).not.toHaveBeenCalled();
    actor.send(typeCode('1'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it.each([
    ['a wrong code', refused(MFA_MESSAGES.wrongCode), MFA_MESSAGES.wrongCode],
    ['a used backup code', refused(MFA_MESSAGES.usedBackupCode), MFA_MESSAGES.usedBackupCode],
    ['a locked account', refused('Account locked. Try again in 15 minutes.', 423), 'Account locked. Try again in 15 minutes.'],
    ['a refusal without words', refused(null), MFA_MESSAGES.wrongCode],
  ])('%s keeps the code step with the server message', async (_name, answer, message) => {
    const { actor, completeSignIn } = await atCodeStep(async () => answer);
    actor.send(typeCode('654321'));
    actor.send({ type: 'user.submitCode' });
    const snapshot = await waitFor(actor, (s) => s.matches({ code: 'entering' }) && s.context.error !== null);
    expect(snapshot.context.error).toBe(message);
    expect(snapshot.context.challenge).toBe('challenge-1');
    expect(completeSignIn).not.toHaveBeenCalled();
  });

  it('an expired challenge sends the user back to the credentials form with the expiry message', async () => {
    const { actor } = await atCodeStep(async () => refused(MFA_MESSAGES.challengeExpired));
    actor.send(typeCode('654321'));
    actor.send({ type: 'user.submitCode' });
    const snapshot = await waitFor(actor, (s) => s.matches('failed'));
    expect(snapshot.context).toMatchObject({ error: MFA_MESSAGES.challengeExpired, challenge: null, code: '' });
    expect(snapshot.hasTag('codeStep')).toBe(false);
  });

  it('a network failure on the code keeps the step with the connection message', async () => {
    const { actor } = await atCodeStep(() => Promise.reject(new TypeError('fetch failed')));
    actor.send(typeCode('654321'));
    actor.send({ type: 'user.submitCode' });
    const snapshot = await waitFor(actor, (s) => s.matches({ code: 'entering' }) && s.context.error !== null);
    expect(snapshot.context.error).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('Back returns to the empty form and forgets the challenge', async () => {
    const { actor } = await atCodeStep();
    actor.send(typeCode('12'));
    actor.send({ type: 'user.submitCode' });
    actor.send({ type: 'user.back' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ challenge: null, code: '', error: null });
  });

  it('leaving the login screen while the code is checked aborts the request', async () => {
    let seen: AbortSignal | undefined;
    const { actor } = await atCodeStep((_input, signal) => ((seen = signal), new Promise<never>(() => {})));
    actor.send(typeCode('654321'));
    actor.send({ type: 'user.submitCode' });
    await vi.waitFor(() => expect(seen).toBeDefined());
    expect(seen!.aborted).toBe(false);
    actor.stop();
    expect(seen!.aborted).toBe(true);
  });
});

describe('login machine: the code step of a customer with MFA on', () => {
  async function customerAtCodeStep(verify?: (input: MfaLoginPayload, signal: AbortSignal) => Promise<LoginOutcome>) {
    const started = startLogin(async () => refused(INVALID_CREDENTIALS_MESSAGE), async () => mfaRequired, verify ?? (async () => customerOk));
    started.actor.send(submit);
    await waitFor(started.actor, (s) => s.hasTag('codeStep'));
    return started;
  }

  it("the customer's right password asks for a code after the admin attempt failed, keeping no password", async () => {
    const { actor, adminCalls, customerCalls, completeSignIn } = await customerAtCodeStep();
    expect(adminCalls).toHaveBeenCalledTimes(1);
    expect(customerCalls).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context).toMatchObject({ challenge: 'challenge-1', challengeFor: 'customer', credentials: null, error: null });
    expect(completeSignIn).not.toHaveBeenCalled();
  });

  it('the code goes to the customer step and signs the customer in', async () => {
    const { actor, verifyCalls, completeSignIn } = await customerAtCodeStep();
    actor.send({ type: 'user.code', value: '123456' });
    actor.send({ type: 'user.submitCode' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(verifyCalls).toHaveBeenCalledExactlyOnceWith({ challenge: 'challenge-1', code: '123456', userType: 'customer' });
    expect(completeSignIn).toHaveBeenCalledExactlyOnceWith(customerOk);
    expect(actor.getSnapshot().context).toMatchObject({ challenge: null, challengeFor: null });
  });

  it("a wrong code keeps the customer's step with the server's words; Back forgets whose challenge it was", async () => {
    const { actor } = await customerAtCodeStep(async () => refused(MFA_MESSAGES.wrongCode));
    actor.send({ type: 'user.code', value: '654321' });
    actor.send({ type: 'user.submitCode' });
    const snapshot = await waitFor(actor, (s) => s.matches({ code: 'entering' }) && s.context.error !== null);
    expect(snapshot.context).toMatchObject({ error: MFA_MESSAGES.wrongCode, challengeFor: 'customer' });
    actor.send({ type: 'user.back' });
    expect(actor.getSnapshot().context).toMatchObject({ challenge: null, challengeFor: null });
  });

  it('an admin challenge after a customer one is sent to the admin step', async () => {
    let admin = 0;
    const verifyCalls: unknown[] = [];
    const { actor } = startLogin(
      async () => (++admin === 1 ? refused(INVALID_CREDENTIALS_MESSAGE) : mfaRequired),
      async () => mfaRequired,
      async (input) => (verifyCalls.push(input), adminOk),
    );
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('codeStep'));
    actor.send({ type: 'user.back' });
    actor.send(submit);
    await waitFor(actor, (s) => s.hasTag('codeStep'));
    expect(actor.getSnapshot().context.challengeFor).toBe('admin');
    actor.send({ type: 'user.code', value: '123456' });
    actor.send({ type: 'user.submitCode' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(verifyCalls).toEqual([{ challenge: 'challenge-1', code: '123456', userType: 'admin' }]);
  });
});
