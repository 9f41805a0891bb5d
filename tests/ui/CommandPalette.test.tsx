// The command palette through the whole client, by keyboard only: Ctrl/Cmd+K
// from any admin page, typing, arrows, Enter to open, Escape to close with the focus given back.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { menuFor } from '../../src/domain/navigation';
import { menuPages, type SearchResultWire } from '../../src/domain/search';
import { PALETTE_BUTTON_LABEL, PALETTE_INPUT_LABEL, PALETTE_TITLE } from '../../src/ui/palette/CommandPalette';
import { summary } from '../fixtures/dashboard';
import { adminProfile, customerProfile, profileWithRoles, userProfile } from '../machines/fixtures';
import { fakePortalApi } from '../model/framework/screen';
import { openSignedInAt } from './open-app';

const kit: SearchResultWire = { kind: 'kit', id: 'UT10000001', label: 'KQX7W3E9R2T5', detail: 'Terminal UT10000001 · AST-1 · Harbour Freight' };
const dish: SearchResultWire = { kind: 'dish', id: 'UT10000002', label: 'DSHW3E9R2ZZ', detail: 'Kit KZZ000000001 · Unassigned' };
const envelope = (data: unknown) => ({ success: true, message: 'ok', data });

function openHome(profile = adminProfile) {
  const api = fakePortalApi({
    'GET /api/v1/dashboard/summary': { body: envelope(summary) },
    'GET /api/v1/search': ({ url }) => ({ body: envelope({ results: (url.searchParams.get('q') ?? '').toLowerCase().includes('w3e9') ? [kit, dish] : [] }) }),
  }, profile);
  const opened = openSignedInAt('/home', api.fetch, { profile });
  return { ...opened, calls: api.calls };
}

const palette = () => screen.queryByRole('dialog', { name: PALETTE_TITLE });
const combobox = () => screen.getByRole('combobox', { name: PALETTE_INPUT_LABEL });

async function openWithShortcut(user: ReturnType<typeof openHome>['user'], keys = '{Control>}k{/Control}') {
  await user.keyboard(keys);
  await screen.findByRole('dialog', { name: PALETTE_TITLE });
  await waitFor(() => expect(document.activeElement).toBe(combobox()));
}

describe('the command palette', () => {
  it('Ctrl+K, typing part of a kit serial, ArrowDown and Enter open that terminal', async () => {
    const { user, location, calls } = openHome();
    await screen.findByRole('button', { name: PALETTE_BUTTON_LABEL });
    await openWithShortcut(user);
    await user.keyboard('w3e9');
    const list = await screen.findByRole('listbox');
    await within(list).findByRole('option', { name: /KQX7W3E9R2T5/ });
    expect(calls.filter((c) => c.startsWith('GET /api/v1/search'))).toEqual(['GET /api/v1/search?q=w3e9']);

    const options = within(list).getAllByRole('option');
    expect(options[0]!.getAttribute('aria-selected')).toBe('true');
    expect(combobox().getAttribute('aria-activedescendant')).toBe(options[0]!.id);
    await user.keyboard('{ArrowDown}');
    expect(combobox().getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    expect(options[1]!.getAttribute('aria-selected')).toBe('true');
    expect(options[1]!.textContent).toContain('DSHW3E9R2ZZ');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(location()).toBe('/terminals?terminal=UT10000002'));
    await waitFor(() => expect(palette()).toBeNull());
  });

  it('Escape closes it and gives the focus back where it was', async () => {
    const { user } = openHome();
    const toggle = await screen.findByRole('button', { name: 'Toggle sidebar' });
    toggle.focus();
    await openWithShortcut(user);
    await user.keyboard('set');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(palette()).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(toggle));
    // Opened again, it starts empty.
    await openWithShortcut(user);
    expect((combobox() as HTMLInputElement).value).toBe('');
  });

  it('finds a page by its title, and Cmd+K opens it too', async () => {
    const { user, location } = openHome();
    await screen.findByRole('button', { name: PALETTE_BUTTON_LABEL });
    await openWithShortcut(user, '{Meta>}k{/Meta}');
    await user.keyboard('alert rules');
    expect(within(screen.getByRole('listbox')).getAllByRole('option')[0]!.textContent).toContain('Alert rules');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(location()).toBe('/alerts/rules'));
  });

  it('says when nothing matches', async () => {
    const { user } = openHome();
    await screen.findByRole('button', { name: PALETTE_BUTTON_LABEL });
    await openWithShortcut(user);
    await user.keyboard('zzqx');
    expect(await screen.findByText('No matches for “zzqx”')).toBeTruthy();
    expect(screen.queryByRole('listbox')).toBeNull();
    expect(combobox().getAttribute('aria-expanded')).toBe('false');
  });

  it('opens from the top bar button, reached with the keyboard', async () => {
    const { user } = openHome();
    const button = await screen.findByRole('button', { name: PALETTE_BUTTON_LABEL });
    button.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: PALETTE_TITLE });
  });

  it('lists, before anything is typed, the pages of the menu the user sees', async () => {
    for (const profile of [adminProfile, userProfile, profileWithRoles('billing')]) {
      const { user, unmount } = openHome(profile);
      await screen.findByRole('button', { name: PALETTE_BUTTON_LABEL });
      await openWithShortcut(user);
      const titles = within(screen.getByRole('listbox')).getAllByRole('option').map((o) => o.querySelector('.command-palette-label')?.textContent);
      expect(titles).toEqual(menuPages(menuFor(profile.permissions)).map((p) => p.title));
      unmount();
    }
  });

  it('is not in the customer area', async () => {
    const api = fakePortalApi({}, customerProfile);
    const { user } = openSignedInAt('/my/account', api.fetch, { profile: customerProfile });
    await waitFor(() => expect(document.body.textContent).toContain('Account'));
    await user.keyboard('{Control>}k{/Control}');
    expect(screen.queryByRole('button', { name: PALETTE_BUTTON_LABEL })).toBeNull();
    expect(palette()).toBeNull();
  });
});
