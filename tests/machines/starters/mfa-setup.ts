// Starts the mfaSetup machine for a profile with or without MFA, with scripted setup, verify and
// disable answers and recorded actions: shared by its actor tests and the pinned journeys of its model.
import { vi } from 'vitest';
import { createActor } from 'xstate';
import type { MfaDisablePayload, MfaSetupWire, MfaVerifyPayload, MfaVerifyWire } from '../../../src/domain/mfa';
import { mfaSetupMachine } from '../../../src/machines/mfa-setup';
import type { LoadOutcome } from '../../../src/machines/resource';
import { ok, scriptedActors, type Answer } from '../scripted-actors';

export const secret: MfaSetupWire = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauthUri: 'otpauth://totp/Admin%20Portal:ana.lima%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Admin%20Portal',
  qrCodeDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
};
export const backupCodes = ['AB2C-DE3F', 'GH4J-KL5M', 'NP6Q-RS7T', 'UV8W-XY9Z', 'A2B3-C4D5', 'E6F7-G8H9', 'J2K3-L4M5', 'N6P7-Q8R9'];

export interface Answers {
  start?: ReadonlyArray<Answer<LoadOutcome<MfaSetupWire>>>;
  verify?: ReadonlyArray<Answer<LoadOutcome<MfaVerifyWire>>>;
  disable?: ReadonlyArray<Answer<LoadOutcome<unknown>>>;
}

export function startCard(mfaEnabled: boolean, answers: Answers = {}) {
  const { calls, called, answer } = scriptedActors();
  const copyText = vi.fn();
  const notifySuccess = vi.fn();
  const notifyFailure = vi.fn();
  const mfaChanged = vi.fn();
  const actor = createActor(
    mfaSetupMachine.provide({
      actors: {
        startSetup: answer<LoadOutcome<MfaSetupWire>, unknown>('startSetup', answers.start ?? [ok(secret)]),
        verifyCode: answer<LoadOutcome<MfaVerifyWire>, MfaVerifyPayload>('verifyCode', answers.verify ?? [ok({ backupCodes })]),
        disableMfa: answer<LoadOutcome<unknown>, MfaDisablePayload>('disableMfa', answers.disable ?? [ok(null)]),
      },
      actions: {
        copyText: (_, text) => copyText(text),
        notifySuccess: (_, message) => notifySuccess(message),
        notifyFailure: (_, message) => notifyFailure(message),
        mfaChanged: (_, enabled) => mfaChanged(enabled),
      },
    }),
    { input: { mfaEnabled } },
  ).start();
  return { actor, calls, called, copyText, notifySuccess, notifyFailure, mfaChanged };
}

export const enable = { type: 'user.enable' } as const;
export const verify = { type: 'user.verify' } as const;
export const cancel = { type: 'user.cancel' } as const;
export const disable = { type: 'user.disable' } as const;
export const confirm = { type: 'user.confirm' } as const;
export const typeCode = (value: string) => ({ type: 'user.code', value }) as const;
