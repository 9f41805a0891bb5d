// API keys → New API key (shown once) and Revoke (apiKeys machine): its generated paths walked on
// the machine and through the /users/api-keys page (one active key listed, whose row's Revoke
// opens the question), plus journeys pinned by hand.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { API_KEY_MESSAGES as M } from '../../../src/domain/api-keys';
import { apiKeysMachine, validateApiKeyForm } from '../../../src/machines/api-keys';
import { API_KEY_TEXTS as T } from '../../../src/ui/api-keys/parts';
import {
  API_KEY_SECRET,
  apiKeyWire,
  apiOk,
  apiRefusal,
  cancel,
  close,
  confirm,
  copy,
  create,
  createdKey,
  field,
  nameTaken,
  retry,
  revoke,
  revokedKey,
  role,
  startApiKeys,
  submit,
} from '../../fixtures/api-keys';
import { builtInRoleFixture } from '../../fixtures/roles';
import { defineModel, done, failed } from '../framework/model';
import type { PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';
import { openApiKeysPage, revokeButton } from './api-keys-page';

const activeKey = apiKeyWire();
const ROLES = [builtInRoleFixture('support_read_only'), builtInRoleFixture('owner')];
const ROLES_FAILED = 'The roles service is resting';
const REVOKE_REFUSED = M.alreadyRevoked;

const formDialog = () => within(screen.getByRole('dialog', { name: T.formTitle }));
const secretDialog = () => within(screen.getByRole('dialog', { name: T.secretTitle }));
const revokeDialog = () => within(screen.getByRole('dialog', { name: T.revokeTitle }));
const nameInput = () => formDialog().getByLabelText('Name') as HTMLInputElement;
const roleRadio = (name: string) => formDialog().getByLabelText(name) as HTMLInputElement;

function expectSecret(copyText: string | null) {
  expect((secretDialog().getByLabelText(T.secretLabel) as HTMLInputElement).value).toBe(API_KEY_SECRET);
  expect(secretDialog().getByText(T.secretOnce)).toBeTruthy();
  expect(screen.queryByRole('dialog', { name: T.formTitle })).toBeNull();
  for (const text of [T.copied, T.copyFailed]) expect(secretDialog().queryByText(text) !== null).toBe(text === copyText);
}

export const apiKeysModel = defineModel<typeof apiKeysMachine, PageScreen>({
  name: 'api-keys',
  machine: apiKeysMachine,
  events: {
    'user.create': [create],
    // A name makes the form good (with a role); an empty one is refused on the client.
    'user.field': [field('name', 'Accounting'), field('name', '')],
    'user.role': [role(ROLES[0]!.id)],
    'user.submit': [submit],
    'user.cancel': [cancel],
    'user.retry': [retry],
    'user.copy': [copy],
    'user.close': [close],
    'user.revoke': [revoke(activeKey)],
    'user.confirm': [confirm],
  },
  actorResults: [
    done('loadRoles', apiOk(ROLES)),
    done('loadRoles', apiRefusal(503, ROLES_FAILED)),
    failed('loadRoles', new TypeError('fetch failed')),
    done('createKey', apiOk(createdKey, 201)),
    done('createKey', nameTaken),
    failed('createKey', new TypeError('fetch failed')),
    done('revokeKey', apiOk(revokedKey)),
    done('revokeKey', apiRefusal(409, REVOKE_REFUSED)),
    failed('revokeKey', new TypeError('fetch failed')),
    done('copySecret', undefined),
    failed('copySecret', new Error('No clipboard')),
  ],
  states: {
    closed: (s) => {
      expect(s.hasTag('open') || s.hasTag('secret') || s.hasTag('confirm')).toBe(false);
      expect(s.context.secret).toBeNull();
    },
    'create.loadingRoles': (s) => {
      expect(s.hasTag('loading')).toBe(true);
      expect(s.context.roles).toEqual([]);
    },
    'create.rolesFailed': (s) => expect(s.context.failure).toMatch(/.+/),
    'create.editing': (s) => {
      expect(s.hasTag('open')).toBe(true);
      expect(s.hasTag('busy')).toBe(false);
      expect(s.context.roles).toEqual(ROLES);
    },
    'create.saving': (s) => {
      expect(s.can(cancel)).toBe(false);
      expect(validateApiKeyForm(s.context.form)).toEqual({});
    },
    'showingSecret.shown': (s) => expect(s.context.secret).toBe(API_KEY_SECRET),
    'showingSecret.copying': (s) => expect(s.context.secret).toBe(API_KEY_SECRET),
    'showingSecret.copied': (s) => expect(s.context.secret).toBe(API_KEY_SECRET),
    'showingSecret.copyFailed': (s) => expect(s.context.secret).toBe(API_KEY_SECRET),
    'revoke.confirming': (s) => expect(s.context.target).toEqual(activeKey),
    'revoke.revoking': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.can(close)).toBe(false);
    },
  },
  ui: {
    open: (seam) => openApiKeysPage(seam, [activeKey, revokedKey]),
    // Clearing an empty box fires no input event.
    drivable: (snapshot, event) => event.type !== 'user.field' || event.value !== '' || snapshot.context.form[event.field] !== '',
    events: {
      'user.create': async ({ user }) => user.click(screen.getByRole('button', { name: T.newKey })),
      'user.field': async ({ user }, event) => {
        await user.clear(nameInput());
        if (event.value) await user.paste(event.value);
      },
      'user.role': async ({ user }, event) => user.click(roleRadio(ROLES.find((r) => r.id === event.roleId)!.name)),
      'user.submit': async ({ user }) => user.click(formDialog().getByRole('button', { name: T.create })),
      'user.cancel': async ({ user }) => user.click(formDialog().getByRole('button', { name: 'Cancel' })),
      'user.retry': async ({ user }) => user.click(formDialog().getByRole('button', { name: T.retry })),
      'user.copy': async ({ user }) => user.click(secretDialog().getByRole('button', { name: T.copy })),
      // Done on the key shown once; Cancel on the revoke question.
      'user.close': async ({ user }) =>
        user.click(screen.queryByRole('dialog', { name: T.secretTitle }) ? secretDialog().getByRole('button', { name: 'Done' }) : revokeDialog().getByRole('button', { name: 'Cancel' })),
      'user.revoke': async ({ user }, event) => user.click(revokeButton(event.key)),
      'user.confirm': async ({ user }) => user.click(revokeDialog().getByRole('button', { name: T.revoke })),
    },
    states: {
      closed: () => {
        expect(screen.queryByRole('dialog')).toBeNull();
        expect(screen.getByRole('button', { name: T.newKey })).toHaveProperty('disabled', false);
        expect(revokeButton(activeKey).disabled).toBe(false);
      },
      'create.loadingRoles': () => {
        expect(formDialog().getByRole('status').textContent).toBe(T.rolesLoading);
        expect((formDialog().getByRole('button', { name: T.create }) as HTMLButtonElement).disabled).toBe(true);
      },
      'create.rolesFailed': ({ context }) => {
        expect(formDialog().getByText(context.failure!)).toBeTruthy();
        expect(formDialog().getByRole('button', { name: T.retry })).toBeTruthy();
      },
      'create.editing': ({ context }) => {
        expect(nameInput().value).toBe(context.form.name);
        for (const r of ROLES) expect(roleRadio(r.name).checked).toBe(context.form.roleId === r.id);
        for (const message of Object.values(context.errors)) if (message) expect(formDialog().getByText(message)).toBeTruthy();
        expect(nameInput().getAttribute('aria-invalid')).toBe(context.errors.name ? 'true' : 'false');
        if (context.failure) expect(formDialog().getByText(context.failure)).toBeTruthy();
        expect((formDialog().getByRole('button', { name: T.create }) as HTMLButtonElement).disabled).toBe(false);
      },
      'create.saving': () => {
        expect((formDialog().getByRole('button', { name: T.creating }) as HTMLButtonElement).disabled).toBe(true);
        expect((formDialog().getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
        expect(nameInput().disabled).toBe(true);
      },
      'showingSecret.shown': () => expectSecret(null),
      'showingSecret.copying': () => {
        expectSecret(null);
        expect((secretDialog().getByRole('button', { name: T.copy }) as HTMLButtonElement).disabled).toBe(true);
      },
      'showingSecret.copied': () => expectSecret(T.copied),
      'showingSecret.copyFailed': () => expectSecret(T.copyFailed),
      'revoke.confirming': ({ context }) => {
        expect(revokeDialog().getByText(T.revokeQuestion(activeKey.name))).toBeTruthy();
        if (context.failure) expect(revokeDialog().getByText(context.failure)).toBeTruthy();
        expect((revokeDialog().getByRole('button', { name: T.revoke }) as HTMLButtonElement).disabled).toBe(false);
      },
      'revoke.revoking': () => {
        expect((revokeDialog().getByRole('button', { name: T.revoking }) as HTMLButtonElement).disabled).toBe(true);
        expect((revokeDialog().getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
      },
    },
  },
});

modelSuite(apiKeysModel);

describe('API keys machine (pinned journeys)', () => {
  it('a name in use refused, another name taken, the key copied and closed: one key made, the secret gone', async () => {
    const { actor, called, keysChanged } = startApiKeys({ create: [nameTaken, apiOk(createdKey, 201)] });
    actor.send(create);
    await waitFor(actor, (s) => s.matches({ create: 'editing' }));
    actor.send(field('name', 'ERP integration'));
    actor.send(role());
    actor.send(submit);
    expect((await waitFor(actor, (s) => s.matches({ create: 'editing' }) && s.context.errors.name !== undefined)).context.errors.name).toBe(M.nameTaken);
    actor.send(field('name', 'Accounting'));
    actor.send(submit);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'shown' }));
    actor.send(copy);
    await waitFor(actor, (s) => s.matches({ showingSecret: 'copied' }));
    actor.send(close);
    const end = actor.getSnapshot();
    expect(end.value).toBe('closed');
    expect(end.context.secret).toBeNull();
    expect(called('createKey').map((c) => (c.input as { name: string }).name)).toEqual(['ERP integration', 'Accounting']);
    expect(keysChanged).toHaveBeenCalledOnce();
  });

  it('a revoke refused keeps the question with the reason; the second try closes it', async () => {
    const { actor, notifySuccess } = startApiKeys({ revoke: [apiRefusal(409, REVOKE_REFUSED), apiOk(revokedKey)] });
    actor.send(revoke(activeKey));
    actor.send(confirm);
    expect((await waitFor(actor, (s) => s.matches({ revoke: 'confirming' }) && s.context.failure !== null)).context.failure).toBe(REVOKE_REFUSED);
    actor.send(confirm);
    await waitFor(actor, (s) => s.matches('closed'));
    expect(notifySuccess).toHaveBeenCalledExactlyOnceWith(M.revoked);
  });
});
