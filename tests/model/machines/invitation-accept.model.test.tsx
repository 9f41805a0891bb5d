// The public invitation page (`/invitation/<token>`, invitationAccept machine): its generated
// paths walked on the machine and through the page an invited person opens from the emailed link,
// plus a journey pinned by hand.
import { configure, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { MEMBER_MESSAGES, memberNameProblem } from '../../../src/domain/members';
import { newPasswordProblem } from '../../../src/domain/password';
import { invitationAcceptMachine } from '../../../src/machines/invitation-accept';
import { invitation, ok, refused, startInvitation } from '../../machines/starters/invitation-accept';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

// The walk crosses lazily imported routes; on two busy CI cores a first render can take longer than
// Testing Library's default second.
configure({ asyncUtilTimeout: 5_000 });

const TOKEN = 'tok-invite-model';
const field = (name: 'name' | 'password' | 'confirmPassword', value: string) => ({ type: 'user.field', field: name, value }) as const;
const LABELS = { name: 'Your name', password: 'Password', confirmPassword: 'Confirm password' } as const;
const heading = (name: string) => screen.getByRole('heading', { level: 1, name });
const alertText = () => screen.getByRole('alert').textContent;

export const invitationAcceptModel = defineModel<typeof invitationAcceptMachine, PageScreen>({
  name: 'invitation-accept',
  machine: invitationAcceptMachine,
  // The link as emailed, and one whose token was cut off.
  inputs: [{ token: TOKEN }, { token: '' }],
  events: {
    'user.field': [field('password', 'correct horse'), field('confirmPassword', 'correct horse'), field('name', '')],
    'user.submit': [{ type: 'user.submit' }],
    'user.retry': [{ type: 'user.retry' }],
  },
  actorResults: [
    done('checkInvitation', ok(invitation)),
    done('checkInvitation', refused(404, MEMBER_MESSAGES.invitationInvalid)),
    done('checkInvitation', refused(410, MEMBER_MESSAGES.invitationRevoked)),
    done('checkInvitation', refused(503, 'Down')),
    failed('checkInvitation', new TypeError('fetch failed')),
    done('acceptInvitation', ok({ email: invitation.email })),
    done('acceptInvitation', refused(410, MEMBER_MESSAGES.invitationUsed)),
    done('acceptInvitation', refused(404, MEMBER_MESSAGES.invitationInvalid)),
    done('acceptInvitation', refused(409, MEMBER_MESSAGES.emailTaken)),
    failed('acceptInvitation', new TypeError('fetch failed')),
  ],
  states: {
    start: () => expect.fail('start is eventless: the actor never rests in it'),
    checking: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.token).toBe(TOKEN);
    },
    checkFailed: (s) => {
      expect(s.context.linkMessage).toBeTruthy();
      expect(s.can({ type: 'user.retry' })).toBe(true);
    },
    invalid: (s) => expect(s.context).toMatchObject({ password: '', confirmPassword: '' }),
    gone: (s) => {
      expect(s.context.linkMessage).toBeTruthy();
      expect(s.context).toMatchObject({ password: '', confirmPassword: '' });
    },
    ready: (s) => {
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.invitation).toEqual(invitation);
    },
    submitting: (s) => {
      expect(s.hasTag('busy')).toBe(true);
      // Only a form that keeps the rules is ever sent.
      expect(memberNameProblem(s.context.name) ?? newPasswordProblem(s.context.password, s.context.confirmPassword)).toBeNull();
    },
    done: (s) => {
      expect(s.status).toBe('done');
      expect(s.context).toMatchObject({ email: invitation.email, password: '', confirmPassword: '' });
    },
  },
  ui: {
    open: (seam, input) => openPage(input?.token ? `/invitation/${input.token}` : '/invitation/%20', seam),
    events: {
      'user.field': async ({ user }, event) => {
        const input = screen.getByLabelText(LABELS[event.field]);
        await user.click(input);
        await user.clear(input);
        if (event.value) await user.paste(event.value);
      },
      'user.submit': async ({ user }) => user.click(screen.getByRole('button', { name: 'Join' })),
      'user.retry': async ({ user }) => user.click(screen.getByRole('button', { name: 'Try Again' })),
    },
    states: {
      start: () => expect.fail('start is eventless: the page never shows it'),
      checking: () => {
        expect(heading('Join your team')).toBeTruthy();
        expect(screen.getByRole('status').textContent).toContain('Checking your invitation...');
      },
      checkFailed: (s) => {
        expect(heading('We could not check your invitation')).toBeTruthy();
        expect(alertText()).toBe(s.context.linkMessage);
      },
      invalid: (s) => {
        expect(heading('This invitation is not valid')).toBeTruthy();
        expect(alertText()).toBe(s.context.linkMessage);
        expect(screen.getByRole('link', { name: 'Go to the login page' })).toBeTruthy();
      },
      gone: (s) => {
        expect(heading('This invitation can no longer be used')).toBeTruthy();
        expect(alertText()).toBe(s.context.linkMessage);
      },
      ready: (s) => {
        expect(heading('Join your team')).toBeTruthy();
        expect(screen.getByLabelText('Your invitation').textContent).toContain(invitation.company);
        expect(screen.getByLabelText(LABELS.name)).toHaveProperty('value', s.context.name);
        expect(screen.getByLabelText(LABELS.password)).toHaveProperty('value', s.context.password);
        if (s.context.problem) expect(alertText()).toBe(s.context.problem);
        else expect(screen.queryByRole('alert')).toBeNull();
      },
      submitting: () => {
        expect(screen.getByRole('button', { name: 'Joining...' })).toHaveProperty('disabled', true);
      },
      done: () => {
        expect(heading('Welcome to the team')).toBeTruthy();
        expect(screen.getByRole('status').textContent).toContain(`You can now sign in as ${invitation.email} with your new password.`);
      },
    },
  },
});

modelSuite(invitationAcceptModel);

describe('invitation accept (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('check fails, retry, the name emptied, fixed, joined: ends done with the address', async () => {
    const { actor, submitted } = startInvitation('tok', [new TypeError('offline'), ok(invitation)]);
    await waitFor(actor, (s) => s.matches('checkFailed'));
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send(field('name', ''));
    actor.send(field('password', 'correct horse'));
    actor.send(field('confirmPassword', 'correct horse'));
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().context.problem).toBe(MEMBER_MESSAGES.nameRequired);
    actor.send(field('name', 'Sam'));
    actor.send({ type: 'user.submit' });
    const end = await waitFor(actor, (s) => s.status === 'done');
    expect(end.context.email).toBe(invitation.email);
    expect(submitted).toHaveBeenCalledOnce();
  });
});
