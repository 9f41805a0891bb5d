import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { createResourceMachine, FALLBACK_LOAD_ERROR, reloadEvent, type LoadOutcome } from '../../src/machines/resource';
import { startResource } from './starters/resource';

const machine = createResourceMachine<{ total: number }>('summary');
const start = (results: Array<LoadOutcome<{ total: number }> | Error>) => startResource(machine, results);

describe('resource machine (actor)', () => {
  it('loads, then shows the data', async () => {
    const actor = start([{ ok: true, data: { total: 3 } }]);
    expect(actor.getSnapshot().hasTag('loading')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches('ready'));
    expect(snapshot.context.data).toEqual({ total: 3 });
  });

  it('a refused load shows the server message and Try Again loads again', async () => {
    const actor = start([{ ok: false, message: 'Database unavailable' }, { ok: true, data: { total: 1 } }]);
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toBe('Database unavailable');
    actor.send({ type: 'user.retry' });
    expect((await waitFor(actor, (s) => s.matches('ready'))).context).toEqual({ data: { total: 1 }, error: null });
  });

  it('an unexpected failure shows the fallback message', async () => {
    const actor = start([new Error('boom')]);
    expect((await waitFor(actor, (s) => s.matches('failed'))).context.error).toBe(FALLBACK_LOAD_ERROR);
  });

  it('a failed refresh keeps the data on screen with the error', async () => {
    const actor = start([{ ok: true, data: { total: 1 } }, { ok: false, message: 'Timed out' }]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.refresh' });
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    const snapshot = await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && s.context.error !== null);
    expect(snapshot.context).toEqual({ data: { total: 1 }, error: 'Timed out' });
  });

  it('reloadEvent loads again from either end: a retry after a failure, a refresh in place after data', async () => {
    const actor = start([{ ok: false, message: 'Down' }, { ok: true, data: { total: 2 } }, { ok: true, data: { total: 5 } }]);
    await waitFor(actor, (s) => s.matches('failed'));
    expect(reloadEvent(actor.getSnapshot())).toEqual({ type: 'user.retry' });
    actor.send(reloadEvent(actor.getSnapshot()));
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    expect(reloadEvent(actor.getSnapshot())).toEqual({ type: 'user.refresh' });
    actor.send(reloadEvent(actor.getSnapshot()));
    expect(actor.getSnapshot().hasTag('refreshing')).toBe(true);
    expect((await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && s.context.data?.total === 5)).context.data).toEqual({ total: 5 });
  });
});
