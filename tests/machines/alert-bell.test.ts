import { describe, expect, it } from 'vitest';
import { createActor, SimulatedClock, waitFor } from 'xstate';
import { ALERT_BELL_POLL_MS } from '../../src/domain/alerts';
import { alertBellMachine, type BellOutcome, type SeenOutcome } from '../../src/machines/alert-bell';
import { bellWire } from '../fixtures/alerts';
import { ok, refused, scriptedActors, type Answer } from './scripted-actors';

function startBell(reads: Array<Answer<BellOutcome>>, seen: Array<Answer<SeenOutcome>> = [ok({ seenAt: '2026-03-10T12:00:00.000Z' })]) {
  const { called, answer } = scriptedActors();
  const clock = new SimulatedClock();
  const actor = createActor(alertBellMachine.provide({ actors: { loadBell: answer('loadBell', reads), markSeen: answer('markSeen', seen) } }), { clock }).start();
  return { actor, called, clock };
}

describe('alert bell machine', () => {
  it('reads the count at once and again every poll interval', async () => {
    const { actor, called, clock } = startBell([ok(bellWire(2)), ok(bellWire(3))]);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    expect(actor.getSnapshot().context.bell?.unread).toBe(2);
    clock.increment(ALERT_BELL_POLL_MS - 1);
    expect(called('loadBell')).toHaveLength(1);
    clock.increment(1);
    await waitFor(actor, (s) => s.context.bell?.unread === 3);
    expect(called('loadBell')).toHaveLength(2);
  });

  it('asks nothing while the tab is hidden, and reads at once when it shows again', async () => {
    const { actor, called, clock } = startBell([ok(bellWire(1))]);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    actor.send({ type: 'page.hidden' });
    clock.increment(ALERT_BELL_POLL_MS * 5);
    expect(called('loadBell')).toHaveLength(1);
    actor.send({ type: 'page.visible' });
    expect(called('loadBell')).toHaveLength(2);
  });

  it('keeps the last count when a read fails or is refused', async () => {
    const { actor, clock } = startBell([ok(bellWire(4)), refused('Server busy'), new Error('network')]);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    clock.increment(ALERT_BELL_POLL_MS);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    clock.increment(ALERT_BELL_POLL_MS);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    expect(actor.getSnapshot().context.bell?.unread).toBe(4);
  });

  it('opening the panel with something unread shows 0 at once, records it, then reads again', async () => {
    const { actor, called } = startBell([ok(bellWire(2)), ok(bellWire(0))]);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    actor.send({ type: 'user.open' });
    expect(actor.getSnapshot().context.bell?.unread).toBe(0);
    expect(actor.getSnapshot().hasTag('marking')).toBe(true);
    await waitFor(actor, (s) => s.matches({ seen: 'idle', poll: 'waiting' }) && called('loadBell').length === 2);
    expect(called('markSeen')).toHaveLength(1);
    expect(actor.getSnapshot().context.bell?.unread).toBe(0);
  });

  it('opening the panel with nothing unread records nothing', async () => {
    const { actor, called } = startBell([ok(bellWire(0))]);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    actor.send({ type: 'user.open' });
    expect(called('markSeen')).toHaveLength(0);
  });

  it('a read that answers while the opening is recorded still shows 0 unread', async () => {
    const { actor } = startBell([ok(bellWire(2)), ok(bellWire(2))], ['hang']);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    actor.send({ type: 'user.open' });
    actor.send({ type: 'alerts.changed' });
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    expect(actor.getSnapshot().context.bell?.unread).toBe(0);
  });

  it('an acknowledgement elsewhere reads the count again at once', async () => {
    const { actor, called } = startBell([ok(bellWire(3)), ok(bellWire(1))]);
    await waitFor(actor, (s) => s.matches({ poll: 'waiting' }));
    actor.send({ type: 'alerts.changed' });
    await waitFor(actor, (s) => s.context.bell?.unread === 1);
    expect(called('loadBell')).toHaveLength(2);
  });
});
