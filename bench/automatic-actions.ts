// Automatic actions at fleet scale: "100,000 lines, 5 % of them crossing a usage level in one usage
// sync: evaluation and proposals take at most 30 s on PostgreSQL, and the actions' provider calls
// stay inside the background share of the call budget, behind people's calls".
//
// The fleet of bench/alerts-evaluate.ts (bench/alerts-fleet.ts), its plan able to opt out of
// priority data, is seeded and evaluated once (every line marked: the setup, its figures apart).
// Then, on the same database, two passes side by side, each after a usage sync that adds 10 % of
// the cap to `--crossing` (5 %) of the lines, all of them between 80 and 90 % of their cap, so each
// crosses the 90 % level (its 80 % alert is superseded by a 90 % one) and none reaches 100 %:
//   baseline   the data use rule without actions (as the migration leaves it);
//   actions    the rule's actions saved first (through the alerts service, as the rules page does,
//              which checks them against every line), `--actions` at 90 %: by default opt out in
//              "act" mode (queued to run) and block sign-in in "propose" mode (an admin decides),
//              so each crossing line writes two rows; `--actions propose|act` puts only opt out, in
//              that mode (one row a line); `--actions three` adds ending the line at the cycle's end
//              (proposed): three rows a line (the repository writes them 1,000 rows a statement:
//              one statement a batch broke PostgreSQL's 65,535 parameters past 4,369 rows).
// The two passes cross disjoint lines of the same spread of use and caps (interleaved halves of
// the 80–90 % band), one after the other: the actions pass runs on 5 % more alerts than the baseline did.
//
// The services run as the job runs them (real repositories, the email outbox without SMTP, the
// real webhook service with one endpoint taking every event, nothing sent, a fixed clock). The
// actions service is createAutomaticActionsService as server/services/index.ts builds it, with one
// difference: `changes` is a stub that records what it is asked and makes one provider call per
// action (below) instead of the change services; the passes never call it (the evaluation only
// proposes and queues), so it does not touch the timed figures.
//
// Lanes: then one `runDue()` (one batch, ACTIONS_PER_RUN queued actions) runs with the stub making
// a real provider call per action (opt out of priority data on one of the built-in simulator's
// lines, in process) through a real provider client whose limiter is the server's own call budget
// in the database (provider-call-budget.ts), shrunk to a window of `--lane-window-ms` so its limits
// bind within seconds, wrapped to record each call's lane and wait. A burst of people's calls
// (reads of a line, as a page makes) arrives meanwhile. Figures: the calls per lane, the most
// background calls started in any window against the background share, the waits of each lane,
// and background calls started while a person was waiting (none expected).
//
//   npm run bench:automatic-actions                      (--lines 100000 --crossing 0.05, both databases)
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:automatic-actions -- --only postgres
//   npm run bench:automatic-actions -- --lines 10000 --only pglite --actions propose
//
// Prints one JSON object; exits 1 when a check fails. Not a test: figures depend on the machine.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import type { AlertEvaluationReport } from '../src/domain/alerts';
import { syncLimitOf, type CallLane } from '../src/domain/provider-budget';
import type { RuleActionWire } from '../src/domain/automation';
import type { Database, Db } from '../server/db/client';
import { createRepositories } from '../server/db/repositories';
import { rowsOf } from '../server/db/repositories/results';
import { createStarlinkClient, type CallLimiter } from '../server/provider';
import { startSimulator } from '../server/simulator';
import { createAlertsService, EVALUATION_BATCH } from '../server/services/alerts';
import { createAuditService, type RequestContext } from '../server/services/audit';
import { ACTIONS_PER_RUN, createAutomaticActionsService, type AutomaticActionsService } from '../server/services/automatic-actions';
import type { ChangeOperation, ChangeOperations, ChangeTarget } from '../server/services/change-operations';
import { createEmailSender } from '../server/services/email';
import { createProviderCallBudget, providerAccountKey } from '../server/services/provider-call-budget';
import { CAP_GB, CYCLE, LINE, NOW, checks, count, one, quiet, seed, timeRepositoryCalls, alertPublisher } from './alerts-fleet';
import { runBench, UsageError } from './cli';
import { onEachDatabase } from './databases';

const USAGE =
  'usage: tsx bench/automatic-actions.ts [--lines 100000] [--crossing 0.05] [--actions both|three|propose|act] [--webhooks real|counting] [--lane-window-ms 2000] [--only pglite|postgres]';

/** The target: evaluation and proposals of one usage sync at 100,000 lines, on PostgreSQL. */
const TARGET_MS = 30_000;
/** The level the crossing lines reach. */
const LEVEL = 90;
/** The plan's provider record: it sells priority data beyond what it includes, so it can opt out. */
const PRODUCT_RAW = { dataProducts: { topUpProduct: { productId: 'DATA-TOP-UP-PRIORITY-1GB', dataGB: 1 } } };
/** The shrunk budget of the lanes part: calls per window, every lane, and the background share. */
const LANE_BUDGET = { requestsPerWindow: 20, syncShare: 0.5 } as const;
/** People's calls arriving while the batch runs, and when (after the batch started). */
const PEOPLE_CALLS = 25;
const PEOPLE_AFTER_MS = 1_000;

function options() {
  let values: { lines?: string; crossing?: string; actions?: string; webhooks?: string; 'lane-window-ms'?: string; only?: string };
  try {
    ({ values } = parseArgs({
      options: {
        lines: { type: 'string' },
        crossing: { type: 'string' },
        actions: { type: 'string' },
        webhooks: { type: 'string' },
        'lane-window-ms': { type: 'string' },
        only: { type: 'string' },
      },
    }));
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  const lines = Number(values.lines ?? process.env.BENCH_LINES ?? 100_000);
  if (!Number.isInteger(lines) || lines < 1000 || lines > 2_000_000 || lines % 1000 !== 0) throw new UsageError(`--lines must be a multiple of 1000 from 1000 to 2000000\n${USAGE}`);
  const crossing = Number(values.crossing ?? 0.05);
  // The crossing lines come from the 80–90 % band (a tenth of the lines), a disjoint half per pass.
  if (!(crossing >= 0.002 && crossing <= 0.05) || Math.round(crossing * 500) !== crossing * 500) throw new UsageError(`--crossing must be a share from 0.002 to 0.05 in steps of 0.002\n${USAGE}`);
  const actions = values.actions ?? 'both';
  if (actions !== 'both' && actions !== 'three' && actions !== 'propose' && actions !== 'act') throw new UsageError(`--actions must be both, three, propose or act\n${USAGE}`);
  const webhooks = values.webhooks ?? 'real';
  if (webhooks !== 'real' && webhooks !== 'counting') throw new UsageError(`--webhooks must be real or counting\n${USAGE}`);
  const laneWindowMs = Number(values['lane-window-ms'] ?? 2_000);
  if (!Number.isInteger(laneWindowMs) || laneWindowMs < 200 || laneWindowMs > 60_000) throw new UsageError(`--lane-window-ms must be a whole number from 200 to 60000\n${USAGE}`);
  const only = values.only ?? process.env.BENCH_ONLY;
  if (only !== undefined && only !== 'pglite' && only !== 'postgres') throw new UsageError(`--only must be pglite or postgres\n${USAGE}`);
  if (only) process.env.BENCH_ONLY = only;
  return { lines, crossing, actions, webhooks, laneWindowMs, customers: Math.max(1, Math.round(lines / 10)) } as const;
}

type Options = ReturnType<typeof options>;

function ruleActions(o: Options): RuleActionWire[] {
  if (o.actions === 'both') {
    return [
      { level: LEVEL, action: 'opt_out', mode: 'act', productReferenceId: null },
      { level: LEVEL, action: 'block_sign_in', mode: 'propose', productReferenceId: null },
    ];
  }
  if (o.actions === 'three') {
    return [
      { level: LEVEL, action: 'opt_out', mode: 'act', productReferenceId: null },
      { level: LEVEL, action: 'block_sign_in', mode: 'propose', productReferenceId: null },
      { level: LEVEL, action: 'end_at_cycle_end', mode: 'propose', productReferenceId: null },
    ];
  }
  return [{ level: LEVEL, action: 'opt_out', mode: o.actions, productReferenceId: null }];
}

/**
 * A usage sync that found 10 % of the cap more use on the k-th crossing slice: lines whose use is
 * 80 + (r − 700) / 10 % of their cap, r = g × 7919 mod 1000 in [700, 700 + 2w) (the seed's spread;
 * w = the crossing share of 1000), so each lands between 90 and 100 %. The two slices interleave
 * (r − 700 mod 4 in {0, 1}, or in {2, 3}), so each holds the same spread of use and of caps. One
 * UPDATE, as the sync's upsert writes it (the triggers mark the lines).
 */
async function crossingSync(db: Db, o: Options, k: number): Promise<number> {
  const width = Math.round(o.crossing * 1000);
  const r = sql`(g::bigint * 7919 % 1000)`;
  const result = await db.execute(sql`
    UPDATE service_line_usage_cycles c
    SET priority_gb = c.priority_gb + ${CAP_GB(sql`s.g`)} * 0.10, synced_at = ${NOW.toISOString()}::timestamptz
    FROM (SELECT g, ${LINE(sql`g`)} AS line FROM generate_series(1, ${o.lines}::int) g
          WHERE ${r} >= 700 AND ${r} < ${700 + 2 * width}::int AND (${r} - 700) % 4 IN (${2 * k}::int, ${2 * k + 1}::int)) s
    WHERE c.service_line_number = s.line AND c.cycle_start = ${CYCLE.start}::date
    RETURNING 1`);
  return rowsOf(result).length;
}

/** What the tables hold that a pass adds to: alerts by kind and level, actions by status. */
async function tableCounts(db: Db) {
  const alerts = rowsOf<{ key: string; n: unknown }>(await db.execute(sql`SELECT kind || ':' || level AS key, count(*) AS n FROM alerts GROUP BY 1`));
  const actions = rowsOf<{ key: string; n: unknown }>(await db.execute(sql`SELECT status AS key, count(*) AS n FROM automatic_actions GROUP BY 1`));
  const written = await one(db, sql`SELECT (SELECT count(*) FROM email_outbox) AS emails, (SELECT count(*) FROM webhook_deliveries) AS deliveries`);
  return {
    alerts: new Map(alerts.map((r) => [r.key, count(r.n)])),
    actions: new Map(actions.map((r) => [r.key, count(r.n)])),
    emails: count(written.emails),
    deliveries: count(written.deliveries),
  };
}

const grown = (after: Map<string, number>, before: Map<string, number>) =>
  Object.fromEntries([...after].map(([k, n]) => [k, n - (before.get(k) ?? 0)] as const).filter(([, n]) => n !== 0));

/** Lane and wait of every provider call, as the limiter saw them. */
interface CallRecord {
  lane: CallLane;
  askedAt: number;
  startedAt: number;
  waitedMs: number;
}

function summary(values: number[]) {
  if (values.length === 0) return { n: 0, p50: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50: Math.round(sorted[Math.floor((sorted.length - 1) / 2)]!), max: Math.round(sorted[sorted.length - 1]!) };
}

/** The most of `times` (ms) within any `windowMs`, as the budget counts a window (a start leaves it `windowMs` later). */
function busiestWindow(times: readonly number[], windowMs: number): number {
  times = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

async function run(kind: Database['kind'], database: Database, o: Options) {
  const repos = createRepositories(database.db);
  const timing = timeRepositoryCalls(repos, ['alerts', 'automaticActions', 'emailOutbox', 'webhooks']);
  const now = () => new Date(NOW);
  const email = createEmailSender({ outbox: repos.emailOutbox, transport: null, from: 'Bench <bench@localhost>', now });
  const audit = createAuditService({ audit: repos.audit, now });
  const publisher = alertPublisher(o.webhooks, { repos, audit, now, email });

  // The change operations' stand-in: records what it is asked; in the lanes part, one provider call each.
  const asked = { calls: 0, byOperation: {} as Record<string, number>, byTarget: {} as Record<string, number> };
  let providerCall: ((target: ChangeTarget, operation: ChangeOperation, n: number) => Promise<void>) | null = null;
  const changes: ChangeOperations = {
    async perform(target, operation) {
      asked.calls += 1;
      asked.byOperation[operation.kind] = (asked.byOperation[operation.kind] ?? 0) + 1;
      asked.byTarget[target.type] = (asked.byTarget[target.type] ?? 0) + 1;
      if (providerCall) await providerCall(target, operation, asked.calls);
      return { result: 'made', outcome: 'Done (benchmark stub)' };
    },
  };
  // Bound as server/services/index.ts binds them: each service reaches the other through a getter.
  let automaticActions: AutomaticActionsService | null = null;
  const alerts = createAlertsService({
    repos,
    audit,
    email,
    now,
    portalUrl: 'http://localhost:3000',
    webhooks: () => publisher,
    log: quiet,
    actions: () => automaticActions,
  });
  automaticActions = createAutomaticActionsService({
    repos,
    audit,
    now,
    changes,
    email,
    log: quiet,
    portalUrl: 'http://localhost:3000',
    webhooks: () => publisher,
    raiseFailure: (failure) => alerts.raiseChangeFailed(failure),
  });

  const seedStart = performance.now();
  await seed(database, o, { productRaw: PRODUCT_RAW });
  const seedMs = Math.round(performance.now() - seedStart);

  const evaluate = async (changedLines: number | null) => {
    const marked = await repos.alerts.dirtyCount();
    const before = await tableCounts(database.db);
    timing.take();
    const wallStart = performance.now();
    const report: AlertEvaluationReport = await alerts.evaluate();
    const wallMs = Math.round(performance.now() - wallStart);
    const statementMs = timing.take();
    const after = await tableCounts(database.db);
    const check = await checks(database.db);
    const actionRows = grown(after.actions, before.actions);
    const written = Object.values(actionRows).reduce((a, b) => a + b, 0);
    if (written !== report.actions) check.failures.push(`the report counts ${report.actions} actions, the table got ${written}`);
    if (after.emails - before.emails !== report.emails) check.failures.push(`the report counts ${report.emails} emails, the outbox got ${after.emails - before.emails}`);
    if (changedLines !== null && report.linesRead !== changedLines) check.failures.push(`${changedLines} lines changed, ${report.linesRead} read`);
    console.error(`${kind} ${o.lines}: ${report.linesRead} lines, ${report.ms} ms, ${report.queries} queries, ${report.opened} opened, ${report.actions} actions`);
    return {
      marked,
      ...(changedLines !== null ? { crossingLines: changedLines } : {}),
      ms: report.ms,
      wallMs,
      met: report.ms <= TARGET_MS,
      queries: report.queries,
      linesRead: report.linesRead,
      opened: report.opened,
      openedByKindAndLevel: grown(after.alerts, before.alerts),
      resolved: report.resolved,
      actions: report.actions,
      actionsByStatus: { proposed: actionRows.proposed ?? 0, queued: actionRows.queued ?? 0 },
      emails: report.emails,
      webhookEvents: report.webhookEvents,
      webhookDeliveries: after.deliveries - before.deliveries,
      statementMs,
      checks: check,
    };
  };

  // Setup: every line marked by the seed; its alerts (80, 90, 100 %, overage, offline) opened once.
  const setup = await evaluate(o.lines);

  const baselineLines = await crossingSync(database.db, o, 0);
  const baseline = await evaluate(baselineLines);
  if (baseline.actions !== 0) baseline.checks.failures.push('the rule has no actions, yet actions were written');

  // The rule's actions saved as the rules page saves them (checked against every line first).
  const [admin] = rowsOf<{ id: string }>(await database.db.execute(sql`SELECT id FROM users WHERE email LIKE 'alerts-admin-%@bench.example' ORDER BY email LIMIT 1`));
  if (!admin) throw new Error('no admin seeded');
  const context: RequestContext & { userId: string } = { actor: { type: 'user', id: admin.id }, ip: null, requestId: null, userId: admin.id };
  const saveStart = performance.now();
  await alerts.saveActions('usage', ruleActions(o), context);
  const saveActionsMs = Math.round(performance.now() - saveStart);

  const actionLines = await crossingSync(database.db, o, 1);
  const withActions = await evaluate(actionLines);
  const perLine = ruleActions(o);
  const expected = {
    proposed: actionLines * perLine.filter((a) => a.mode === 'propose').length,
    queued: actionLines * perLine.filter((a) => a.mode === 'act').length,
  };
  if (withActions.actionsByStatus.proposed !== expected.proposed || withActions.actionsByStatus.queued !== expected.queued) {
    withActions.checks.failures.push(`expected ${expected.proposed} proposed and ${expected.queued} queued, got ${withActions.actionsByStatus.proposed} and ${withActions.actionsByStatus.queued}`);
  }
  const noChange = await evaluate(0);
  if (noChange.actions !== 0) noChange.checks.failures.push('a second evaluation wrote actions');

  const lanes = await laneRun(database, repos, automaticActions, o, (call) => (providerCall = call));
  providerCall = null;

  return {
    database: kind === 'pglite' ? 'PGlite (in memory)' : 'PostgreSQL',
    seedMs,
    saveActionsMs,
    cases: { setup, baseline, withActions, noChange },
    actionsMinusBaselineMs: withActions.ms - baseline.ms,
    lanes,
    changeOperationsStub: asked,
  };
}

/**
 * One runDue() batch against the built-in simulator, the call budget in the database shrunk to
 * `laneWindowMs`, with a burst of people's calls meanwhile.
 */
async function laneRun(
  database: Database,
  repos: ReturnType<typeof createRepositories>,
  actions: AutomaticActionsService,
  o: Options,
  bind: (call: (target: ChangeTarget, operation: ChangeOperation, n: number) => Promise<void>) => void,
) {
  const sim = await startSimulator({ terminals: 200 });
  try {
    const simLines = sim.fleet.serviceLineNumbers().filter((n) => sim.fleet.serviceLine(n)?.active);
    if (simLines.length === 0) throw new Error('the simulator has no active line');
    const budget = createProviderCallBudget({
      db: database.db,
      repo: repos.providerCallBudget,
      accountKey: providerAccountKey(sim.baseUrl, sim.credentials.clientId),
      requestsPerMinute: LANE_BUDGET.requestsPerWindow,
      syncShare: LANE_BUDGET.syncShare,
      windowMs: o.laneWindowMs,
    });
    const calls: CallRecord[] = [];
    const limiter: CallLimiter = {
      async acquire(signal, lane = 'person') {
        const askedAt = performance.now();
        const waitedMs = await budget.acquire(signal, lane);
        calls.push({ lane, askedAt, startedAt: performance.now(), waitedMs });
        return waitedMs;
      },
      pause: (ms) => budget.pause(ms),
    };
    const client = createStarlinkClient({
      apiUrl: sim.baseUrl,
      tokenUrl: sim.tokenUrl,
      clientId: sim.credentials.clientId,
      clientSecret: sim.credentials.clientSecret,
      limiter,
      maxRetries: 0,
    });
    const answers: Record<string, number> = {};
    const answered = (key: string) => (answers[key] = (answers[key] ?? 0) + 1);
    bind(async (target, operation, n) => {
      const line = simLines[n % simLines.length]!;
      try {
        if (target.type === 'line' && operation.kind === 'opt_out') await client.optOutPriorityData(line);
        else await client.getServiceLine(line);
        answered('ok');
      } catch (error) {
        answered(error instanceof Error ? error.name : 'error');
      }
    });

    const start = performance.now();
    const people: Promise<void>[] = [];
    const burst = setTimeout(() => {
      for (let i = 0; i < PEOPLE_CALLS; i++) {
        people.push(
          client
            .getServiceLine(simLines[i % simLines.length]!)
            .then(() => void answered('person ok'))
            .catch((error: unknown) => void answered(`person ${error instanceof Error ? error.name : 'error'}`)),
        );
      }
    }, PEOPLE_AFTER_MS);
    const due = await actions.runDue();
    const runDueMs = Math.round(performance.now() - start);
    clearTimeout(burst);
    await Promise.all(people);

    const byLane = (lane: CallLane) => calls.filter((c) => c.lane === lane);
    const sync = byLane('sync');
    const person = byLane('person');
    const syncLimit = syncLimitOf({ requestsPerMinute: LANE_BUDGET.requestsPerWindow, syncShare: LANE_BUDGET.syncShare, windowMs: o.laneWindowMs });
    // A background start while a person had asked and not yet started: the rule says none (but the
    // pump may have granted one in the instant the person arrived).
    const syncWhilePersonWaited = sync.filter((s) => person.some((p) => p.askedAt < s.startedAt && p.startedAt > s.startedAt && p.waitedMs > 0)).length;
    // The windows as the budget itself recorded the starts (provider_call_starts), not as this process saw them.
    const recorded = rowsOf<{ lane: CallLane; ms: unknown }>(
      await database.db.execute(sql`SELECT lane, extract(epoch FROM started_at) * 1000 AS ms FROM provider_call_starts WHERE account_key = ${budget.accountKey}`),
    );
    const busiestSync = busiestWindow(
      recorded.filter((r) => r.lane === 'sync').map((r) => Number(r.ms)),
      o.laneWindowMs,
    );
    const busiestAll = busiestWindow(
      recorded.map((r) => Number(r.ms)),
      o.laneWindowMs,
    );
    const statuses = rowsOf<{ status: string; n: unknown }>(await database.db.execute(sql`SELECT status, count(*) AS n FROM automatic_actions WHERE mode = 'act' GROUP BY status ORDER BY status`));
    const failures = [
      due.ran !== Math.min(ACTIONS_PER_RUN, sync.length) && `runDue ran ${due.ran} actions, ${sync.length} background calls`,
      person.length !== PEOPLE_CALLS && `${PEOPLE_CALLS} people's calls sent, ${person.length} in the person lane`,
      busiestSync > syncLimit && `${busiestSync} background calls in one window, over the share of ${syncLimit}`,
      busiestAll > LANE_BUDGET.requestsPerWindow && `${busiestAll} calls in one window, over the budget of ${LANE_BUDGET.requestsPerWindow}`,
    ].filter((f): f is string => typeof f === 'string');
    return {
      what: `one runDue() batch: the change-operations stub makes one real provider call per action (opt out of priority data on a line of the in-process simulator) through createStarlinkClient, whose limiter is the server's call budget in the database (provider-call-budget.ts) at ${LANE_BUDGET.requestsPerWindow} calls per ${o.laneWindowMs} ms window, ${LANE_BUDGET.syncShare * 100} % for background calls, wrapped to record each call's lane; ${PEOPLE_CALLS} people's calls (reads of a line) arrive ${PEOPLE_AFTER_MS} ms into the batch`,
      budget: { requestsPerWindow: LANE_BUDGET.requestsPerWindow, windowMs: o.laneWindowMs, syncShare: LANE_BUDGET.syncShare, syncLimit },
      runDue: { ...due, ms: runDueMs, actionsPerRun: ACTIONS_PER_RUN },
      callsByLane: { sync: sync.length, person: person.length },
      startsRecordedByTheBudget: recorded.length,
      busiestWindow: { sync: busiestSync, all: busiestAll },
      waitMs: { sync: summary(sync.map((c) => c.waitedMs)), person: summary(person.map((c) => c.waitedMs)) },
      syncStartsWhilePersonWaited: syncWhilePersonWaited,
      providerAnswers: answers,
      actActionsByStatus: Object.fromEntries(statuses.map((r) => [r.status, count(r.n)])),
      met: failures.length === 0 && sync.length > 0,
      failures,
    };
  } finally {
    await sim.close();
  }
}

async function main(): Promise<void> {
  const o = options();
  const runs = await onEachDatabase('bench_actions', (kind, database) => run(kind, database, o));
  const failed = runs.flatMap((r) => [
    ...Object.entries(r.cases).flatMap(([name, c]) => c.checks.failures.map((f) => `${r.database} ${name}: ${f}`)),
    ...r.lanes.failures.map((f) => `${r.database} lanes: ${f}`),
  ]);
  console.log(
    JSON.stringify(
      {
        benchmark: 'automatic-actions',
        node: process.version,
        clock: NOW.toISOString(),
        lines: o.lines,
        customers: o.customers,
        crossingShare: o.crossing,
        crossingLevel: LEVEL,
        ruleActions: ruleActions(o),
        evaluationBatch: EVALUATION_BATCH,
        targetMs: TARGET_MS,
        webhooks:
          o.webhooks === 'real'
            ? 'the webhook service, one active endpoint taking every event (events and deliveries written, none sent)'
            : 'a counting publisher (events counted, not written)',
        changes:
          'a stub of the change operations (records each call; in the lanes part, one provider call each): the passes measure evaluation and proposal, which never call it',
        runs,
        failed,
      },
      null,
      2,
    ),
  );
  if (failed.length > 0) process.exitCode = 1;
}

runBench(main);
