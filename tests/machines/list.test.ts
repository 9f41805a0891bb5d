import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import { createListMachine, SEARCH_DEBOUNCE_MS, type ListPage, type ListQuery } from '../../src/machines/list';
import { FALLBACK_LOAD_ERROR, type LoadOutcome } from '../../src/machines/resource';

type Row = { id: string };
type Status = 'all' | 'active' | 'blocked';

const defaultQuery: ListQuery<Status> = { page: 1, limit: 10, search: '', status: 'all' };
const machine = createListMachine<Row, Status>({ id: 'things', defaultQuery });

const page = (ids: string[], total = ids.length, pageNo = 1): LoadOutcome<ListPage<Row>> => ({
  ok: true,
  data: { rows: ids.map((id) => ({ id })), pagination: { total, page: pageNo, limit: 10, pages: Math.ceil(total / 10) } },
});
const refused = (message: string): LoadOutcome<ListPage<Row>> => ({ ok: false, message });

type Answer = LoadOutcome<ListPage<Row>> | Error | 'hang';

/** A list whose loads answer in order; 'hang' never answers (until aborted). */
function startList(answers: Answer[], options: { query?: Partial<ListQuery<Status>>; clock?: SimulatedClock } = {}) {
  const loads: Array<{ query: ListQuery<Status>; signal: AbortSignal }> = [];
  const published = vi.fn();
  const failures = vi.fn();
  const actor = createActor(
    machine.provide({
      actors: {
        load: fromPromise(async ({ input, signal }) => {
          loads.push({ query: input, signal });
          const answer = answers[Math.min(loads.length - 1, answers.length - 1)]!;
          if (answer === 'hang') return new Promise<never>(() => {});
          if (answer instanceof Error) throw answer;
          return answer;
        }),
      },
      actions: {
        publishQuery: (_, location) => published(location),
        reportLoadFailure: (_, message) => failures(message),
      },
    }),
    { input: options.query ? { query: options.query } : undefined, ...(options.clock ? { clock: options.clock } : {}) },
  ).start();
  return { actor, loads, published, failures };
}

const ready = (s: SnapshotFrom<typeof machine>) => s.matches({ data: { ready: 'idle' } });

describe('list machine (actor)', () => {
  it('loads the query it starts with and shows the rows and the paging object', async () => {
    const { actor, loads } = startList([page(['a', 'b'], 12)], { query: { page: 2, search: 'acme', status: 'active' } });
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    const snapshot = await waitFor(actor, ready);
    expect(loads.map((l) => l.query)).toEqual([{ page: 2, limit: 10, search: 'acme', status: 'active' }]);
    expect(snapshot.context).toMatchObject({ rows: [{ id: 'a' }, { id: 'b' }], pagination: { total: 12, pages: 2 }, error: null, searchInput: 'acme' });
  });

  it('a refused load shows the message, reports it once, and Try Again loads again', async () => {
    const { actor, failures, loads } = startList([refused('Database unavailable'), page(['a'])]);
    expect((await waitFor(actor, (s) => s.matches({ data: 'failed' }))).context.error).toBe('Database unavailable');
    expect(failures).toHaveBeenCalledExactlyOnceWith('Database unavailable');
    actor.send({ type: 'user.retry' });
    expect((await waitFor(actor, ready)).context).toMatchObject({ rows: [{ id: 'a' }], error: null });
    expect(loads).toHaveLength(2);
  });

  it('a load that throws shows the fallback message', async () => {
    const { actor, failures } = startList([new Error('boom')]);
    expect((await waitFor(actor, (s) => s.matches({ data: 'failed' }))).context.error).toBe(FALLBACK_LOAD_ERROR);
    expect(failures).toHaveBeenCalledWith(FALLBACK_LOAD_ERROR);
  });

  it('a URL change while a page loads aborts that request and loads the new query', async () => {
    const { actor, loads } = startList(['hang', page(['p2'], 20, 2)]);
    actor.send({ type: 'query.change', query: { page: 2, search: '', status: 'all' } });
    expect(loads[0]!.signal.aborted).toBe(true);
    const snapshot = await waitFor(actor, ready);
    expect(loads.map((l) => l.query.page)).toEqual([1, 2]);
    expect(snapshot.context.rows).toEqual([{ id: 'p2' }]);
  });

  it('a URL change to the query already shown loads nothing (our own navigation echoing back)', async () => {
    const { actor, loads } = startList([page(['a'])]);
    await waitFor(actor, ready);
    actor.send({ type: 'query.change', query: { page: 1, search: '', status: 'all' } });
    expect(ready(actor.getSnapshot())).toBe(true);
    expect(loads).toHaveLength(1);
  });

  it('choosing a page loads it and publishes it for the URL; the page already shown is ignored', async () => {
    const { actor, loads, published } = startList([page(['a'], 25), page(['k'], 25, 2)], { query: { status: 'active' } });
    await waitFor(actor, ready);
    actor.send({ type: 'user.page', page: 1 });
    expect(published).not.toHaveBeenCalled();
    actor.send({ type: 'user.page', page: 2 });
    expect(published).toHaveBeenCalledExactlyOnceWith({ page: 2, limit: 10, search: '', status: 'active' });
    await waitFor(actor, ready);
    expect(loads.map((l) => l.query.page)).toEqual([1, 2]);
  });

  it('choosing a status goes back to page 1', async () => {
    const { actor, loads, published } = startList([page(['a'], 40)], { query: { page: 3 } });
    await waitFor(actor, ready);
    actor.send({ type: 'user.status', status: 'blocked' });
    expect(published).toHaveBeenCalledWith({ page: 1, limit: 10, search: '', status: 'blocked' });
    await waitFor(actor, ready);
    expect(loads[1]!.query).toEqual({ page: 1, limit: 10, search: '', status: 'blocked' });
  });

  it('typing searches once the typing pauses for the debounce, from page 1, with the trimmed text', async () => {
    const clock = new SimulatedClock();
    const { actor, loads, published } = startList([page(['a'], 30)], { query: { page: 2 }, clock });
    await waitFor(actor, ready);
    actor.send({ type: 'user.searchInput', value: 'ac' });
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    actor.send({ type: 'user.searchInput', value: ' acme ' });
    clock.increment(SEARCH_DEBOUNCE_MS - 1);
    expect(loads).toHaveLength(1);
    expect(actor.getSnapshot().context.searchInput).toBe(' acme ');
    clock.increment(1);
    expect(published).toHaveBeenCalledExactlyOnceWith({ page: 1, limit: 10, search: 'acme', status: 'all' });
    await waitFor(actor, ready);
    expect(loads.map((l) => l.query.search)).toEqual(['', 'acme']);
  });

  it('paging while a search is still being typed keeps the typing and applies it when it pauses (regression: a region-level reenter reset the search box)', async () => {
    const clock = new SimulatedClock();
    const { actor, loads } = startList([page(['a'], 30)], { clock });
    await waitFor(actor, ready);
    actor.send({ type: 'user.searchInput', value: 'acme' });
    actor.send({ type: 'user.page', page: 2 });
    expect(actor.getSnapshot().matches({ searchBox: 'debouncing' })).toBe(true);
    await waitFor(actor, ready);
    clock.increment(SEARCH_DEBOUNCE_MS);
    await waitFor(actor, ready);
    expect(loads.map((l) => [l.query.page, l.query.search])).toEqual([
      [1, ''],
      [2, ''],
      [1, 'acme'],
    ]);
  });

  it('typing back to the applied search loads nothing', async () => {
    const clock = new SimulatedClock();
    const { actor, loads } = startList([page(['a'])], { query: { search: 'acme' }, clock });
    await waitFor(actor, ready);
    actor.send({ type: 'user.searchInput', value: 'acme ' });
    clock.increment(SEARCH_DEBOUNCE_MS);
    expect(actor.getSnapshot().matches({ searchBox: 'idle' })).toBe(true);
    expect(loads).toHaveLength(1);
  });

  it('a URL change replaces the text being typed and cancels its pending search', async () => {
    const clock = new SimulatedClock();
    const { actor, loads } = startList([page(['a'])], { clock });
    await waitFor(actor, ready);
    actor.send({ type: 'user.searchInput', value: 'half-typed' });
    actor.send({ type: 'query.change', query: { page: 1, search: 'linked', status: 'all' } });
    expect(actor.getSnapshot().context.searchInput).toBe('linked');
    clock.increment(SEARCH_DEBOUNCE_MS * 2);
    await waitFor(actor, ready);
    expect(loads.map((l) => l.query.search)).toEqual(['', 'linked']);
  });

  it('refresh reloads in place; a failed refresh keeps the rows and reports the failure', async () => {
    const { actor, failures } = startList([page(['a']), page(['a', 'b']), refused('Timed out')]);
    await waitFor(actor, ready);
    actor.send({ type: 'user.refresh' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    expect(actor.getSnapshot().context.rows).toEqual([{ id: 'a' }]);
    expect((await waitFor(actor, ready)).context.rows).toEqual([{ id: 'a' }, { id: 'b' }]);
    actor.send({ type: 'user.refresh' });
    const snapshot = await waitFor(actor, (s) => ready(s) && s.context.error !== null);
    expect(snapshot.context).toMatchObject({ rows: [{ id: 'a' }, { id: 'b' }], error: 'Timed out' });
    expect(failures).toHaveBeenCalledWith('Timed out');
  });

  it('a refresh asked for while a load runs starts that load again (the change may not be in it)', async () => {
    const { actor, loads } = startList(['hang', page(['fresh'])]);
    actor.send({ type: 'user.refresh' });
    expect(loads[0]!.signal.aborted).toBe(true);
    expect((await waitFor(actor, ready)).context.rows).toEqual([{ id: 'fresh' }]);
  });

  it('a second refresh while one runs supersedes it', async () => {
    const { actor, loads } = startList([page(['a']), 'hang', page(['b'])]);
    await waitFor(actor, ready);
    actor.send({ type: 'user.refresh' });
    actor.send({ type: 'user.refresh' });
    expect(loads[1]!.signal.aborted).toBe(true);
    expect((await waitFor(actor, ready)).context.rows).toEqual([{ id: 'b' }]);
  });

  it('an invalid page number is ignored', async () => {
    const { actor, loads } = startList([page(['a'])]);
    await waitFor(actor, ready);
    actor.send({ type: 'user.page', page: 0 });
    actor.send({ type: 'user.page', page: 1.5 });
    expect(ready(actor.getSnapshot())).toBe(true);
    expect(loads).toHaveLength(1);
  });
});
