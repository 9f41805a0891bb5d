// One load run on one database: seed, build the app and listen on the loopback interface (port 0,
// the address checked), sign the administrators in, run the connections until the deadline, stop
// (by itself, or at the safety limit by cutting every socket), close the server, then verify the
// acknowledged writes against the database. The caller opens and drops the database.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../server/app';
import type { Database } from '../../server/db/client';
import { prng } from '../../server/random';
import { testConfig } from '../../tests/server/helpers';
import { createJsonClient } from './http';
import { percentiles, type Percentiles } from './latency';
import { seedLoad } from './seed';
import { verifyWrites, type WriteCheck } from './verify';
import { chooseOperation, currentMonth, emptyLedger, perform, UnexpectedAnswer, type Connection, type Ledger, type Operation } from './workload';
import type { Seeded } from './seed';

export const LOOPBACK = '127.0.0.1';

export interface LoadOptions {
  /** The report's `database`; by default from the database's kind. */
  label?: string;
  connections: number;
  durationMs: number;
  /** Free service lines (one terminal each) the assigns draw from. */
  lines?: number;
  backgroundCustomers?: number;
  admins?: number;
  usageDays?: number;
  /** A request without an answer for this long is an error. */
  requestTimeoutMs?: number;
  /** Past the deadline by this much, every socket is cut and the run ends with errors. */
  safetyMarginMs?: number;
  seed?: number;
}

export interface OperationFigures {
  count: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface LoadReport {
  database: string;
  connections: number;
  /** Measured: from the first request to the last answer. */
  durationS: number;
  requests: number;
  rps: number;
  errors: number;
  latencyMs: Percentiles;
  byOperation: Partial<Record<Operation, OperationFigures>>;
  writes: WriteCheck;
  /** TCP connections the server accepted (keep-alive: at most `connections`). */
  socketsAccepted: number;
  /** Time to open every connection (one health check each) before the clock started. */
  connectMs: number;
  /** True when the safety limit had to stop the run. */
  safetyStop: boolean;
  errorSamples: { operation: Operation | 'setup'; status: number | null; message: string }[];
  seeded: { lines: number; backgroundCustomers: number; connectionCustomers: number; admins: number; usageDays: number; seedMs: number };
}

export interface LoadRun {
  report: LoadReport;
  ledger: Ledger;
  seeded: Seeded;
}

const MAX_ERROR_SAMPLES = 20;

export async function runLoad(database: Database, options: LoadOptions): Promise<LoadRun> {
  const connections = options.connections;
  const lines = options.lines ?? 2_000;
  const backgroundCustomers = options.backgroundCustomers ?? 1_000;
  const admins = Math.max(1, Math.min(options.admins ?? 5, connections));
  const usageDays = options.usageDays ?? 35;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const safetyMarginMs = options.safetyMarginMs ?? requestTimeoutMs + 10_000;
  const runId = randomBytes(4).toString('hex');

  const seedStart = performance.now();
  const seeded = await seedLoad(database, { lines, backgroundCustomers, connections, admins, usageDays, runId });
  const seedMs = Math.round(performance.now() - seedStart);

  const config = await testConfig({ LOGIN_RATE_LIMIT: '100000' });
  const app = await buildApp({ config, database, logger: false });
  let socketsAccepted = 0;
  app.server.on('connection', () => socketsAccepted++);
  await app.listen({ host: LOOPBACK, port: 0 });
  const address = app.server.address() as AddressInfo | null;
  if (!address || address.address !== LOOPBACK) {
    await app.close();
    throw new Error(`the load server must listen on ${LOOPBACK} only, not ${JSON.stringify(address)}`);
  }

  const client = createJsonClient({ host: LOOPBACK, port: address.port }, { maxSockets: connections, timeoutMs: requestTimeoutMs });
  const ledger = emptyLedger();
  const samples: number[] = [];
  const byOperation = new Map<Operation, { samples: number[]; errors: number }>();
  const errorSamples: LoadReport['errorSamples'] = [];
  let errors = 0;
  const noteError = (operation: Operation | 'setup', error: unknown) => {
    errors++;
    if (errorSamples.length < MAX_ERROR_SAMPLES) {
      errorSamples.push({
        operation,
        status: error instanceof UnexpectedAnswer ? error.status : null,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  };

  let stopped = false;
  let safetyStop = false;
  let connectMs = 0;
  let started = performance.now();
  let finished = started;
  try {
    const tokens: string[] = [];
    for (const admin of seeded.admins) {
      const answer = await client.request('POST', '/api/v1/auth/login', { body: admin });
      const token = (answer.body as { data?: { token?: string } } | null)?.data?.token;
      if (answer.status !== 200 || !token) throw new Error(`admin sign-in failed: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
      tokens.push(token);
    }

    const context = { client, seeded, ledger, runId, holdLimit: Math.max(2, Math.floor(lines / connections / 2)), month: currentMonth(new Date()) };
    const loops: Connection[] = Array.from({ length: connections }, (_, index) => ({
      index,
      token: tokens[index % tokens.length]!,
      random: prng((options.seed ?? 0x10ad) + index),
      customers: [seeded.ownedCustomers[index]!],
      held: new Map(),
      sequence: 0,
    }));

    // Every socket is opened before the clock starts, as load tools do. Opened under load, they
    // wait for a turn of an event loop that PGlite keeps busy: measured at 100 connections, the
    // server accepted one new socket every ~0.35 s, so the last ones sat 15-20 s on their first
    // request and the figures described connection set-up, not the workload.
    const opening = performance.now();
    await Promise.all(
      loops.map(async () => {
        const answer = await client.request('GET', '/api/v1/health');
        if (answer.status !== 200) throw new Error(`health check answered ${answer.status}`);
      }),
    );
    connectMs = Math.round(performance.now() - opening);

    started = performance.now();
    const deadline = started + options.durationMs;
    const safety = setTimeout(() => {
      safetyStop = true;
      stopped = true;
      client.destroy();
    }, options.durationMs + safetyMarginMs);
    try {
      await Promise.all(
        loops.map(async (connection) => {
          while (!stopped && performance.now() < deadline) {
            const operation = chooseOperation(connection, context.holdLimit);
            const at = performance.now();
            let failed = false;
            try {
              await perform(operation, connection, context);
            } catch (error) {
              failed = true;
              noteError(operation, error);
            }
            const ms = performance.now() - at;
            samples.push(ms);
            const figures = byOperation.get(operation) ?? { samples: [], errors: 0 };
            figures.samples.push(ms);
            if (failed) figures.errors++;
            byOperation.set(operation, figures);
          }
        }),
      );
    } finally {
      clearTimeout(safety);
      finished = performance.now();
    }
  } catch (error) {
    noteError('setup', error);
  } finally {
    client.destroy();
    await app.close();
  }

  const writes = await verifyWrites(database, ledger, seeded);
  const elapsedS = (finished - started) / 1000;
  const report: LoadReport = {
    database: options.label ?? (database.kind === 'pglite' ? 'PGlite' : 'PostgreSQL'),
    connections,
    durationS: Math.round(elapsedS * 10) / 10,
    requests: samples.length,
    rps: elapsedS > 0 ? Math.round(samples.length / elapsedS) : 0,
    errors,
    latencyMs: percentiles(samples),
    byOperation: Object.fromEntries(
      [...byOperation].sort(([a], [b]) => a.localeCompare(b)).map(([name, f]) => {
        const { p50, p95, p99 } = percentiles(f.samples);
        return [name, { count: f.samples.length, errors: f.errors, p50, p95, p99 }];
      }),
    ),
    writes,
    socketsAccepted,
    connectMs,
    safetyStop,
    errorSamples,
    seeded: { lines, backgroundCustomers, connectionCustomers: connections, admins, usageDays, seedMs },
  };
  return { report, ledger, seeded };
}

/** What makes the run fail: an error, or a write the database does not show as acknowledged. */
export function loadFailed(report: LoadReport): boolean {
  return report.errors > 0 || report.safetyStop || report.writes.verified !== report.writes.acknowledged || report.writes.problems > 0;
}
