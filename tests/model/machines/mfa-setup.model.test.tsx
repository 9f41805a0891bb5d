// Settings → Security → Multi-Factor Authentication (mfaSetup machine): its generated paths walked on
// the machine and through the card of an administrator who has MFA off, plus journeys pinned by hand.
import { configure, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { MFA_MESSAGES, isCompleteMfaCode } from '../../../src/domain/mfa';
import { mfaSetupMachine } from '../../../src/machines/mfa-setup';
import { ENABLED_TEXT, QR_ALT } from '../../../src/ui/settings/MfaCard';
import { adminProfile } from '../../machines/fixtures';
import { ok, refused } from '../../machines/scripted-actors';
import { backupCodes, cancel, confirm, disable, enable, secret, startCard, typeCode, verify } from '../../machines/starters/mfa-setup';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

// The walk crosses lazily imported routes; on two busy CI cores a first render can take longer than
// Testing Library's default second, which every wait of the run (the framework's too) uses.
configure({ asyncUtilTimeout: 5_000 });

const card = () => within(screen.getByRole('region', { name: MFA_MESSAGES.title }));
const setupForm = () => within(screen.getByRole('form', { name: 'Set up multi-factor authentication' }));
const disableForm = () => within(screen.getByRole('form', { name: 'Disable multi-factor authentication' }));
const PROOF_LABELS = { code: 'Current code', password: 'Or your password' } as const;

/** Clicks a field, empties it and pastes the value: one input event, as the step is one event. */
async function paste({ user }: PageScreen, input: HTMLElement, value: string) {
  await user.click(input);
  await user.clear(input);
  if (value) await user.paste(value);
}

/** The session's profile follows the card (`mfaChanged` → `profile.update`). */
const sessionSaysMfa = (page: PageScreen) => page.app.session.getSnapshot().context.profile?.mfaEnabled;

export const mfaSetupModel = defineModel<typeof mfaSetupMachine, PageScreen>({
  name: 'mfa-setup',
  machine: mfaSetupMachine,
  // The Settings route gives the signed-in profile's word: an admin with MFA off, and one with it on.
  inputs: [{ mfaEnabled: false }, { mfaEnabled: true }],
  events: {
    'user.enable': [enable],
    // A complete code and a short one; the input keeps digits only (pinned in tests/machines).
    'user.code': [typeCode('123456'), typeCode('12a')],
    'user.verify': [verify],
    'user.cancel': [cancel],
    'user.copy': [{ type: 'user.copy', text: secret.secret }],
    'user.disable': [disable],
    'user.proof': [{ type: 'user.proof', code: '123456' }, { type: 'user.proof', password: 'correct horse' }],
    'user.confirm': [confirm],
  },
  actorResults: [
    done('startSetup', ok(secret)),
    done('startSetup', refused('Setup failed')),
    failed('startSetup', new TypeError('fetch failed')),
    done('verifyCode', ok({ backupCodes })),
    done('verifyCode', refused(MFA_MESSAGES.wrongCode)),
    failed('verifyCode', new TypeError('fetch failed')),
    done('disableMfa', ok(null)),
    done('disableMfa', refused('Invalid password')),
    failed('disableMfa', new TypeError('fetch failed')),
  ],
  states: {
    start: () => expect.fail('start is eventless: the actor never rests in it'),
    disabled: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      // Nothing of a set-up or of an enabled MFA outlives them.
      expect(snapshot.context).toMatchObject({ setup: null, code: '', backupCodes: null, proof: { code: '', password: '' }, error: null });
    },
    starting: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.setup).toBeNull();
    },
    setup: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(snapshot.context.setup).toEqual(secret);
      expect(snapshot.context.code).toMatch(/^\d{0,6}$/);
      expect(snapshot.can(verify)).toBe(isCompleteMfaCode(snapshot.context.code));
    },
    verifying: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(isCompleteMfaCode(snapshot.context.code)).toBe(true);
    },
    enabled: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      // Reached by verifying, the codes are there to show once; with MFA already on there are none.
      expect(snapshot.context).toMatchObject({ setup: null, code: '', proof: { code: '', password: '' }, error: null });
      expect([null, backupCodes]).toContainEqual(snapshot.context.backupCodes);
    },
    confirmingDisable: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(false);
      expect([null, backupCodes]).toContainEqual(snapshot.context.backupCodes);
    },
    disabling: (snapshot) => {
      expect(snapshot.hasTag('busy')).toBe(true);
      const { code, password } = snapshot.context.proof;
      expect(isCompleteMfaCode(code) || password.length > 0).toBe(true);
    },
  },
  ui: {
    // Copy buttons show with a set-up's key or the fresh backup codes, not on an MFA that was already on.
    drivable: (snapshot, event) => event.type !== 'user.copy' || snapshot.context.setup !== null || snapshot.context.backupCodes !== null,
    open: async (seam, input) => {
      const page = openPage('/settings', seam, {}, { ...adminProfile, mfaEnabled: input?.mfaEnabled ?? false });
      // The first path imports the lazy Settings route: more than findBy's second on a busy CI core.
      await page.user.click(await screen.findByRole('tab', { name: 'Security' }, { timeout: 10_000 }));
      return page;
    },
    events: {
      'user.enable': async ({ user }) => user.click(card().getByRole('button', { name: MFA_MESSAGES.enable })),
      'user.code': async (page, event) => paste(page, setupForm().getByLabelText('Verification code'), event.value),
      'user.verify': async ({ user }) => user.click(setupForm().getByRole('button', { name: MFA_MESSAGES.verifyAndEnable })),
      'user.cancel': async ({ user }) => user.click(card().getByRole('button', { name: MFA_MESSAGES.cancel })),
      // The copy button in view: the manual code in set-up, a backup code once enabled (what is
      // copied is the action's business; the chart stays where it is either way).
      'user.copy': async ({ user }, event) => {
        const button = card().queryByRole('button', { name: `Copy ${event.text}` }) ?? card().queryByRole('button', { name: 'Copy code' }) ?? card().getAllByRole('button', { name: /^Copy / })[0]!;
        await user.click(button);
      },
      'user.disable': async ({ user }) => user.click(card().getByRole('button', { name: MFA_MESSAGES.disable })),
      'user.proof': async (page, event) => {
        if (event.code !== undefined) await paste(page, disableForm().getByLabelText(PROOF_LABELS.code), event.code);
        if (event.password !== undefined) await paste(page, disableForm().getByLabelText(PROOF_LABELS.password), event.password);
      },
      'user.confirm': async ({ user }) => user.click(disableForm().getByRole('button', { name: 'Disable MFA' })),
    },
    states: {
      start: () => expect.fail('start is eventless: the card never shows it'),
      disabled: (_snapshot, page) => {
        expect(card().getByText(MFA_MESSAGES.disabledWarning)).toBeTruthy();
        expect(card().getByRole('button', { name: MFA_MESSAGES.enable })).toHaveProperty('disabled', false);
        expect(card().queryByRole('form')).toBeNull();
        expect(sessionSaysMfa(page)).toBe(false);
      },
      starting: () => {
        expect(card().getByText(MFA_MESSAGES.disabledWarning)).toBeTruthy();
        expect(card().getByRole('button', { name: 'Starting...' })).toHaveProperty('disabled', true);
      },
      setup: (snapshot) => {
        expect(setupForm().getByRole('img', { name: QR_ALT })).toHaveProperty('src', secret.qrCodeDataUrl);
        expect(setupForm().getByText(secret.secret)).toBeTruthy();
        expect(setupForm().getByLabelText('Verification code')).toHaveProperty('value', snapshot.context.code);
        expect(setupForm().getByLabelText('Verification code')).toHaveProperty('disabled', false);
        // Verify & Enable only at exactly six digits.
        expect(setupForm().getByRole('button', { name: MFA_MESSAGES.verifyAndEnable })).toHaveProperty('disabled', !isCompleteMfaCode(snapshot.context.code));
        expect(setupForm().getByRole('button', { name: MFA_MESSAGES.cancel })).toHaveProperty('disabled', false);
      },
      verifying: () => {
        expect(setupForm().getByRole('button', { name: 'Verifying...' })).toHaveProperty('disabled', true);
        expect(setupForm().getByLabelText('Verification code')).toHaveProperty('disabled', true);
        expect(setupForm().getByRole('button', { name: MFA_MESSAGES.cancel })).toHaveProperty('disabled', true);
      },
      enabled: (snapshot, page) => {
        // The note about the codes while they are shown; the plain "enabled" text once they are not.
        expect(card().getByText(snapshot.context.backupCodes ? MFA_MESSAGES.enabledNote : ENABLED_TEXT)).toBeTruthy();
        if (snapshot.context.backupCodes) {
          const list = within(card().getByRole('list', { name: 'Backup recovery codes' }));
          expect(list.getAllByRole('listitem').map((item) => item.textContent?.trim())).toEqual(snapshot.context.backupCodes);
        } else expect(card().queryByRole('list', { name: 'Backup recovery codes' })).toBeNull();
        expect(card().getByRole('button', { name: MFA_MESSAGES.disable })).toHaveProperty('disabled', false);
        expect(sessionSaysMfa(page)).toBe(true);
      },
      confirmingDisable: (snapshot) => {
        expect(disableForm().getByLabelText(PROOF_LABELS.code)).toHaveProperty('value', snapshot.context.proof.code);
        expect(disableForm().getByLabelText(PROOF_LABELS.password)).toHaveProperty('value', snapshot.context.proof.password);
        expect(disableForm().getByRole('button', { name: 'Disable MFA' })).toHaveProperty('disabled', false);
        expect(disableForm().getByRole('button', { name: MFA_MESSAGES.cancel })).toHaveProperty('disabled', false);
        if (snapshot.context.error) expect(disableForm().getByRole('alert').textContent).toBe(snapshot.context.error);
        else expect(disableForm().queryByRole('alert')).toBeNull();
      },
      disabling: () => {
        expect(disableForm().getByRole('button', { name: 'Disabling...' })).toHaveProperty('disabled', true);
        for (const label of Object.values(PROOF_LABELS)) expect(disableForm().getByLabelText(label)).toHaveProperty('disabled', true);
      },
    },
  },
});

modelSuite(mfaSetupModel);

describe('mfa setup (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('enable, a wrong code, the right code, copy a backup code, disable with the password: ends disabled', async () => {
    const { actor, notifySuccess, notifyFailure, mfaChanged } = startCard(false, { verify: [refused(MFA_MESSAGES.wrongCode), ok({ backupCodes })] });
    actor.send(enable);
    await waitFor(actor, (s) => s.matches('setup'));
    actor.send(typeCode('111111'));
    actor.send(verify);
    await waitFor(actor, (s) => s.matches('setup') && notifyFailure.mock.calls.length === 1);
    actor.send(typeCode('222222'));
    actor.send(verify);
    expect((await waitFor(actor, (s) => s.matches('enabled'))).context.backupCodes).toEqual(backupCodes);
    actor.send({ type: 'user.copy', text: backupCodes[0]! });
    actor.send(disable);
    actor.send({ type: 'user.proof', password: 'correct horse' });
    actor.send(confirm);
    const end = await waitFor(actor, (s) => s.matches('disabled'));
    expect(end.context).toMatchObject({ backupCodes: null, setup: null, code: '' });
    expect(mfaChanged.mock.calls).toEqual([[true], [false]]);
    expect(notifySuccess.mock.calls).toEqual([[MFA_MESSAGES.enabled], [MFA_MESSAGES.copied], [MFA_MESSAGES.disabled]]);
  });
});
