/**
 * The Multi-Factor Authentication card of Settings → Security (spec sections 2 "Settings",
 * 4 "Multi-factor tab", 5 "MFA code", 8). The card opens in the mode the profile says.
 *
 *   disabled           the warning and Enable
 *   starting           Enable pressed: a new secret is on its way                    (tag: busy)
 *   setup              the QR code, the manual code with its copy button, the 6-digit input;
 *                      Verify & Enable is enabled only at exactly 6 digits (`snapshot.can`)
 *   verifying          "Verifying..."                                                (tag: busy)
 *   enabled            enabled; right after enabling, the 8 backup codes with copy buttons
 *                      (after a reload there are none to show: they were shown once)
 *   confirmingDisable  Disable pressed: a current code or the password, Disable and Cancel
 *   disabling          "Disabling..."                                                (tag: busy)
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  MFA_MESSAGES,
  isCompleteMfaCode,
  sanitiseMfaCode,
  type MfaDisablePayload,
  type MfaSetupWire,
  type MfaVerifyPayload,
  type MfaVerifyWire,
} from '../domain/mfa';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from './resource';

export interface MfaSetupInput {
  mfaEnabled: boolean;
}

export interface MfaProof {
  code: string;
  password: string;
}

export interface MfaSetupContext {
  /** The profile's word when the card opened: it picks the first mode only. */
  mfaEnabled: boolean;
  /** The secret being set up, from Enable until verified or cancelled. */
  setup: MfaSetupWire | null;
  /** The code typed in setup: digits only, at most 6. */
  code: string;
  /** The backup codes, held only from enabling until the card is left or MFA is disabled. */
  backupCodes: string[] | null;
  /** What the disable step was given. */
  proof: MfaProof;
  /** Why the last disable attempt failed, shown in the disable step. */
  error: string | null;
}

export type MfaSetupEvent =
  | { type: 'user.enable' }
  | { type: 'user.code'; value: string }
  | { type: 'user.verify' }
  | { type: 'user.cancel' }
  | { type: 'user.copy'; text: string }
  | { type: 'user.disable' }
  | { type: 'user.proof'; code?: string; password?: string }
  | { type: 'user.confirm' };

const NO_PROOF: MfaProof = { code: '', password: '' };

/** A complete current code wins over the password; the server takes either. */
function disablePayload(proof: MfaProof): MfaDisablePayload {
  const code = sanitiseMfaCode(proof.code);
  return isCompleteMfaCode(code) ? { code } : { password: proof.password };
}

const messageOf = (outcome: LoadOutcome<unknown>) => (outcome.ok ? '' : outcome.message.trim());

/** The manual code and each backup code have a copy button. */
const copyAndConfirm = [
  { type: 'copyText', params: ({ event }: { event: { text: string } }) => event.text },
  { type: 'notifySuccess', params: MFA_MESSAGES.copied },
] as const;
/** Spec 8 has one toast for a refused code, whatever the reason. */
const rejectCode = ['clearCode', { type: 'notifyFailure', params: MFA_MESSAGES.wrongCode }] as const;

export const mfaSetupMachine = setup({
  types: {
    context: {} as MfaSetupContext,
    events: {} as MfaSetupEvent,
    input: {} as MfaSetupInput,
  },
  actors: {
    startSetup: fromPromise<LoadOutcome<MfaSetupWire>>(async () => {
      throw new Error('startSetup is provided by the app');
    }),
    verifyCode: fromPromise<LoadOutcome<MfaVerifyWire>, MfaVerifyPayload>(async () => {
      throw new Error('verifyCode is provided by the app');
    }),
    disableMfa: fromPromise<LoadOutcome<unknown>, MfaDisablePayload>(async () => {
      throw new Error('disableMfa is provided by the app');
    }),
  },
  actions: {
    storeSetup: assign((_, outcome: LoadOutcome<MfaSetupWire>) => (outcome.ok ? { setup: outcome.data, code: '' } : {})),
    clearSetup: assign({ setup: null, code: '' }),
    storeCode: assign((_, typed: string) => ({ code: sanitiseMfaCode(typed) })),
    clearCode: assign({ code: '' }),
    storeBackupCodes: assign((_, outcome: LoadOutcome<MfaVerifyWire>) => (outcome.ok ? { backupCodes: outcome.data.backupCodes } : {})),
    clearProof: assign({ proof: NO_PROOF, error: null }),
    storeProof: assign(({ context }, { code, password }: { code?: string; password?: string }) => ({
      proof: {
        code: code === undefined ? context.proof.code : sanitiseMfaCode(code),
        password: password ?? context.proof.password,
      },
      error: null,
    })),
    storeError: assign((_, message: string) => ({ error: message })),
    forgetMfa: assign({ backupCodes: null, proof: NO_PROOF, error: null }),
    /** Puts the text on the clipboard. */
    copyText: (_, _text: string) => {},
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The session's profile follows (mfaEnabled). */
    mfaChanged: (_, _enabled: boolean) => {},
  },
  guards: {
    wasEnabled: ({ context }) => context.mfaEnabled,
    isLoaded: (_, outcome: LoadOutcome<unknown>) => outcome.ok,
    isCodeComplete: ({ context }) => isCompleteMfaCode(context.code),
    hasProof: ({ context }) => isCompleteMfaCode(context.proof.code) || context.proof.password.length > 0,
  },
}).createMachine({
  id: 'mfaSetup',
  context: ({ input }) => ({
    mfaEnabled: input.mfaEnabled,
    setup: null,
    code: '',
    backupCodes: null,
    proof: NO_PROOF,
    error: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'wasEnabled', target: 'enabled' }, { target: 'disabled' }],
    },
    disabled: {
      on: { 'user.enable': 'starting' },
    },
    starting: {
      tags: ['busy'],
      invoke: {
        id: 'startSetup',
        src: 'startSetup',
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'setup',
            actions: { type: 'storeSetup', params: ({ event }) => event.output },
          },
          { target: 'disabled', actions: { type: 'notifyFailure', params: ({ event }) => messageOf(event.output) || FALLBACK_LOAD_ERROR } },
        ],
        onError: { target: 'disabled', actions: { type: 'notifyFailure', params: FALLBACK_LOAD_ERROR } },
      },
    },
    setup: {
      on: {
        'user.code': { actions: { type: 'storeCode', params: ({ event }) => event.value } },
        'user.verify': { guard: 'isCodeComplete', target: 'verifying' },
        'user.copy': { actions: copyAndConfirm },
        'user.cancel': { target: 'disabled', actions: 'clearSetup' },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verifyCode',
        src: 'verifyCode',
        input: ({ context }) => ({ code: context.code }),
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'enabled',
            actions: [
              { type: 'storeBackupCodes', params: ({ event }) => event.output },
              'clearSetup',
              { type: 'notifySuccess', params: MFA_MESSAGES.enabled },
              { type: 'mfaChanged', params: true },
            ],
          },
          { target: 'setup', actions: rejectCode },
        ],
        onError: { target: 'setup', actions: rejectCode },
      },
    },
    enabled: {
      on: {
        'user.copy': { actions: copyAndConfirm },
        'user.disable': { target: 'confirmingDisable', actions: 'clearProof' },
      },
    },
    confirmingDisable: {
      on: {
        'user.proof': { actions: { type: 'storeProof', params: ({ event }) => event } },
        'user.confirm': [
          { guard: 'hasProof', target: 'disabling' },
          { actions: { type: 'storeError', params: MFA_MESSAGES.disableNeedsProof } },
        ],
        'user.cancel': { target: 'enabled', actions: 'clearProof' },
      },
    },
    disabling: {
      tags: ['busy'],
      invoke: {
        id: 'disableMfa',
        src: 'disableMfa',
        input: ({ context }) => disablePayload(context.proof),
        onDone: [
          {
            guard: { type: 'isLoaded', params: ({ event }) => event.output },
            target: 'disabled',
            actions: ['forgetMfa', { type: 'notifySuccess', params: MFA_MESSAGES.disabled }, { type: 'mfaChanged', params: false }],
          },
          // A wrong code or password: the step stays, with the server's word on it.
          {
            target: 'confirmingDisable',
            actions: [
              { type: 'storeError', params: ({ event }) => messageOf(event.output) || MFA_MESSAGES.disableFailed },
              { type: 'notifyFailure', params: ({ event }) => messageOf(event.output) || MFA_MESSAGES.disableFailed },
            ],
          },
        ],
        onError: {
          target: 'confirmingDisable',
          actions: [
            { type: 'storeError', params: MFA_MESSAGES.disableFailed },
            { type: 'notifyFailure', params: MFA_MESSAGES.disableFailed },
          ],
        },
      },
    },
  },
});
