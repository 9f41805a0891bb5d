// The customer-request API module over a fake fetch: what each call sends, how answers are read,
// and that refusals come back in the server's words.
import { describe, expect, it } from 'vitest';
import { normaliseRequest, normaliseRequestQueue } from '../../src/api/requests';
import { describeAsked, declineReasonProblem, REQUEST_MESSAGES } from '../../src/domain/requests';
import { apiAnswering } from '../fixtures/api-fetch';
import { customerRequest, lineOptions, queuedRequest, requestLines, requestQueue, topUpRequest } from '../fixtures/requests-client';

const envelope = (data: unknown) => ({ success: true, message: 'ok', data });

describe('requests API', () => {
  it("reads the customer's requests and lines, skipping rows it cannot read", async () => {
    const { api, sent } = apiAnswering(200, envelope({ requests: [customerRequest(), { id: 'x', kind: 'bogus' }], lines: [...requestLines, { nickname: 'no number' }] }));
    const result = await api.requests.mine();
    expect(sent()).toMatchObject({ path: '/api/v1/my/requests', method: 'GET' });
    expect(result).toMatchObject({ ok: true, data: { requests: [customerRequest()], lines: requestLines } });
  });

  it("asks a line's options by its number and reads them", async () => {
    const { api, sent } = apiAnswering(200, envelope(lineOptions));
    const result = await api.requests.options('AST-1');
    expect(sent()).toMatchObject({ path: '/api/v1/my/requests/options', query: { serviceLineNumber: 'AST-1' } });
    expect(result).toMatchObject({ ok: true, data: lineOptions });
  });

  it('sends a new request as given, and cancel and the decisions to their paths', async () => {
    const { api, sent } = apiAnswering(201, envelope(topUpRequest));
    const payload = { serviceLineNumber: 'AST-1', kind: 'top_up' as const, productId: 'DATA-TOPUP-50GB', count: 2 };
    expect(await api.requests.create(payload)).toMatchObject({ ok: true, data: topUpRequest });
    expect(sent()).toMatchObject({ path: '/api/v1/my/requests', method: 'POST', body: payload });
    await api.requests.cancel('abc');
    expect(sent(1)).toMatchObject({ path: '/api/v1/my/requests/abc/cancel', method: 'POST' });
    await api.requests.approve('abc');
    expect(sent(2)).toMatchObject({ path: '/api/v1/requests/abc/approve', method: 'POST' });
    await api.requests.decline('abc', 'Retired');
    expect(sent(3)).toMatchObject({ path: '/api/v1/requests/abc/decline', method: 'POST', body: { reason: 'Retired' } });
  });

  it('asks the queue for pending requests by default, and reads its counts', async () => {
    const queue = requestQueue([queuedRequest()], { approved: 4 });
    const { api, sent } = apiAnswering(200, envelope(queue));
    expect(await api.requests.queue()).toMatchObject({ ok: true, data: queue });
    expect(sent()).toMatchObject({ path: '/api/v1/requests', query: { status: 'pending', page: '1', limit: '20' } });
  });

  it("passes a refusal on in the server's words", async () => {
    const { api } = apiAnswering(409, { success: false, message: REQUEST_MESSAGES.pendingExists('top_up') });
    expect(await api.requests.create({ serviceLineNumber: 'AST-1', kind: 'top_up', productId: 'P', count: 1 })).toMatchObject({ ok: false, status: 409, message: REQUEST_MESSAGES.pendingExists('top_up') });
  });

  it('takes an answer it cannot read as a failure, not an empty list', () => {
    expect(normaliseRequestQueue({ nothing: true })).toBeNull();
    expect(normaliseRequest({ id: '1', kind: 'top_up', status: 'pending' })).toBeNull();
  });
});

describe('request rules', () => {
  it('spells out what was asked', () => {
    expect(describeAsked(customerRequest())).toBe('Local Priority 1 TB (USD 165.00 a month)');
    expect(describeAsked(topUpRequest)).toBe('2 top-up blocks (100 GB, USD 100.00)');
    expect(describeAsked({ kind: 'top_up', plan: null, topUp: { productId: 'OLD', count: 1, dataGB: null, price: null, currency: null } })).toBe('1 top-up block of OLD');
  });

  it('needs a decline reason of 1 to 500 characters', () => {
    expect(declineReasonProblem('  ')).toBe(REQUEST_MESSAGES.reasonRequired);
    expect(declineReasonProblem('x'.repeat(501))).toBe(REQUEST_MESSAGES.reasonTooLong);
    expect(declineReasonProblem(' ok ')).toBeNull();
  });
});
