// The resource factory (createResourceMachine), modelled on its `providerHealth` instance: the
// provider status line of the Starlink API Simulator page (/customers/starlink-simulator), whose
// Test Connection button retries a failed check and refreshes a loaded one. (The dashboard on
// /home is an instance too, but its screen has no refresh, so ready.refreshing could not be
// walked there.) Generated paths on the machine and through the page, plus journeys pinned by hand.
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { waitFor } from 'xstate';
import { CONSOLE_MESSAGES, type ProviderHealthResponse } from '../../../src/domain/provider-console';
import { createResourceMachine, FALLBACK_LOAD_ERROR, type LoadOutcome } from '../../../src/machines/resource';
import { milliseconds } from '../../../src/ui/provider-console/format';
import { health } from '../../fixtures/provider-console';
import { startResource } from '../../machines/starters/resource';
import { defineModel, done, failed } from '../framework/model';
import { openPage, type PageScreen } from '../framework/screen';
import { modelSuite } from '../framework/suite';

// The same id as the page's instance: the UI run drives the actor whose machine has this id.
const providerHealthMachine = createResourceMachine<ProviderHealthResponse>('providerHealth');

const degraded: ProviderHealthResponse = { ...health, status: 'Degraded', message: 'Slow answers', latencyMs: 900 };
const loaded = (data: ProviderHealthResponse): LoadOutcome<ProviderHealthResponse> => ({ ok: true, data });
const refusedWith = (message: string): LoadOutcome<ProviderHealthResponse> => ({ ok: false, message });

/** The status line as the page words it for the data shown. */
function lineFor(data: ProviderHealthResponse): string {
  const lead = data.status === 'Healthy' ? 'Connected to the built-in simulator' : `${data.status}: ${data.message}`;
  return [lead, data.accountNumber, `API ${data.apiVersion}`, milliseconds(data.latencyMs!)].join(' · ');
}
const failureLine = (error: string) => `${CONSOLE_MESSAGES.connectionFailed}: ${error}`;
const testButton = () => screen.getByRole('button', { name: 'Test Connection' }) as HTMLButtonElement;
const expectChecking = () => {
  expect(screen.getByText('Checking the provider connection...')).toBeTruthy();
  expect(testButton().disabled).toBe(true);
};

export const resourceModel = defineModel<typeof providerHealthMachine, PageScreen>({
  name: 'resource',
  machine: providerHealthMachine,
  events: {
    'user.retry': [{ type: 'user.retry' }],
    'user.refresh': [{ type: 'user.refresh' }],
  },
  actorResults: [
    done('load', loaded(health)),
    done('load', refusedWith('Provider unreachable')),
    failed('load', new TypeError('fetch failed')),
    // A reload answers other data, so the screen shows that the refresh replaced it.
    done('reload', loaded(degraded)),
    done('reload', refusedWith('Timed out')),
    failed('reload', new TypeError('fetch failed')),
  ],
  states: {
    loading: (snapshot) => {
      expect(snapshot.hasTag('loading')).toBe(true);
      // Only the first load and Try Again after a failure load from nothing.
      expect(snapshot.context.data).toBeNull();
    },
    'ready.idle': (snapshot) => {
      expect(snapshot.hasTag('loading') || snapshot.hasTag('refreshing')).toBe(false);
      expect(snapshot.context.data).not.toBeNull();
    },
    'ready.refreshing': (snapshot) => {
      expect(snapshot.hasTag('refreshing')).toBe(true);
      // A refresh keeps the data on screen while it runs.
      expect(snapshot.context.data).not.toBeNull();
    },
    failed: (snapshot) => {
      expect(snapshot.context.data).toBeNull();
      expect(['Provider unreachable', FALLBACK_LOAD_ERROR]).toContain(snapshot.context.error);
    },
  },
  ui: {
    open: async (seam) => {
      const page = openPage('/customers/starlink-simulator', seam);
      // The first page of a run waits for the session check before the page's actors start.
      await screen.findByRole('button', { name: 'Test Connection' }, { timeout: 5000 });
      return page;
    },
    events: {
      // One button: the page sends retry after a failure and refresh otherwise.
      'user.retry': async ({ user }) => user.click(testButton()),
      'user.refresh': async ({ user }) => user.click(testButton()),
    },
    states: {
      loading: expectChecking,
      'ready.idle': ({ context }) => {
        // A failed refresh says why; the data under it is kept for the next success.
        expect(screen.getByText(context.error ? failureLine(context.error) : lineFor(context.data!))).toBeTruthy();
        expect(testButton().disabled).toBe(false);
      },
      'ready.refreshing': expectChecking,
      failed: ({ context }) => {
        expect(screen.getByText(failureLine(context.error!))).toBeTruthy();
        expect(testButton().disabled).toBe(false);
      },
    },
  },
});

modelSuite(resourceModel);

describe('resource machine (pinned journeys)', () => {
  // Pinned by hand: generated expectations would move with a wrong transition, these do not.
  it('fails, Try Again loads, a refused refresh keeps the data with its reason, the next refresh clears it', async () => {
    const actor = startResource(providerHealthMachine, [new Error('boom'), loaded(health), refusedWith('Timed out'), loaded(degraded)]);
    expect((await waitFor(actor, (s) => s.matches('failed'))).context).toEqual({ data: null, error: FALLBACK_LOAD_ERROR });
    actor.send({ type: 'user.retry' });
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    actor.send({ type: 'user.refresh' });
    expect((await waitFor(actor, (s) => s.matches({ ready: 'idle' }))).context).toEqual({ data: health, error: 'Timed out' });
    actor.send({ type: 'user.refresh' });
    const end = await waitFor(actor, (s) => s.matches({ ready: 'idle' }) && s.context.data === degraded);
    expect(end.value).toEqual({ ready: 'idle' });
    expect(end.context).toEqual({ data: degraded, error: null });
  });
});
