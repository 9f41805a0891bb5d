import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { PALETTE_PAGES, type SearchResultWire } from '../../src/domain/search';
import { commandPaletteMachine, PALETTE_DEBOUNCE_MS, type SearchOutcome } from '../../src/machines/command-palette';
import { ok, refused, scriptedActors, type Answer } from './scripted-actors';

const kit: SearchResultWire = { kind: 'kit', id: 'UT10000001', label: 'KQX7W3E9R2T5', detail: 'Terminal UT10000001' };
const dish: SearchResultWire = { kind: 'dish', id: 'UT10000002', label: 'DSHW3E9R2', detail: 'Kit KZZ' };

function startPalette(answers: Array<Answer<SearchOutcome>> = [ok([kit, dish])]) {
  const { called, answer } = scriptedActors();
  const clock = new SimulatedClock();
  const opened: string[] = [];
  const actor = createActor(
    commandPaletteMachine.provide({
      actors: { search: answer('search', answers) },
      actions: { openOption: (_, url) => opened.push(url) },
    }),
    { clock, input: {} },
  ).start();
  return { actor, called, clock, opened };
}

/** Opens the palette, types, and lets the pause pass. */
function typeAndPause(palette: ReturnType<typeof startPalette>, value: string) {
  palette.actor.send({ type: 'user.type', value });
  palette.clock.increment(PALETTE_DEBOUNCE_MS);
}

describe('command palette machine', () => {
  it('opens empty, listing every page, and asks nothing', () => {
    const { actor, called } = startPalette();
    actor.send({ type: 'user.open' });
    expect(actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    expect(called('search')).toHaveLength(0);
    actor.send({ type: 'user.move', to: 'last' });
    expect(actor.getSnapshot().context.activeIndex).toBe(PALETTE_PAGES.length - 1);
  });

  it('asks the server once the typing pauses, with the trimmed text', async () => {
    const palette = startPalette();
    const { actor, called, clock } = palette;
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.type', value: ' w3e' });
    clock.increment(PALETTE_DEBOUNCE_MS - 1);
    actor.send({ type: 'user.type', value: ' w3e9r2 ' });
    clock.increment(PALETTE_DEBOUNCE_MS - 1);
    expect(called('search')).toHaveLength(0);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    clock.increment(1);
    await waitFor(actor, (s) => s.matches({ open: 'results' }));
    expect(called('search').map((c) => c.input)).toEqual([{ query: 'w3e9r2' }]);
    expect(actor.getSnapshot().context.results).toEqual([kit, dish]);
  });

  it('cancels the request under way when the text changes, and keeps only the newer answer', async () => {
    const palette = startPalette(['hang', ok([dish])]);
    const { actor, called } = palette;
    actor.send({ type: 'user.open' });
    typeAndPause(palette, 'kqx');
    expect(actor.getSnapshot().matches({ open: 'searching' })).toBe(true);
    const first = called('search')[0]!;
    actor.send({ type: 'user.type', value: 'dshw' });
    expect(first.signal.aborted).toBe(true);
    palette.clock.increment(PALETTE_DEBOUNCE_MS);
    await waitFor(actor, (s) => s.matches({ open: 'results' }));
    expect(actor.getSnapshot().context.results).toEqual([dish]);
  });

  it('moves through the options with wrap-around and opens the active one, closing', async () => {
    const palette = startPalette();
    const { actor, opened } = palette;
    actor.send({ type: 'user.open' });
    typeAndPause(palette, 'w3e9r2');
    await waitFor(actor, (s) => s.matches({ open: 'results' }));
    actor.send({ type: 'user.move', to: 'next' });
    expect(actor.getSnapshot().context.activeIndex).toBe(1);
    actor.send({ type: 'user.move', to: 'next' });
    expect(actor.getSnapshot().context.activeIndex).toBe(0);
    actor.send({ type: 'user.move', to: 'previous' });
    expect(actor.getSnapshot().context.activeIndex).toBe(1);
    actor.send({ type: 'user.choose' });
    expect(opened).toEqual(['/terminals?terminal=UT10000002']);
    expect(actor.getSnapshot().matches('closed')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ input: '', results: [], activeIndex: 0 });
  });

  it('lists matching pages at once, before the server answers', () => {
    const palette = startPalette(['hang']);
    palette.actor.send({ type: 'user.open' });
    palette.actor.send({ type: 'user.type', value: 'rules' });
    palette.actor.send({ type: 'user.choose' });
    expect(palette.opened).toEqual(['/alerts/rules']);
  });

  it('says so when nothing matches, and Enter then does nothing', async () => {
    const palette = startPalette([ok([])]);
    palette.actor.send({ type: 'user.open' });
    typeAndPause(palette, 'zzqx');
    await waitFor(palette.actor, (s) => s.matches({ open: 'empty' }));
    palette.actor.send({ type: 'user.choose' });
    expect(palette.opened).toEqual([]);
    expect(palette.actor.getSnapshot().matches({ open: 'empty' })).toBe(true);
  });

  it('shows the pages that match even when the server finds nothing', async () => {
    const palette = startPalette([ok([])]);
    palette.actor.send({ type: 'user.open' });
    typeAndPause(palette, 'settings');
    await waitFor(palette.actor, (s) => s.matches({ open: 'results' }));
  });

  it('keeps a refusal and a failure as the message, and tries again on request', async () => {
    const palette = startPalette([refused('Server busy'), new Error('network'), ok([kit])]);
    const { actor } = palette;
    actor.send({ type: 'user.open' });
    typeAndPause(palette, 'kqx7');
    await waitFor(actor, (s) => s.matches({ open: 'failed' }));
    expect(actor.getSnapshot().context.error).toBe('Server busy');
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches({ open: 'failed' }) && s.context.error !== 'Server busy');
    expect(actor.getSnapshot().context.error).toBe('An unexpected error occurred');
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches({ open: 'results' }));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('lists the pages it was given, not the whole menu', () => {
    const { called, answer } = scriptedActors();
    const pages = [{ title: 'Home', url: '/home', section: null }];
    const actor = createActor(commandPaletteMachine.provide({ actors: { search: answer<SearchOutcome, { query: string }>('search', ['hang']) } }), { input: { pages } }).start();
    actor.send({ type: 'user.open' });
    actor.send({ type: 'user.type', value: 'settings' });
    expect(actor.getSnapshot().context.pages).toEqual(pages);
    actor.send({ type: 'user.choose' });
    // Settings is not among the pages given: nothing to open until the server answers.
    expect(actor.getSnapshot().matches({ open: 'debouncing' })).toBe(true);
    expect(called('search')).toHaveLength(0);
  });

  it('clearing the text goes back to the pages and asks nothing', () => {
    const palette = startPalette(['hang']);
    palette.actor.send({ type: 'user.open' });
    typeAndPause(palette, 'kqx');
    const request = palette.called('search')[0]!;
    palette.actor.send({ type: 'user.type', value: '  ' });
    expect(palette.actor.getSnapshot().matches({ open: 'idle' })).toBe(true);
    expect(request.signal.aborted).toBe(true);
  });

  it('closing cancels the request and forgets the text; a pointer picks an option', async () => {
    const palette = startPalette(['hang']);
    palette.actor.send({ type: 'user.open' });
    typeAndPause(palette, 'kqx');
    palette.actor.send({ type: 'user.close' });
    expect(palette.called('search')[0]!.signal.aborted).toBe(true);
    expect(palette.actor.getSnapshot().context.input).toBe('');
    palette.actor.send({ type: 'user.open' });
    palette.actor.send({ type: 'user.point', index: 2 });
    palette.actor.send({ type: 'user.point', index: 999 });
    palette.actor.send({ type: 'user.choose' });
    expect(palette.opened).toEqual([PALETTE_PAGES[2]!.url]);
  });
});
