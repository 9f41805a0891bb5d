import { describe, expect, it } from 'vitest';
import { UNEXPECTED_RESPONSE } from '../../src/api/client';
import { normaliseAccountAddress, normaliseActivation } from '../../src/api/activations';
import { apiAnswering, envelope } from '../fixtures/api-fetch';
import { ADDRESSES, KIT, activationFixture } from '../fixtures/activations';

const record = activationFixture({}, 'attach');
const payload = { deviceId: KIT, customerUuid: null, addressReferenceId: 'addr-1', productReferenceId: 'plan-50', nickname: null };

describe('normaliseActivation', () => {
  it('reads the record as the server sends it', () => {
    expect(normaliseActivation(record)).toEqual(record);
  });

  it('is null without an id, a device or a known status; drops unknown steps', () => {
    expect(normaliseActivation({ ...record, id: '' })).toBeNull();
    expect(normaliseActivation({ ...record, status: 'paused' })).toBeNull();
    expect(normaliseActivation([record])).toBeNull();
    const read = normaliseActivation({ ...record, steps: [{ step: 'teleport' }, ...record.steps], customer: { name: 'x' } });
    expect(read).toMatchObject({ steps: record.steps, customer: null });
  });

  it('reads an address, and none without its id', () => {
    expect(normaliseAccountAddress(ADDRESSES[0])).toEqual(ADDRESSES[0]);
    expect(normaliseAccountAddress({ formattedAddress: 'x' })).toBeNull();
  });
});

describe('activations API', () => {
  it.each([
    ['start', (api: ReturnType<typeof apiAnswering>['api']) => api.activations.start(payload), 'POST', '/api/v1/activations', payload],
    ['resume', (api: ReturnType<typeof apiAnswering>['api']) => api.activations.resume('act 1'), 'POST', '/api/v1/activations/act%201/resume', undefined],
    ['get', (api: ReturnType<typeof apiAnswering>['api']) => api.activations.get('act-1'), 'GET', '/api/v1/activations/act-1', undefined],
  ])('%s sends %s and reads the record', async (_name, call, method, path, body) => {
    const { api, sent } = apiAnswering(201, envelope(record));
    const result = await call(api);
    expect(result).toEqual({ ok: true, status: 201, data: record, message: 'ok' });
    expect(sent()).toMatchObject({ method, path, body });
  });

  it('a failed activation is an answer, not a refusal', async () => {
    const { api } = apiAnswering(201, envelope(record));
    const result = await api.activations.start(payload);
    expect(result.ok && result.data.status).toBe('failed');
  });

  it('refusals come back with the server’s words; an unreadable answer is a failure', async () => {
    const refused = await apiAnswering(409, { success: false, message: 'This kit already has an activation in progress: resume it' }).api.activations.start(payload);
    expect(refused).toMatchObject({ ok: false, status: 409, message: 'This kit already has an activation in progress: resume it' });
    const odd = await apiAnswering(200, envelope({ nope: true })).api.activations.get('act-1');
    expect(odd).toMatchObject({ ok: false, message: UNEXPECTED_RESPONSE });
  });

  it('addresses: the search goes as a query when given, and rows without an id are dropped', async () => {
    const { api, sent } = apiAnswering(200, envelope([...ADDRESSES, { formattedAddress: 'x' }]));
    expect(await api.activations.addresses(' quay ')).toMatchObject({ ok: true, data: ADDRESSES });
    expect(sent()).toMatchObject({ method: 'GET', path: '/api/v1/activations/addresses', query: { search: 'quay' } });
    await api.activations.addresses();
    expect(sent(1).query).toEqual({});
  });
});
