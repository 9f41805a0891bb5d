// Calls to the simulator as the provider client makes them, each request body and answer checked
// against the contract (the project's own, or the provider's published document in
// `npm run test:provider-contract`). Shared by the contract suites of the simulator.
import { afterEach, beforeEach, expect } from 'vitest';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../../server/simulator/index';
import { contractFor } from './openapi-contract';
import { simulatorToken } from '../simulator-token';

export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire bodies, checked by schema
  headers: Headers;
}

/**
 * Calls the simulator as the provider client would; checks the request body and the answer against
 * the contract (`check` false: only for a path no contract has).
 */
export async function connect(sim: RunningSimulator) {
  const token = await simulatorToken(sim);
  return async function call(method: string, path: string, body?: unknown, check = true): Promise<Answer> {
    // Writes carry the JSON type even without a body (the provider wants it); a DELETE only with one.
    const hasBody = method === 'POST' || method === 'PUT' || body !== undefined;
    const checked = contractFor(method, path);
    if (check && body !== undefined) checked.expectRequestMatches(method, path, body);
    const response = await fetch(`${sim.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const answer = { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
    if (check) checked.expectResponseMatches(method, path, answer.status, answer.body);
    return answer;
  };
}

export type Call = Awaited<ReturnType<typeof connect>>;

/**
 * A fresh simulator for each test, on a clock the test moves (`advance`, which also takes a new
 * token: the old one expires with the clock), and `call` to it as the provider client would.
 */
export function simulatorPerTest(startIso: string, options: Omit<StartSimulatorOptions, 'now'> = {}) {
  const state: { nowMs: number; sim: RunningSimulator | null; call: Call | null } = { nowMs: Date.parse(startIso), sim: null, call: null };
  beforeEach(async () => {
    state.nowMs = Date.parse(startIso);
    state.sim = await startSimulator({ ...options, now: () => new Date(state.nowMs) });
    state.call = await connect(state.sim);
  });
  afterEach(() => state.sim?.close());
  return {
    get sim(): RunningSimulator {
      return state.sim!;
    },
    get nowMs(): number {
      return state.nowMs;
    },
    call: ((...args: Parameters<Call>) => state.call!(...args)) as Call,
    async advance(ms: number) {
      state.nowMs += ms;
      state.call = await connect(state.sim!);
    },
  };
}

/** A provider failure: the status, the envelope with isValid false, and its first message. */
export function expectFailure(answer: Answer, status: number, message: RegExp) {
  expect(answer.status).toBe(status);
  expect(answer.body.isValid).toBe(false);
  expect(answer.body.errors[0].errorMessage).toMatch(message);
}
