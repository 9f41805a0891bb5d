// The mixed workload: each connection loops over weighted operations (70 % reads, 30 % writes)
// until the deadline, one request at a time on its keep-alive socket, and books every
// acknowledged write in the ledger that verification later holds the database to.
//
// Connections write only to their own customers (one seeded, plus the ones they create), so the
// updates of a customer are ordered and its last acknowledged value is well defined. Service
// lines are shared: two connections may ask for the same free line at once, and the loser's 200
// answer lists it under `failed` as assigned_to_other, the one refusal the workload expects.
import { monthUsageQuery, type AssignTerminalsResult } from '../../src/domain/customer-terminals';
import { FIRST_NAMES, LAST_NAMES, type Seeded } from './seed';
import type { JsonAnswer, JsonClient } from './http';

export const READS = {
  'customers.search': 16,
  'terminals.page': 16,
  'dashboard.summary': 10,
  'customers.usage': 14,
  'subscriptions.page': 14,
} as const;
export const WRITES = {
  'customers.create': 8,
  'customers.update': 8,
  'terminals.assign': 8,
  'terminals.unassign': 6,
} as const;
export type ReadOperation = keyof typeof READS;
export type WriteOperation = keyof typeof WRITES;
export type Operation = ReadOperation | WriteOperation;

const WEIGHTS = Object.entries({ ...READS, ...WRITES }) as [Operation, number][];
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, [, w]) => sum + w, 0);
const PAGE_SIZE = 25;
const API = '/api/v1';

/** The acknowledged writes, as the database must show them once the run is over. */
export interface Ledger {
  /** Customer id → email, for every 201 to POST /customers. */
  created: Map<string, string>;
  /** Customer id → acknowledged updates and the address the last one set. */
  updates: Map<string, { count: number; last: string }>;
  /** Line → times an acknowledged assign listed it under `assigned`. */
  assigned: Map<string, number>;
  /** Line → acknowledged unassigns. */
  unassigned: Map<string, number>;
  /** Line → the customer the acknowledged writes leave it with (absent: free). */
  holders: Map<string, string>;
  /** Every acknowledged write with what it touched. */
  writes: AckedWrite[];
}

export type AckedWrite =
  | { kind: 'customers.create' | 'customers.update'; customerId: string }
  | { kind: 'terminals.assign' | 'terminals.unassign'; lines: string[] };

export function emptyLedger(): Ledger {
  return { created: new Map(), updates: new Map(), assigned: new Map(), unassigned: new Map(), holders: new Map(), writes: [] };
}

/** A request whose answer the workload does not accept: counted as an error of the run. */
export class UnexpectedAnswer extends Error {
  override name = 'UnexpectedAnswer';
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

export interface Connection {
  index: number;
  token: string;
  random: () => number;
  /** The seeded customer first, then those this connection created. */
  customers: string[];
  /** Lines this connection's customers hold (line → customer). */
  held: Map<string, string>;
  sequence: number;
}

export interface WorkloadContext {
  client: JsonClient;
  seeded: Seeded;
  ledger: Ledger;
  runId: string;
  /** Holdings above which a connection gives lines back instead of taking more, so free lines never run out. */
  holdLimit: number;
  month: { billing_cycle_start: string; billing_cycle_end: string };
}

export function currentMonth(now: Date) {
  return monthUsageQuery(now.getUTCFullYear(), now.getUTCMonth() + 1);
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const between = (random: () => number, min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

function expectOk(answer: JsonAnswer, status = 200): { data: unknown } {
  const body = answer.body as { success?: boolean; data?: unknown; message?: string } | null;
  if (answer.status !== status || body?.success !== true) {
    const detail = typeof answer.body === 'string' ? answer.body : (body?.message ?? JSON.stringify(answer.body));
    throw new UnexpectedAnswer(`${answer.status}: ${String(detail).slice(0, 200)}`, answer.status);
  }
  return { data: body.data };
}

export function chooseOperation(connection: Connection, holdLimit: number): Operation {
  let roll = connection.random() * TOTAL_WEIGHT;
  let chosen: Operation = WEIGHTS[0]![0];
  for (const [name, weight] of WEIGHTS) {
    if (roll < weight) {
      chosen = name;
      break;
    }
    roll -= weight;
  }
  // The assign/unassign pair keeps each connection's holdings between 0 and holdLimit.
  if (chosen === 'terminals.unassign' && connection.held.size === 0) return 'terminals.assign';
  if (chosen === 'terminals.assign' && connection.held.size >= holdLimit) return 'terminals.unassign';
  return chosen;
}

export async function perform(operation: Operation, connection: Connection, context: WorkloadContext): Promise<void> {
  const { client, seeded, ledger } = context;
  const { random, token } = connection;
  const pages = Math.max(1, Math.ceil(seeded.lines.length / PAGE_SIZE));

  switch (operation) {
    case 'customers.search': {
      const term = pick(random, random() < 0.5 ? FIRST_NAMES : LAST_NAMES).toLowerCase();
      const status = random() < 0.25 ? '&status=active' : '';
      const { data } = expectOk(await client.request('GET', `${API}/customers?search=${term}&page=${between(random, 1, 2)}${status}`, { token }));
      if (!Array.isArray((data as { customers?: unknown }).customers)) throw new UnexpectedAnswer('customers list without customers');
      return;
    }
    case 'terminals.page': {
      // A third of the pages are searches for a line number's distinctive part.
      const search = random() < 1 / 3 ? `&search=${pick(random, seeded.lines).split('-')[1]}` : '';
      const page = search ? 1 : between(random, 1, pages);
      const { data } = expectOk(await client.request('GET', `${API}/terminals?page=${page}&limit=${PAGE_SIZE}${search}`, { token }));
      if (!Array.isArray((data as { results?: unknown }).results)) throw new UnexpectedAnswer('terminals page without results');
      return;
    }
    case 'dashboard.summary':
      expectOk(await client.request('GET', `${API}/dashboard/summary`, { token }));
      return;
    case 'customers.usage': {
      const customer = pick(random, connection.customers);
      const query = new URLSearchParams(context.month);
      const { data } = expectOk(await client.request('GET', `${API}/terminals/customers/${customer}/usage?${query}`, { token }));
      if (!Array.isArray(data)) throw new UnexpectedAnswer('usage without records');
      return;
    }
    case 'subscriptions.page': {
      const { data } = expectOk(await client.request('GET', `${API}/subscriptions?page=${between(random, 1, pages)}`, { token }));
      if (!Array.isArray((data as { subscriptions?: unknown }).subscriptions)) throw new UnexpectedAnswer('subscriptions page without subscriptions');
      return;
    }
    case 'customers.create': {
      const n = ++connection.sequence;
      const email = `${seeded.createdEmailPrefix}c${connection.index}-${n}@bench.example`;
      const answer = await client.request('POST', `${API}/customers`, {
        token,
        body: { email, name: `Load Customer ${connection.index}-${n}`, company: 'Load Created Ltd' },
      });
      const { data } = expectOk(answer, 201);
      const id = (data as { customer: { uuid: string } }).customer.uuid;
      ledger.created.set(id, email);
      ledger.writes.push({ kind: 'customers.create', customerId: id });
      connection.customers.push(id);
      return;
    }
    case 'customers.update': {
      const customer = pick(random, connection.customers);
      const address = `Load ${context.runId} c${connection.index} #${++connection.sequence}`;
      const { data } = expectOk(await client.request('PUT', `${API}/customers/${customer}`, { token, body: { address } }));
      if ((data as { customer: { address: string | null } }).customer.address !== address) throw new UnexpectedAnswer('update answered another address');
      const seen = ledger.updates.get(customer);
      ledger.updates.set(customer, { count: (seen?.count ?? 0) + 1, last: address });
      ledger.writes.push({ kind: 'customers.update', customerId: customer });
      return;
    }
    case 'terminals.assign': {
      const customer = pick(random, connection.customers);
      const wanted = new Set<string>();
      for (let tries = 0, size = between(random, 1, 3); wanted.size < size && tries < 10; tries++) {
        const line = pick(random, seeded.lines);
        if (!connection.held.has(line)) wanted.add(line);
      }
      const lines = [...wanted];
      const { data } = expectOk(
        await client.request('POST', `${API}/terminals/customers/assign-terminals`, { token, body: { customerUuid: customer, serviceLineNumbers: lines } }),
      );
      const result = data as AssignTerminalsResult;
      const unexpected = result.failed.filter((f) => f.code !== 'assigned_to_other');
      if (unexpected.length > 0) throw new UnexpectedAnswer(`assign refused ${unexpected.map((f) => `${f.serviceLineNumber} (${f.code})`).join(', ')}`);
      if (result.assigned.length + result.failed.length !== lines.length) throw new UnexpectedAnswer('assign answered a different set of lines');
      for (const line of result.assigned) {
        const holder = ledger.holders.get(line);
        // Another acknowledged holder means the line was handed out twice.
        if (holder !== undefined) throw new UnexpectedAnswer(`${line} assigned to ${customer} while acknowledged as ${holder}'s`);
        ledger.holders.set(line, customer);
        connection.held.set(line, customer);
        bump(ledger.assigned, line);
      }
      ledger.writes.push({ kind: 'terminals.assign', lines: result.assigned });
      return;
    }
    case 'terminals.unassign': {
      const [line, customer] = pick(random, [...connection.held]);
      // Released before the answer: another connection may take the line as soon as this commits,
      // and its acknowledgement can overtake this one.
      connection.held.delete(line);
      ledger.holders.delete(line);
      const answer = await client.request('POST', `${API}/terminals/customers/unassign-terminal`, {
        token,
        body: { customerUuid: customer, serviceLineNumber: line },
      });
      try {
        expectOk(answer);
      } catch (error) {
        // An error answer rolled the transaction back: the line is still this customer's.
        connection.held.set(line, customer);
        ledger.holders.set(line, customer);
        throw error;
      }
      bump(ledger.unassigned, line);
      ledger.writes.push({ kind: 'terminals.unassign', lines: [line] });
      return;
    }
  }
}
