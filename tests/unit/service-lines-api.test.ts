import { describe, expect, it } from 'vitest';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import { normaliseLineSettings } from '../../src/api/service-lines';
import { apiAnswering, envelope } from '../fixtures/api-fetch';
import { LINE, lineSettingsFixture } from '../fixtures/service-lines';

const settings = lineSettingsFixture();

describe('normaliseLineSettings', () => {
  it('reads the settings as the server sends them', () => {
    expect(normaliseLineSettings(settings)).toEqual(settings);
  });

  it('is null without a line number, and drops unreadable products, periods and terminals', () => {
    expect(normaliseLineSettings({ ...settings, serviceLineNumber: '' })).toBeNull();
    expect(normaliseLineSettings('SL-1')).toBeNull();
    const read = normaliseLineSettings({
      ...settings,
      blockProducts: [{ productId: 'block-50' }, ...settings.blockProducts],
      partialPeriods: [{ productReferenceId: 'x' }],
      terminals: [{}, ...settings.terminals],
      planKind: 'mystery',
    });
    expect(read).toMatchObject({ blockProducts: settings.blockProducts, partialPeriods: [], terminals: settings.terminals, planKind: 'metered' });
  });
});

describe('service lines API', () => {
  const path = `/api/v1/service-lines/${LINE}`;
  it.each([
    ['settings', (api: ReturnType<typeof apiAnswering>['api']) => api.serviceLines.settings(LINE), 'GET', `${path}/settings`, undefined],
    ['rename', (api: ReturnType<typeof apiAnswering>['api']) => api.serviceLines.rename(LINE, 'South yard'), 'PUT', `${path}/nickname`, { nickname: 'South yard' }],
    ['public IP', (api: ReturnType<typeof apiAnswering>['api']) => api.serviceLines.setPublicIp(LINE, true), 'PUT', `${path}/public-ip`, { publicIp: true }],
    ['priority data', (api: ReturnType<typeof apiAnswering>['api']) => api.serviceLines.setPriorityData(LINE, false), 'PUT', `${path}/priority-data`, { optedIn: false }],
    [
      'recurring blocks',
      (api: ReturnType<typeof apiAnswering>['api']) => api.serviceLines.setRecurringBlocks(LINE, { productId: 'block-50', count: 3, applyToCurrentCycle: true }),
      'PUT',
      `${path}/recurring-blocks`,
      { productId: 'block-50', count: 3, applyToCurrentCycle: true },
    ],
    ['top-up', (api: ReturnType<typeof apiAnswering>['api']) => api.serviceLines.topUp(LINE, { productId: 'topup-50', count: 2 }), 'POST', `${path}/top-up`, { productId: 'topup-50', count: 2 }],
    [
      'deactivate',
      (api: ReturnType<typeof apiAnswering>['api']) => api.serviceLines.deactivate(LINE, { when: 'end_of_cycle', reason: 'Moved' }),
      'POST',
      `${path}/deactivate`,
      { when: 'end_of_cycle', reason: 'Moved' },
    ],
  ] as const)('%s: %s and answers the settings', async (_name, call, method, sentPath, body) => {
    const { api, sent } = apiAnswering(200, envelope(settings));
    expect(await call(api)).toEqual({ ok: true, status: 200, data: settings, message: 'ok' });
    expect(sent()).toMatchObject({ method, path: sentPath, body });
  });

  it('escapes the line number in the path', async () => {
    const { api, sent } = apiAnswering(200, envelope(settings));
    await api.serviceLines.settings('SL/1 2');
    expect(sent().path).toBe('/api/v1/service-lines/SL%2F1%202/settings');
  });

  it('a provider refusal comes back with its words; an unreadable answer is a failure', async () => {
    const refused = apiAnswering(409, { success: false, message: 'Service line has pending changes', requestId: 'r' });
    expect(await refused.api.serviceLines.topUp(LINE, { productId: 'topup-50', count: 1 })).toEqual({
      ok: false,
      status: 409,
      message: 'Service line has pending changes',
    });
    const odd = apiAnswering(200, envelope({ nothing: true }));
    expect(await odd.api.serviceLines.settings(LINE)).toEqual({ ok: false, status: 200, message: UNEXPECTED_RESPONSE });
  });
});
