/**
 * My Account → Profile (/my/account): the signed-in customer's own name, company, phone
 * and address.
 *
 *   editing  the four fields, each with its own error (the client's rules, or the server's by
 *            field), a failure that is no field's above them, Save Changes
 *   saving   "Saving..."; the fields and the button are disabled                     (tag: busy)
 *
 * A save that succeeds keeps what the server answered (trimmed, as stored) and hands the profile
 * to the session; a refusal keeps what was typed.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { CustomerProfile } from '../domain/auth';
import { validateEditCustomer, type FieldErrors } from '../domain/customers';
import { SETTINGS_MESSAGES, type CustomerProfilePayload } from '../domain/users';
import { failureText, hasErrors, serverFieldErrors } from './customer-forms';
import type { SaveOutcome } from './user-form';

export type AccountProfileField = 'name' | 'company' | 'phone' | 'address';
export type AccountProfileForm = Record<AccountProfileField, string>;

export interface AccountProfileContext {
  form: AccountProfileForm;
  errors: FieldErrors<AccountProfileField>;
  /** Why the last save failed, when it was not a field problem. */
  failure: string | null;
}

export type AccountProfileEvent = { type: 'user.field'; field: AccountProfileField; value: string } | { type: 'user.submit' };

const FIELDS: readonly AccountProfileField[] = ['name', 'company', 'phone', 'address'];
const SAVE_ACTION = 'update your profile';

/** The form as the profile holds it. */
export function profileForm(profile: Pick<CustomerProfile, 'name' | 'company' | 'phone' | 'address'>): AccountProfileForm {
  return { name: profile.name, company: profile.company, phone: profile.phone ?? '', address: profile.address ?? '' };
}

/** The customer edit rules, without the email (a customer cannot change it). */
function problemsOf(form: AccountProfileForm): FieldErrors<AccountProfileField> {
  const { email: _email, ...errors } = validateEditCustomer({ ...form, email: 'unchanged@example.com' });
  return errors;
}

const payloadOf = (form: AccountProfileForm): CustomerProfilePayload => ({
  name: form.name.trim(),
  company: form.company.trim(),
  phone: form.phone.trim() || null,
  address: form.address.trim() || null,
});

type SaveDone = { event: { output: SaveOutcome<CustomerProfile> } };
const outputOf = ({ event }: SaveDone) => event.output;

export const accountProfileMachine = setup({
  types: {
    context: {} as AccountProfileContext,
    events: {} as AccountProfileEvent,
    input: {} as { profile: Pick<CustomerProfile, 'name' | 'company' | 'phone' | 'address'> },
  },
  actors: {
    saveProfile: fromPromise<SaveOutcome<CustomerProfile>, CustomerProfilePayload>(async () => {
      throw new Error('saveProfile is provided by the app');
    }),
  },
  actions: {
    storeField: assign(({ context }, { field, value }: { field: AccountProfileField; value: string }) => ({
      form: { ...context.form, [field]: value },
      errors: { ...context.errors, [field]: undefined },
      failure: null,
    })),
    storeClientErrors: assign(({ context }) => ({ errors: problemsOf(context.form) })),
    storeSaved: assign((_, outcome: SaveOutcome<CustomerProfile>) => (outcome.ok ? { form: profileForm(outcome.data), errors: {}, failure: null } : {})),
    storeRefusal: assign((_, outcome: SaveOutcome<CustomerProfile>) => {
      if (outcome.ok) return {};
      const errors = serverFieldErrors({ ...outcome, status: outcome.status ?? 0 }, FIELDS, '');
      return { errors, failure: hasErrors(errors) ? null : failureText(SAVE_ACTION, outcome.message) };
    }),
    storeUnexpectedFailure: assign({ failure: failureText(SAVE_ACTION, null) }),
    clearProblems: assign({ errors: {}, failure: null }),
    notifySuccess: (_, _message: string) => {},
    notifyFailure: (_, _message: string) => {},
    /** The session's profile takes the saved fields (the sidebar shows the name and company). */
    profileSaved: (_, _profile: CustomerProfile) => {},
  },
  guards: {
    isValid: ({ context }) => !hasErrors(problemsOf(context.form)),
    isSaved: (_, outcome: SaveOutcome<CustomerProfile>) => outcome.ok,
  },
}).createMachine({
  id: 'accountProfile',
  context: ({ input }) => ({ form: profileForm(input.profile), errors: {}, failure: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'user.field': { actions: { type: 'storeField', params: ({ event }) => event } },
        'user.submit': [{ guard: 'isValid', target: 'saving' }, { actions: 'storeClientErrors' }],
      },
    },
    saving: {
      tags: ['busy'],
      // The form passed the client's rules; what the server said last time no longer stands.
      entry: 'clearProblems',
      invoke: {
        id: 'saveProfile',
        src: 'saveProfile',
        input: ({ context }) => payloadOf(context.form),
        onDone: [
          {
            guard: { type: 'isSaved', params: outputOf },
            target: 'editing',
            actions: [
              { type: 'storeSaved', params: outputOf },
              { type: 'notifySuccess', params: SETTINGS_MESSAGES.profileUpdated },
              { type: 'profileSaved', params: ({ event }: SaveDone) => (event.output as Extract<SaveOutcome<CustomerProfile>, { ok: true }>).data },
            ],
          },
          {
            target: 'editing',
            actions: [
              { type: 'storeRefusal', params: outputOf },
              { type: 'notifyFailure', params: ({ event }: SaveDone) => failureText(SAVE_ACTION, event.output.ok ? null : event.output.message) },
            ],
          },
        ],
        onError: { target: 'editing', actions: ['storeUnexpectedFailure', { type: 'notifyFailure', params: failureText(SAVE_ACTION, null) }] },
      },
    },
  },
});
