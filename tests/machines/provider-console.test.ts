import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { NetworkError } from '../../src/api/client';
import {
  providerConsoleMachine,
  type SearchResult,
  type TerminalsResult,
} from '../../src/machines/provider-console';
import { CONSOLE_MESSAGES } from '../../src/domain/provider-console';
import { notFoundResponse, searchResponse, terminalsResponse } from '../fixtures/provider-console';

const found = searchResponse;
const missing = notFoundResponse;
const terminals = terminalsResponse;

const ok = <T>(data: T) => ({ ok: true as const, status: 200, data, message: 'ok' });
const refused = (status: number, message: string) => ({ ok: false as const, status, message });

type Answer<T> = T | Error | Promise<never>;

function startConsole(search: Array<Answer<SearchResult>>, load: Array<Answer<TerminalsResult>> = [ok(terminals)]) {
  const searches = vi.fn<(input: string, signal: AbortSignal) => void>();
  const loads = vi.fn<(signal: AbortSignal) => void>();
  const pick = <T>(answers: Array<Answer<T>>, call: number) => {
    const answer = answers[Math.min(call, answers.length - 1)]!;
    return answer instanceof Error ? Promise.reject(answer) : answer;
  };
  const actor = createActor(
    providerConsoleMachine.provide({
      actors: {
        search: fromPromise(async ({ input, signal }) => (searches(input, signal), pick(search, searches.mock.calls.length - 1))),
        userTerminals: fromPromise(async ({ signal }) => (loads(signal), pick(load, loads.mock.calls.length - 1))),
      },
    }),
  ).start();
  return { actor, searches, loads };
}

const type = (value: string) => ({ type: 'user.type', value }) as const;
const search = { type: 'user.search' } as const;
const loadTerminals = { type: 'user.loadTerminals' } as const;

describe('provider console machine (actor)', () => {
  it('a search for a known service line sends the trimmed number and shows the details', async () => {
    const { actor, searches } = startConsole([ok(found)]);
    actor.send(type('  SL-12345-67890 '));
    actor.send(search);
    expect(actor.getSnapshot().hasTag('searching')).toBe(true);
    expect(actor.getSnapshot().can(search)).toBe(false);
    const snapshot = await waitFor(actor, (s) => s.matches({ search: 'found' }));
    expect(searches).toHaveBeenCalledExactlyOnceWith('SL-12345-67890', expect.any(AbortSignal));
    expect(snapshot.context).toMatchObject({ input: '  SL-12345-67890 ', query: 'SL-12345-67890', searchResult: found, searchError: null });
    expect(snapshot.hasTag('searching')).toBe(false);
  });

  it('a service line the provider does not know is "not found", not a failure', async () => {
    const { actor } = startConsole([ok(missing)]);
    actor.send(type('SL-00000-00000'));
    actor.send(search);
    const snapshot = await waitFor(actor, (s) => s.matches({ search: 'notFound' }));
    expect(snapshot.context.searchError).toBeNull();
    expect(snapshot.context.query).toBe('SL-00000-00000');
  });

  it('a refused search shows the server message', async () => {
    const { actor } = startConsole([refused(504, 'The provider did not answer in time')]);
    actor.send(type('SL-1'));
    actor.send(search);
    expect((await waitFor(actor, (s) => s.matches({ search: 'failed' }))).context.searchError).toBe('The provider did not answer in time');
  });

  it('a refusal without a message, or a provider answer with success false and no error, says "API request failed"', async () => {
    const { actor } = startConsole([refused(502, ''), ok({ ...found, success: false, error: null })]);
    actor.send(type('SL-1'));
    actor.send(search);
    expect((await waitFor(actor, (s) => s.matches({ search: 'failed' }))).context.searchError).toBe(CONSOLE_MESSAGES.apiFailed);
    actor.send(search);
    expect(actor.getSnapshot().context.searchError).toBeNull();
    expect((await waitFor(actor, (s) => s.matches({ search: 'failed' }))).context.searchError).toBe(CONSOLE_MESSAGES.apiFailed);
  });

  it('a provider answer with success false shows its own error', async () => {
    const { actor } = startConsole([ok({ ...found, success: false, error: 'Service line lookup failed upstream' })]);
    actor.send(type('SL-1'));
    actor.send(search);
    expect((await waitFor(actor, (s) => s.matches({ search: 'failed' }))).context.searchError).toBe('Service line lookup failed upstream');
  });

  it('no answer at all is a network error; a bug is the unexpected-error message', async () => {
    const network = startConsole([new NetworkError('fetch failed')]);
    network.actor.send(type('SL-1'));
    network.actor.send(search);
    expect((await waitFor(network.actor, (s) => s.matches({ search: 'failed' }))).context.searchError).toBe(CONSOLE_MESSAGES.network);

    const bug = startConsole([new TypeError("Cannot read properties of undefined (reading 'serviceLineFound')")]);
    bug.actor.send(type('SL-1'));
    bug.actor.send(search);
    expect((await waitFor(bug.actor, (s) => s.matches({ search: 'failed' }))).context.searchError).toBe(CONSOLE_MESSAGES.unexpectedSearch);
  });

  it('an empty or blank search box is refused by the guard and nothing is sent', () => {
    const { actor, searches } = startConsole([ok(found)]);
    expect(actor.getSnapshot().can(search)).toBe(false);
    actor.send(search);
    actor.send(type('    '));
    expect(actor.getSnapshot().can(search)).toBe(false);
    actor.send(search);
    expect(actor.getSnapshot().matches({ search: 'idle' })).toBe(true);
    expect(searches).not.toHaveBeenCalled();
  });

  it('typing while a search runs changes the box but not the search under way', () => {
    const { actor, searches } = startConsole([new Promise<never>(() => {})]);
    actor.send(type('SL-1'));
    actor.send(search);
    actor.send(type('SL-2'));
    actor.send(search);
    expect(searches).toHaveBeenCalledOnce();
    expect(actor.getSnapshot().context).toMatchObject({ input: 'SL-2', query: 'SL-1' });
  });

  it('loads the user terminals, and loading again replaces them', async () => {
    const second = { ...terminals, totalCount: 0, terminals: [] };
    const { actor, loads } = startConsole([ok(found)], [ok(terminals), ok(second)]);
    actor.send(loadTerminals);
    expect(actor.getSnapshot().hasTag('loadingTerminals')).toBe(true);
    expect((await waitFor(actor, (s) => s.matches({ terminals: 'loaded' }))).context.terminals).toBe(terminals);
    actor.send(loadTerminals);
    expect(actor.getSnapshot().context.terminals).toBeNull();
    expect((await waitFor(actor, (s) => s.matches({ terminals: 'loaded' }))).context.terminals).toBe(second);
    expect(loads).toHaveBeenCalledTimes(2);
  });

  it('a failed terminals load shows the message and Load Terminals tries again', async () => {
    const { actor } = startConsole(
      [ok(found)],
      [refused(502, 'Provider unavailable'), new NetworkError('socket hang up'), new Error('boom'), ok(terminals)],
    );
    const messages: Array<string | null> = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      actor.send(loadTerminals);
      messages.push((await waitFor(actor, (s) => s.matches({ terminals: 'failed' }))).context.terminalsError);
    }
    expect(messages).toEqual(['Provider unavailable', CONSOLE_MESSAGES.network, CONSOLE_MESSAGES.unexpectedTerminals]);
    actor.send(loadTerminals);
    expect((await waitFor(actor, (s) => s.matches({ terminals: 'loaded' }))).context).toMatchObject({ terminals, terminalsError: null });
  });

  it('the regions are independent: a search runs while the terminals load, and both finish', async () => {
    const { actor } = startConsole([ok(found)], [ok(terminals)]);
    actor.send(loadTerminals);
    actor.send(type('SL-12345-67890'));
    actor.send(search);
    expect(actor.getSnapshot().value).toEqual({ terminals: 'loading', search: 'searching' });
    await waitFor(actor, (s) => s.matches({ terminals: 'loaded', search: 'found' }));
  });

  it('a request never outlives the actor that started it', () => {
    const { actor, searches, loads } = startConsole([new Promise<never>(() => {})], [new Promise<never>(() => {})]);
    actor.send(loadTerminals);
    actor.send(type('SL-1'));
    actor.send(search);
    const signals = [searches.mock.calls[0]![1], loads.mock.calls[0]![0]];
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
    actor.stop();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });
});
