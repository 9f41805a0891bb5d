// Crash safety: the real server process, writing for several concurrent clients, is
// killed with SIGKILL at seeded random moments and restarted on the same database, round after
// round. Proves that it starts cleanly every time (crash recovery, lock takeover, no migration
// re-run), that every acknowledged write is in the database exactly as answered, and that every
// write in flight at a kill is there whole or not at all. Embedded PGlite by default; PostgreSQL
// when TEST_DATABASE_URL is set. CRASH_ROUNDS (default 1: one kill, one recovery and the graceful close; `npm run test:long` runs 20) and CRASH_SEED change the run.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prng } from '../../server/random';
import { portalDatabase, waitForFirstSync, type PortalDatabase } from './crash/portal';
import { startServer, type ServerProcess } from './crash/server-process';
import { verifyDatabase } from './crash/verify';
import { CrashWriter, login, type Api, type RoundStats } from './crash/writer';
import { TEST_DATABASE_URL } from './helpers';
// The other kill test: a top-up approved across a crash is bought once (PostgreSQL suite).
import './crash/top-up-across-crash';

const ROUNDS = Number(process.env.CRASH_ROUNDS || 1);
const SEED = Number(process.env.CRASH_SEED || 9_004);
const CLIENTS = 6;
const ADMIN = { email: 'crash-admin@test.local', password: 'crash-admin-password-1' };
/** Kill this long after the first acknowledged line write of a round. */
const KILL_AFTER_MS = { min: 50, max: 800 };
/**
 * Kills added when none so far caught a write in flight: on a busy machine every answer can already
 * be on its way when the kill lands, and such a run proves nothing about the writes in flight.
 */
const EXTRA_KILLS = 2;

let database: PortalDatabase;
let dataDir = '';
let databaseUrl: string | null = null;
let server: ServerProcess | undefined;

// The database starts migrated (a copy of the tier's image or template): the kills come once
// writes flow, never during a migration, and a first start's migrations are the bootstrap and
// migration tests' to check.
beforeAll(async () => {
  database = await portalDatabase('portal_crash');
  ({ dataDir, databaseUrl } = database);
});

afterAll(async () => {
  await server?.kill();
  await database?.dispose();
});

// A small fleet and two cycles of usage history keep the first start's sync short; six clients
// share its lines.
const serverEnv = () => database.env(ADMIN, { SIM_SEED: 'crash-safety', SIM_TERMINALS: '60', USAGE_HISTORY_CYCLES: '2' });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function getJson<T>(api: Api, pathname: string): Promise<T> {
  const response = await fetch(`${api.baseUrl}/api/v1${pathname}`, { headers: { authorization: `Bearer ${api.token}` } });
  const body = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`GET ${pathname} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.data;
}

/** Service line → its live terminals, as the synced inventory lists them. */
async function readLines(api: Api): Promise<Map<string, string[]>> {
  type Page = { results: { user_terminal_id: string; service_line_number: string | null }[]; totalCount: number };
  const lines = new Map<string, string[]>();
  for (let page = 1, seen = 0; ; page++) {
    const data = await getJson<Page>(api, `/terminals?limit=100&page=${page}`);
    for (const row of data.results) {
      if (row.service_line_number) lines.set(row.service_line_number, [...(lines.get(row.service_line_number) ?? []), row.user_terminal_id]);
    }
    seen += data.results.length;
    if (seen >= data.totalCount || data.results.length === 0) return lines;
  }
}

interface StartRecord {
  round: number;
  ms: number;
  migrationsApplied: number;
}

async function start(round: number, starts: StartRecord[]): Promise<ServerProcess> {
  server = await startServer(serverEnv());
  const migrationsApplied = (server.output().match(/Applied migration/g) ?? []).length;
  starts.push({ round, ms: server.startMs, migrationsApplied });
  // A restart after a kill recovers silently: no error, failure or pino warning before it is ready.
  const beforeReady = server.output().slice(0, server.output().indexOf('Portal ready at'));
  expect(beforeReady, `start ${round} printed`).not.toMatch(/error|fail|"level":\s*[456]0/i);
  if (!databaseUrl) {
    // The SIGKILLed server's lock (its pid) was taken over by the new process.
    expect(readFileSync(path.join(dataDir, 'pglite', 'portal.lock'), 'utf8')).toBe(String(server.pid));
  }
  return server;
}

describe('crash safety under SIGKILL', () => {
  it(
    `keeps every acknowledged write and never half-applies one across ${ROUNDS} kills (${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'})`,
    async () => {
      const startedAt = performance.now();
      const random = prng(SEED);
      const starts: StartRecord[] = [];
      const rounds: (RoundStats & { killAfterMs: number })[] = [];
      const problems: string[] = [];
      let writer: CrashWriter | undefined;
      let lineTerminals = new Map<string, string[]>();
      let token = '';
      let schemaVersion = 0;

      let kills = ROUNDS;
      for (let round = 1; round <= kills + 1; round++) {
        const running = await start(round, starts);
        if (round === 1) {
          schemaVersion = running.schemaVersion;
          token = await login(running.baseUrl, ADMIN.email, ADMIN.password);
        }
        expect(running.schemaVersion, `schema version at start ${round}`).toBe(schemaVersion);
        // The token survives restarts (JWT_SECRET is fixed), as a signed-in administrator's would.
        const api: Api = { baseUrl: running.baseUrl, token };
        if (round === 1) {
          await waitForFirstSync(api.baseUrl, api.token);
          lineTerminals = await readLines(api);
          expect(lineTerminals.size).toBeGreaterThanOrEqual(CLIENTS * 4);
          writer = new CrashWriter([...lineTerminals.keys()], CLIENTS, SEED);
        } else {
          problems.push(...(await writer!.resolveUnknown(api)));
        }
        if (round > kills) {
          // The last restart only has to come up and answer; then the graceful close must work too.
          expect(await running.stop(), `exit code of the graceful close:\n${running.output()}`).toBe(0);
          server = undefined;
          if (!databaseUrl) expect(existsSync(path.join(dataDir, 'pglite', 'portal.lock')), 'lock left by the graceful close').toBe(false);
          break;
        }

        const run = writer!.runRound(api, round);
        const flowing = await Promise.race([run.flowing.then(() => true), sleep(15_000).then(() => false)]);
        expect(flowing, `no line write was acknowledged in round ${round}:\n${running.output()}`).toBe(true);
        const killAfterMs = KILL_AFTER_MS.min + Math.floor(random() * (KILL_AFTER_MS.max - KILL_AFTER_MS.min));
        await sleep(killAfterMs);
        run.stop();
        await running.kill();
        server = undefined;
        rounds.push({ ...(await run.done), killAfterMs });
        if (round === kills && rounds.every((r) => r.unknown === 0) && kills < ROUNDS + EXTRA_KILLS) kills++;
      }

      const opened = await database.open();
      let result: Awaited<ReturnType<typeof verifyDatabase>>;
      try {
        result = await verifyDatabase(opened, writer!.ops, lineTerminals);
      } finally {
        await opened.close();
      }

      const totals = rounds.reduce((sum, r) => ({ sent: sum.sent + r.sent, acked: sum.acked + r.acked, unknown: sum.unknown + r.unknown }), { sent: 0, acked: 0, unknown: 0 });
      console.log(
        JSON.stringify({
          crashSafety: TEST_DATABASE_URL ? 'postgres' : 'pglite',
          seed: SEED,
          rounds,
          totals,
          starts,
          customers: result.customers,
          acknowledgedCreates: result.acknowledgedCreates,
          unknownCreates: result.unknownCreates,
          lineOps: result.lineOps,
          terminalAuditRows: result.terminalAuditRows,
          assignedTerminals: result.assignedTerminals,
          seconds: Number(((performance.now() - startedAt) / 1000).toFixed(1)),
        }),
      );

      // One assertion, so a failure shows the refused requests, what the restarts showed and what
      // the tables hold side by side.
      expect({ refusedOrFailedWhileUp: writer!.errors, seenAfterRestart: problems, inTheDatabase: result.violations }).toEqual({
        refusedOrFailedWhileUp: [],
        seenAfterRestart: [],
        inTheDatabase: [],
      });
      // The schema came migrated, and a restart after a kill must not re-run anything.
      expect(starts.map((s) => s.migrationsApplied)).toEqual(starts.map(() => 0));
      // Guards against a run that proves nothing: every round had acknowledged writes (the
      // `flowing` wait), lines were assigned, and the kills caught requests in flight.
      expect(result.lineOps.acknowledged).toBeGreaterThan(0);
      expect(totals.unknown).toBeGreaterThan(0);
    },
    90_000 + (ROUNDS + EXTRA_KILLS) * 20_000,
  );
});
