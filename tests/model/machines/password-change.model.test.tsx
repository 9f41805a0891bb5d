// Settings → Security → Change Password (passwordChange machine): its generated paths walked on
// the machine and through the Settings page, plus journeys pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { SETTINGS_MESSAGES, type ChangePasswordPayload } from '../../../src/domain/users';
import type { LoadOutcome } from '../../../src/machines/resource';
import { PASSWORD_MESSAGES } from '../../../src/domain/password';
import { EMPTY_PASSWORD_CHANGE_FORM, passwordChangeMachine, type PasswordChangeField } from '../../../src/machines/password-change';
import { ok, refused, scriptedActors } from '../../machines/scripted-actors';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const LABELS: Record<PasswordChangeField, string> = {
  currentPassword: 'Current Password',
  newPassword: 'New Password',
  confirmPassword: 'Confirm New Password',
};
const field = (name: PasswordChangeField, value: string) => ({ type: 'user.field', field: name, value }) as const;
const form = () => within(screen.getByRole('form', { name: 'Change Password' }));

export const passwordChangeModel = defineModel<typeof passwordChangeMachine, PageScreen>({
  name: 'password-change',
  machine: passwordChangeMachine,
  events: {
    'user.field': [field('currentPassword', 'old password'), field('newPassword', 'new password 1'), field('confirmPassword', 'new password 1')],
    'user.submit': [{ type: 'user.submit' }],
  },
  actorResults: [
    done('changePassword', ok(null)),
    done('changePassword', refused(SETTINGS_MESSAGES.wrongCurrentPassword)),
    failed('changePassword', new TypeError('fetch failed')),
  ],
  states: {
    editing: (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
    submitting: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(problemOf(snapshot.context.form)).toBeNull();
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/settings', seam);
      await page.user.click(await screen.findByRole('tab', { name: 'Security' }));
      return page;
    },
    events: {
      'user.field': async ({ user }, event) => {
        const input = form().getByLabelText(LABELS[event.field]);
        await user.click(input);
        await user.clear(input);
        // Pasted: one input event, as the step is one event.
        if (event.value) await user.paste(event.value);
      },
      'user.submit': async ({ user }) => user.click(form().getByRole('button', { name: 'Change Password' })),
    },
    states: {
      editing: () => {
        expect(form().getByRole('button', { name: 'Change Password' })).toHaveProperty('disabled', false);
        for (const label of Object.values(LABELS)) expect(form().getByLabelText(label)).toHaveProperty('disabled', false);
      },
      submitting: () => {
        expect(form().getByRole('button', { name: 'Changing...' })).toHaveProperty('disabled', true);
        for (const label of Object.values(LABELS)) expect(form().getByLabelText(label)).toHaveProperty('disabled', true);
      },
    },
  },
});

function problemOf(value: typeof EMPTY_PASSWORD_CHANGE_FORM): string | null {
  if (!value.currentPassword || !value.newPassword || !value.confirmPassword) return PASSWORD_MESSAGES.allRequired;
  return null;
}

modelSuite(passwordChangeModel);

// Pinned by hand: a generated expectation follows a wrong transition; these do not.
describe('password change (pinned journeys)', () => {
  it('pinned: a refused change keeps the form and names the reason; the next one clears it', async () => {
    const { answer } = scriptedActors();
    const actor = createActor(
      passwordChangeMachine.provide({ actors: { changePassword: answer<LoadOutcome<unknown>, ChangePasswordPayload>('changePassword', [refused(SETTINGS_MESSAGES.wrongCurrentPassword), ok(null)]) } }),
    ).start();
    actor.send(field('currentPassword', 'wrong'));
    actor.send(field('newPassword', 'new password 1'));
    actor.send(field('confirmPassword', 'new password 1'));
    actor.send({ type: 'user.submit' });
    const refusedOnce = await waitFor(actor, (s) => s.matches('editing'));
    expect(refusedOnce.context.error).toBe(SETTINGS_MESSAGES.wrongCurrentPassword);
    expect(refusedOnce.context.form.currentPassword).toBe('wrong');
    actor.send(field('currentPassword', 'old password'));
    actor.send({ type: 'user.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    const changed = await waitFor(actor, (s) => s.matches('editing'));
    expect(changed.context).toEqual({ form: EMPTY_PASSWORD_CHANGE_FORM, error: null });
  });
});
