// A stream of real writes over HTTP from several concurrent clients: customers created, service
// lines assigned to them and given back. Every request is logged with what the client knows of
// it: acknowledged (a 2xx answer whose body was read), refused (a non-2xx answer), or unknown (the
// server died with the request in flight). Each client owns its own service lines, so the order of
// writes on a line is the order its one client sent them, and the final state can be predicted.
import { prng } from '../../../server/random';

export interface Api {
  baseUrl: string;
  token: string;
}

export type Outcome = 'acked' | 'refused' | 'unknown';

interface OpBase {
  seq: number;
  client: number;
  round: number;
  outcome: Outcome;
  status: number | null;
  /** The server's x-request-id; audit rows carry it. Null when no answer came. */
  requestId: string | null;
}

export interface CreateOp extends OpBase {
  kind: 'create';
  email: string;
  name: string;
  company: string;
  /** From the acknowledged answer. */
  customerId: string | null;
}

export interface AssignOp extends OpBase {
  kind: 'assign';
  customerId: string;
  lines: string[];
  /** Acknowledged: the lines the answer says were assigned, and the failures it listed. */
  assigned: string[];
  failed: string[];
  /** Unknown: what the restarted server showed (all lines the customer's, or none). */
  resolution: 'applied' | 'absent' | null;
}

export interface UnassignOp extends OpBase {
  kind: 'unassign';
  customerId: string;
  line: string;
  /** Acknowledged: the terminals the answer says were returned. */
  unassigned: string[];
  resolution: 'applied' | 'absent' | null;
}

export type Op = CreateOp | AssignOp | UnassignOp;

/** Whether a line-changing operation took effect: from its answer, or, when none came, from the restarted server. */
export function applied(op: AssignOp | UnassignOp): boolean {
  if (op.outcome === 'unknown') return op.resolution === 'applied';
  if (op.outcome === 'refused') return false;
  return op.kind === 'assign' ? op.assigned.length > 0 : true;
}

interface ClientState {
  id: number;
  lines: string[];
  /** Who holds each of this client's lines, as far as the client knows. */
  holder: Map<string, string | null>;
  /** Lines whose last operation had no answer, until the restarted server says what happened. */
  uncertain: Set<string>;
  customers: string[];
  random: () => number;
}

interface Answer {
  status: number;
  requestId: string | null;
  body: { success?: boolean; data?: unknown; message?: string };
}

class ServerGone extends Error {}

async function call(api: Api, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  let response: Response;
  let parsed: Answer['body'];
  try {
    response = await fetch(`${api.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${api.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    parsed = (await response.json()) as Answer['body'];
  } catch (error) {
    throw new ServerGone((error as Error).message, { cause: error });
  }
  return { status: response.status, requestId: response.headers.get('x-request-id'), body: parsed };
}

export async function login(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { data?: { token?: string } };
  if (!response.ok || !body.data?.token) throw new Error(`Sign-in failed (${response.status}): ${JSON.stringify(body)}`);
  return body.data.token;
}

export interface RoundStats {
  round: number;
  sent: number;
  acked: number;
  refused: number;
  unknown: number;
}

export interface RoundRun {
  /**
   * Resolves when the first line write (an assignment or an unassignment) is acknowledged: a client
   * creates a customer before it assigns, so from then on every kind of write is flowing. (Timed
   * from the first write of any kind, a kill on a busy machine could come before any line write had
   * an answer, and the run proved nothing about them.)
   */
  flowing: Promise<void>;
  /** Call right before the kill: clients start nothing new, and a failed request is then expected. */
  stop(): void;
  /** Settles once every client has seen its last request through. */
  done: Promise<RoundStats>;
}

export class CrashWriter {
  readonly ops: Op[] = [];
  /** Requests that failed while the server was meant to be up: always a test failure. */
  readonly errors: string[] = [];
  private readonly clients: ClientState[];
  private seq = 0;

  constructor(
    lines: readonly string[],
    clientCount: number,
    private readonly seed: number,
  ) {
    const sorted = [...lines].sort();
    this.clients = Array.from({ length: clientCount }, (_, id) => {
      const own = sorted.filter((_, index) => index % clientCount === id);
      return { id, lines: own, holder: new Map(own.map((line) => [line, null])), uncertain: new Set(), customers: [], random: prng(seed * 131 + id) };
    });
  }

  runRound(api: Api, round: number): RoundRun {
    let stopping = false;
    let markFlowing: () => void = () => undefined;
    const flowing = new Promise<void>((resolve) => {
      markFlowing = resolve;
    });
    const stats: RoundStats = { round, sent: 0, acked: 0, refused: 0, unknown: 0 };

    const runClient = async (client: ClientState) => {
      while (!stopping) {
        const op = this.nextOp(client, round);
        stats.sent++;
        try {
          const answer = await this.send(api, op);
          this.record(client, op, answer);
          if (op.outcome === 'acked') {
            stats.acked++;
            if (op.kind !== 'create') markFlowing();
          } else {
            stats.refused++;
            this.errors.push(`round ${round}: ${op.kind} #${op.seq} was refused with ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
          }
        } catch (error) {
          if (!(error instanceof ServerGone)) throw error;
          op.outcome = 'unknown';
          stats.unknown++;
          if (op.kind === 'assign') for (const line of op.lines) client.uncertain.add(line);
          if (op.kind === 'unassign') client.uncertain.add(op.line);
          if (!stopping) this.errors.push(`round ${round}: ${op.kind} #${op.seq} failed while the server was up: ${error.message}`);
          // The server is gone; nothing more this round.
          return;
        }
      }
    };

    const done = Promise.all(this.clients.map(runClient)).then(() => stats);
    return {
      flowing,
      stop: () => {
        stopping = true;
      },
      done,
    };
  }

  /**
   * After a restart: asks the server what became of each request that had no answer, through the
   * customer's assigned-terminals list. A request only partly visible is a half-applied write.
   */
  async resolveUnknown(api: Api): Promise<string[]> {
    const problems: string[] = [];
    for (const op of this.ops) {
      if (op.outcome !== 'unknown' || op.kind === 'create' || op.resolution !== null) continue;
      const client = this.clients[op.client]!;
      const answer = await call(api, 'GET', `/terminals/customers/${op.customerId}/terminals`);
      if (answer.status !== 200) {
        // An acknowledged customer the restarted server does not know: a lost write, not a test error.
        problems.push(`${op.kind} #${op.seq}: customer ${op.customerId} (acknowledged earlier) answers ${answer.status} after the restart`);
        continue;
      }
      const held = new Set((answer.body.data as { serviceLine: string }[]).map((row) => row.serviceLine));
      if (op.kind === 'assign') {
        const present = op.lines.filter((line) => held.has(line));
        if (present.length > 0 && present.length < op.lines.length) {
          problems.push(`assign #${op.seq} (${op.lines.join(', ')} → ${op.customerId}) is half-applied after the restart: only ${present.join(', ')}`);
        }
        op.resolution = present.length > 0 ? 'applied' : 'absent';
        for (const line of op.lines) {
          if (op.resolution === 'applied') client.holder.set(line, op.customerId);
          client.uncertain.delete(line);
        }
      } else {
        op.resolution = held.has(op.line) ? 'absent' : 'applied';
        if (op.resolution === 'applied') client.holder.set(op.line, null);
        client.uncertain.delete(op.line);
      }
    }
    return problems;
  }

  private nextOp(client: ClientState, round: number): Op {
    const base = { seq: ++this.seq, client: client.id, round, outcome: 'unknown' as Outcome, status: null, requestId: null };
    const usable = client.lines.filter((line) => !client.uncertain.has(line));
    const free = usable.filter((line) => client.holder.get(line) === null);
    const held = usable.filter((line) => client.holder.get(line) !== null);
    const pick = <T>(list: readonly T[]) => list[Math.floor(client.random() * list.length)]!;
    const roll = client.random();
    let op: Op;
    if (client.customers.length === 0 || roll < 0.4 || (free.length === 0 && held.length === 0)) {
      const tag = `r${round}-c${client.id}-${base.seq}`;
      op = { ...base, kind: 'create', email: `crash-${tag}@test.local`, name: `Crash Customer ${tag}`, company: `Crash Co ${client.id}`, customerId: null };
    } else if ((roll < 0.8 && free.length > 0) || held.length === 0) {
      // One or two lines in one request: a two-line request must land whole or not at all.
      const count = Math.min(free.length, client.random() < 0.5 ? 1 : 2);
      const lines = [...free].sort(() => client.random() - 0.5).slice(0, count);
      op = { ...base, kind: 'assign', customerId: pick(client.customers.slice(-3)), lines, assigned: [], failed: [], resolution: null };
    } else {
      const line = pick(held);
      op = { ...base, kind: 'unassign', customerId: client.holder.get(line)!, line, unassigned: [], resolution: null };
    }
    this.ops.push(op);
    return op;
  }

  private send(api: Api, op: Op): Promise<Answer> {
    switch (op.kind) {
      case 'create':
        return call(api, 'POST', '/customers', { email: op.email, name: op.name, company: op.company });
      case 'assign':
        return call(api, 'POST', '/terminals/customers/assign-terminals', { customerUuid: op.customerId, serviceLineNumbers: op.lines });
      case 'unassign':
        return call(api, 'POST', '/terminals/customers/unassign-terminal', { customerUuid: op.customerId, serviceLineNumber: op.line });
    }
  }

  private record(client: ClientState, op: Op, answer: Answer): void {
    op.status = answer.status;
    op.requestId = answer.requestId;
    op.outcome = answer.status >= 200 && answer.status < 300 && answer.body.success === true ? 'acked' : 'refused';
    if (op.outcome !== 'acked') return;
    if (op.kind === 'create') {
      op.customerId = (answer.body.data as { customer: { uuid: string } }).customer.uuid;
      client.customers.push(op.customerId);
    } else if (op.kind === 'assign') {
      const data = answer.body.data as { assigned: string[]; failed: { serviceLineNumber: string }[] };
      op.assigned = data.assigned;
      op.failed = data.failed.map((failure) => failure.serviceLineNumber);
      for (const line of op.assigned) client.holder.set(line, op.customerId);
      // Every line was free as far as this client knew; a failure means the server disagrees.
      if (op.failed.length > 0) this.errors.push(`assign #${op.seq} to ${op.customerId} failed lines the client believed free: ${JSON.stringify(data.failed)}`);
    } else {
      op.unassigned = (answer.body.data as { unassigned: string[] }).unassigned;
      client.holder.set(op.line, null);
    }
  }
}
