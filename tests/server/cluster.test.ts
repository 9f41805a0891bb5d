// WORKERS=2: the real server entry as an operator runs it, on PostgreSQL (the embedded database
// belongs to one process). Two worker processes answer on one port; a sync queued through one is
// seen through the other, against the one simulator the primary runs; a killed worker is replaced;
// SIGTERM closes everything.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from './crash/server-process';
import { createScratchPostgres, TEST_DATABASE_URL, TEST_JWT_SECRET } from './helpers';

const ADMIN = { email: 'cluster-admin@test.local', password: 'cluster-admin-password-1' };
let dataDir = '';
let scratch: Awaited<ReturnType<typeof createScratchPostgres>> | null = null;
let server: ServerProcess | undefined;
/** All the cluster printed (output() keeps only the last 20 kB, and every request logs a line). */
let printed = '';

beforeAll(async () => {
  if (!TEST_DATABASE_URL) return;
  dataDir = await mkdtemp(path.join(tmpdir(), 'portal-cluster-'));
  scratch = await createScratchPostgres('portal_cluster');
});

afterAll(async () => {
  await server?.kill();
  await scratch?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${printed.slice(-3000)}`);
    await sleep(100);
  }
}

const readyLines = () => (printed.match(/Portal ready at/g) ?? []).length;
/** The pids of the processes that logged a request (pino writes each line with its pid). */
function requestPids(): Set<number> {
  const pids = new Set<number>();
  for (const line of printed.split('\n')) {
    if (!line.includes('"request completed"')) continue;
    try {
      pids.add((JSON.parse(line) as { pid: number }).pid);
    } catch {
      // a line still being written
    }
  }
  return pids;
}

async function api<T>(method: string, pathname: string, token: string | null, body?: unknown): Promise<{ status: number; data: T }> {
  const response = await fetch(`${server!.baseUrl}/api/v1${pathname}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as { data: T };
  return { status: response.status, data: json.data };
}

describe.skipIf(!TEST_DATABASE_URL)('WORKERS=2 on PostgreSQL', () => {
  it('answers on one port from two processes that share the jobs and the provider, replaces a dead one, and closes on SIGTERM', async () => {
    server = await startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      WORKERS: '2',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch!.url,
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      LOGIN_RATE_LIMIT: '1000',
      SYNC_INTERVAL: 'off',
      CLIENT_DIR: path.join(dataDir, 'no-client'),
      SIM_SEED: 'cluster',
      SIM_TERMINALS: '40',
    }, { onOutput: (text) => (printed += text) });
    await until('both workers ready', () => readyLines() === 2);
    expect(printed).toContain('Cluster: starting 2 server processes');
    expect(printed).toContain('run by the cluster primary for every worker');
    // The primary migrated once; the workers found nothing to apply.
    expect((printed.match(/Applied migration 0001_/g) ?? []).length).toBe(1);

    const login = await api<{ token: string }>('POST', '/auth/login', null, ADMIN);
    expect(login.status).toBe(200);
    const token = login.data.token;

    // A sync started through whichever process takes the request runs against the primary's
    // simulator; its progress is read through new connections, which the cluster spreads.
    const started = await api<{ id: string }>('POST', '/terminals/sync', token);
    expect(started.status).toBe(202);
    await until('the sync run ended', async () => {
      const job = await api<{ status: string }>('GET', `/terminals/sync/job/${started.data.id}`, token);
      return job.data.status === 'succeeded';
    });
    const pages = await Promise.all(Array.from({ length: 16 }, () => api<{ totalCount: number }>('GET', '/terminals?page=1&limit=5', token)));
    expect(pages.map((p) => [p.status, p.data.totalCount])).toEqual(Array.from({ length: 16 }, () => [200, 40]));
    await until('requests answered by both processes', () => requestPids().size === 2);

    // A worker that dies is started again, and the port keeps answering.
    const [victim] = [...requestPids()];
    process.kill(victim!, 'SIGKILL');
    await until('a replacement worker ready', () => readyLines() === 3);
    expect(printed).toMatch(new RegExp(`worker ${victim} exited \\(SIGKILL\\)`));
    expect((await api('GET', '/terminals?page=1&limit=5', token)).status).toBe(200);

    expect(await server.stop()).toBe(0);
    expect(printed).toContain('SIGTERM received: closing the 2 workers');
  }, 120_000);
});
