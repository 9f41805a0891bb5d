// What an acknowledged commit costs on embedded PGlite (0.5.x, Node filesystem), and what it
// would cost to make it survive power loss too. Each mode opens a fresh data directory, times N
// transactions shaped like a customer create (a row plus its audit row, committed), and counts
// the write() and fsync() calls PGlite made into pg_wal while committing. Prints JSON.
//
//   npx tsx bench/pglite-durability.ts          (BENCH_COMMITS=500)
//
// Modes:
// - default: what openPglite runs (PGlite starts postgres with -F, i.e. fsync=off;
//   synchronous_commit stays on). Every commit write()s its WAL into the OS page cache before the
//   query returns, so it survives a killed process, not a power cut.
// - relaxedDurability: PGlite's option; on the Node filesystem its syncToFs is a no-op either
//   way, so it should change nothing.
// - fsync: an experiment, not something openPglite does: fsync=on, wal_sync_method=fsync, and
//   Emscripten's NODEFS given the fsync it lacks (fs.fsyncSync), so a commit reaches the disk.
// - asyncCommit: synchronous_commit=off, for contrast: commits return before their WAL is written
//   (the crash-safety test loses acknowledged writes this way).
// - memory: memory://, nothing on disk at all.
//
// Not a test: figures depend on the machine and its disk. Compare runs on one machine.
import { fsyncSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { figures, type Figures } from './timing';

const COMMITS = Number(process.env.BENCH_COMMITS ?? 500);
const WARM_UP = 20;

interface NodeStream {
  nfd: number;
  path?: string;
}
interface StreamOps {
  write(stream: NodeStream, ...rest: unknown[]): number;
  fsync?(stream: NodeStream): number;
}
type ModuleWithNodefs = { NODEFS: { stream_ops: StreamOps } };

/** Calls into pg_wal since the last reset: the evidence that a commit left the process. */
const walCalls = { writes: 0, fsyncs: 0 };

/** Emscripten's NODEFS, counted, and (when `fsync`) with a real fsync behind postgres' fsync(). */
class CountingNodeFS extends NodeFS {
  constructor(
    dataDir: string,
    private readonly realFsync: boolean,
  ) {
    super(dataDir);
  }

  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]) {
    const result = await super.init(pg, opts);
    const preRun = [...((result.emscriptenOpts.preRun as ((mod: unknown) => void)[] | undefined) ?? [])];
    preRun.push((mod) => {
      const ops = (mod as ModuleWithNodefs).NODEFS.stream_ops;
      const write = ops.write.bind(ops);
      ops.write = (stream, ...rest) => {
        if (stream.path?.includes('/pg_wal/')) walCalls.writes++;
        return write(stream, ...rest);
      };
      if (this.realFsync) {
        ops.fsync = (stream) => {
          if (stream.path?.includes('/pg_wal/')) walCalls.fsyncs++;
          fsyncSync(stream.nfd);
          return 0;
        };
      }
    });
    return { emscriptenOpts: { ...result.emscriptenOpts, preRun } };
  }
}

type Mode = 'default' | 'relaxedDurability' | 'fsync' | 'asyncCommit' | 'memory';

function withoutFsyncOff(params: readonly string[]): string[] {
  return params.filter((param) => param !== '-F');
}

function optionsFor(mode: Mode, dir: string): PGliteOptions {
  switch (mode) {
    case 'default':
      return { fs: new CountingNodeFS(dir, false) };
    case 'relaxedDurability':
      return { fs: new CountingNodeFS(dir, false), relaxedDurability: true };
    case 'fsync':
      return { fs: new CountingNodeFS(dir, true), startParams: [...withoutFsyncOff(PGlite.defaultStartParams), '-c', 'wal_sync_method=fsync'] };
    case 'asyncCommit':
      return { fs: new CountingNodeFS(dir, false), startParams: [...PGlite.defaultStartParams, '-c', 'synchronous_commit=off'] };
    case 'memory':
      return { dataDir: 'memory://' };
  }
}

interface ModeResult {
  mode: Mode;
  settings: Record<string, string>;
  commitsPerSecond: number;
  commitMs: Figures;
  /**
   * Per commit, into pg_wal: write() calls (the WAL reaching the OS) and fsync() calls (reaching
   * the disk). Null for memory://, which has no files to count.
   */
  walWritesPerCommit: number | null;
  walFsyncsPerCommit: number | null;
}

async function run(mode: Mode): Promise<ModeResult> {
  const dir = mkdtempSync(path.join(tmpdir(), `pglite-durability-${mode}-`));
  const db = new PGlite(optionsFor(mode, dir));
  try {
    await db.waitReady;
    const settings: Record<string, string> = {};
    for (const name of ['fsync', 'synchronous_commit', 'wal_sync_method']) {
      const result = await db.query<Record<string, string>>(`SHOW ${name}`);
      settings[name] = Object.values(result.rows[0] ?? {})[0] ?? '';
    }
    await db.exec(`
      CREATE TABLE bench_customers (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), email text NOT NULL UNIQUE, name text NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
      CREATE TABLE bench_audit (id bigserial PRIMARY KEY, action text NOT NULL, target_id text, after jsonb, created_at timestamptz NOT NULL DEFAULT now());
    `);
    const commit = async (n: number) => {
      await db.transaction(async (tx) => {
        const row = await tx.query<{ id: string }>('INSERT INTO bench_customers (email, name) VALUES ($1, $2) RETURNING id', [`c${n}@bench.local`, `Customer ${n}`]);
        await tx.query('INSERT INTO bench_audit (action, target_id, after) VALUES ($1, $2, $3)', ['customer.created', row.rows[0]!.id, JSON.stringify({ n })]);
      });
    };
    for (let n = 0; n < WARM_UP; n++) await commit(-1 - n);
    walCalls.writes = 0;
    walCalls.fsyncs = 0;
    const samples: number[] = [];
    const started = performance.now();
    for (let n = 0; n < COMMITS; n++) {
      const at = performance.now();
      await commit(n);
      samples.push(performance.now() - at);
    }
    const seconds = (performance.now() - started) / 1000;
    return {
      mode,
      settings,
      commitsPerSecond: Math.round(COMMITS / seconds),
      commitMs: figures(samples),
      walWritesPerCommit: mode === 'memory' ? null : Math.round((walCalls.writes / COMMITS) * 100) / 100,
      walFsyncsPerCommit: mode === 'memory' ? null : Math.round((walCalls.fsyncs / COMMITS) * 100) / 100,
    };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const modes: Mode[] = ['default', 'relaxedDurability', 'fsync', 'asyncCommit', 'memory'];
const results: ModeResult[] = [];
for (const mode of modes) results.push(await run(mode));
console.log(JSON.stringify({ bench: 'pglite-durability', pglite: '0.5.16', commits: COMMITS, results }, null, 2));
