// The command palette (commandPalette machine): its generated paths walked on the machine and
// through the admin frame on /home, opened with Ctrl+K, typed into, moved through with the keys,
// an option opened with Enter, closed with Escape; the pause after typing is the simulated clock.
import { fireEvent, screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import { PALETTE_PAGES, paletteOptions, type SearchResultWire } from '../../../src/domain/search';
import { commandPaletteMachine } from '../../../src/machines/command-palette';
import { FALLBACK_LOAD_ERROR } from '../../../src/machines/resource';
import { PALETTE_INPUT_LABEL, PALETTE_MESSAGES, PALETTE_TITLE } from '../../../src/ui/palette/CommandPalette';
import { summary } from '../../fixtures/dashboard';
import { ok, refused } from '../../machines/scripted-actors';
import { defineModel, done, failed, type UiModel } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

const kit: SearchResultWire = { kind: 'kit', id: 'UT10000001', label: 'KQX7W3E9R2T5', detail: 'Terminal UT10000001' };
const dish: SearchResultWire = { kind: 'dish', id: 'UT10000002', label: 'DSHW3E9R2ZZ', detail: 'Kit KZZ000000001' };

const dialog = () => screen.queryByRole('dialog', { name: PALETTE_TITLE });
const combobox = () => screen.getByRole('combobox', { name: PALETTE_INPUT_LABEL }) as HTMLInputElement;
const status = () => within(dialog()!).getByRole('status');

/** The keys go to the text box, where the palette's focus stays. */
async function press({ user }: PageScreen, keys: string) {
  combobox().focus();
  await user.keyboard(keys);
}

function expectOptions(count: number, activeIndex: number) {
  const options = within(screen.getByRole('listbox')).getAllByRole('option');
  expect(options).toHaveLength(count);
  expect(options[activeIndex]!.getAttribute('aria-selected')).toBe('true');
  expect(combobox().getAttribute('aria-activedescendant')).toBe(options[activeIndex]!.id);
}

const ui: UiModel<typeof commandPaletteMachine, PageScreen> = {
  open: async (seam) => {
    const page = openPage('/home', seam, { 'GET /api/v1/dashboard/summary': { body: { success: true, message: 'ok', data: summary } } });
    await screen.findByRole('button', { name: 'Search (Ctrl+K)' }, { timeout: 5000 });
    return page;
  },
  drivable: (snapshot, event) => {
    if (snapshot.matches('closed')) return event.type === 'user.open';
    const options = paletteOptions(snapshot.context.input, snapshot.context.results, snapshot.context.pages);
    switch (event.type) {
      case 'user.open':
        return false;
      // The text box only reports a change.
      case 'user.type':
        return event.value !== snapshot.context.input;
      case 'user.point':
        return options.length > event.index;
      case 'user.retry':
        return snapshot.matches({ open: 'failed' });
      default:
        return true;
    }
  },
  events: {
    'user.open': async ({ user }) => {
      await user.keyboard('{Control>}k{/Control}');
      await screen.findByRole('dialog', { name: PALETTE_TITLE });
    },
    'user.close': async (page) => press(page, '{Escape}'),
    // One change of the text box, as the step is one event.
    'user.type': async (_page, event) => {
      fireEvent.change(combobox(), { target: { value: event.value } });
    },
    'user.move': async (page) => press(page, '{PageDown}'),
    'user.point': async ({ user }, event) => user.hover(within(screen.getByRole('listbox')).getAllByRole('option')[event.index]!),
    'user.choose': async (page) => press(page, '{Enter}'),
    'user.retry': async ({ user }) => user.click(within(dialog()!).getByRole('button', { name: PALETTE_MESSAGES.retry })),
  },
  states: {
    closed: () => expect(dialog()).toBeNull(),
    'open.idle': ({ context }) => {
      expect(combobox().value).toBe('');
      expectOptions(context.pages.length, context.activeIndex);
    },
    'open.debouncing': ({ context }) => {
      expect(combobox().value).toBe(context.input);
      expect(status().textContent).toBe(PALETTE_MESSAGES.searching);
    },
    'open.searching': () => expect(status().textContent).toBe(PALETTE_MESSAGES.searching),
    'open.results': ({ context }) => {
      const count = paletteOptions(context.input, context.results, context.pages).length;
      expect(status().textContent).toBe(PALETTE_MESSAGES.count(count));
      expectOptions(count, context.activeIndex);
    },
    'open.empty': ({ context }) => {
      expect(status().textContent).toBe(PALETTE_MESSAGES.empty(context.input));
      expect(screen.queryByRole('listbox')).toBeNull();
    },
    'open.failed': ({ context }) => {
      expect(status().textContent).toBe(context.error);
      expect(within(dialog()!).getByRole('button', { name: PALETTE_MESSAGES.retry })).toBeTruthy();
    },
  },
};

export const commandPaletteModel = defineModel<typeof commandPaletteMachine, PageScreen>({
  name: 'command-palette',
  machine: commandPaletteMachine,
  events: {
    'user.open': [{ type: 'user.open' }],
    'user.close': [{ type: 'user.close' }],
    'user.type': [{ type: 'user.type', value: 'w3e9' }, { type: 'user.type', value: '' }],
    'user.move': [{ type: 'user.move', to: 'last' }],
    'user.point': [{ type: 'user.point', index: 0 }],
    'user.choose': [{ type: 'user.choose' }],
    'user.retry': [{ type: 'user.retry' }],
  },
  actorResults: [
    done('search', ok([kit, dish])),
    done('search', ok([])),
    done('search', refused('Server busy')),
    failed('search', new Error('network')),
  ],
  states: {
    closed: ({ context }) => expect(context).toEqual({ pages: PALETTE_PAGES, input: '', results: [], activeIndex: 0, error: null }),
    'open.idle': (s) => {
      expect(s.context.input.trim()).toBe('');
      expect(s.hasTag('busy')).toBe(false);
    },
    'open.debouncing': (s) => {
      expect(s.hasTag('busy')).toBe(true);
      expect(s.context.results).toEqual([]);
    },
    'open.searching': (s) => expect(s.hasTag('busy')).toBe(true),
    'open.results': ({ context }) => expect(paletteOptions(context.input, context.results, context.pages).length).toBeGreaterThan(0),
    'open.empty': ({ context }) => expect(paletteOptions(context.input, context.results, context.pages)).toEqual([]),
    'open.failed': ({ context }) => expect(['Server busy', FALLBACK_LOAD_ERROR]).toContain(context.error),
  },
  ui,
});

modelSuite(commandPaletteModel);
