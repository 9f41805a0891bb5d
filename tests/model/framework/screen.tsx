// Opening a page for a UI run: the whole client (router, session, page) signed in as an
// administrator (or a customer, for the customer area), over a small fake portal API that answers
// by "METHOD /path" and 404s the rest.
import { cleanup } from '@testing-library/react';
import type { AdminUser, CustomerProfile } from '../../../src/domain/auth';
import { adminProfile } from '../../machines/fixtures';
import { isCustomerProfile, openSignedInAt } from '../../ui/open-app';
import type { ModelSeam, OpenedScreen } from './model';

export type FakeAnswer = { status?: number; body: unknown } | ((request: { url: URL; body: unknown }) => { status?: number; body: unknown });

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** `{ 'GET /api/v1/users': { body: {...} } }`; /auth/me (or /customers/auth/me) answers the signed-in account. */
export function fakePortalApi(answers: Record<string, FakeAnswer> = {}, profile: AdminUser | CustomerProfile = adminProfile) {
  const me = isCustomerProfile(profile)
    ? { key: 'GET /api/v1/customers/auth/me', body: { success: true, message: 'ok', data: { customer: profile } } }
    : { key: 'GET /api/v1/auth/me', body: { success: true, message: 'ok', data: { user: profile } } };
  const calls: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(`${key}${url.search}`);
    if (init?.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const answer = answers[key] ?? (key === me.key ? { body: me.body } : undefined);
    if (!answer) return json(404, { success: false, message: `Route not found: ${key}` });
    const { status = 200, body: out } = typeof answer === 'function' ? answer({ url, body }) : answer;
    return json(status, out);
  };
  return { fetch, calls };
}

export type PageScreen = OpenedScreen & ReturnType<typeof openSignedInAt> & { calls: string[] };

/** The page at `path`, signed in (as the fixture administrator unless `profile` says otherwise, a customer's included), with the run's seam. */
export function openPage(path: string, seam: ModelSeam, answers: Record<string, FakeAnswer> = {}, profile: AdminUser | CustomerProfile = adminProfile): PageScreen {
  const api = fakePortalApi(answers, profile);
  const opened = openSignedInAt(path, api.fetch, { seam, inspect: seam.inspect, profile });
  return {
    ...opened,
    calls: api.calls,
    close() {
      cleanup();
      opened.app.session.stop();
    },
  };
}
