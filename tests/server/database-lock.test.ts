// The embedded database belongs to one process: a second server on the same DATA_DIR is refused
// with a clear message, and a lock left behind by a crashed server does not block a restart.
import { spawn } from 'node:child_process';
import { mkdtempSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseInUseError, openDatabase } from '../../server/db/client';

const dirs: string[] = [];
function freshDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'portal-lock-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('embedded database lock', () => {
  it('refuses a data directory another live process holds, naming that process', async () => {
    const dir = freshDir();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(path.join(dir, 'portal.lock'), String(other.pid));
      const error = await openDatabase({ dataDir: dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DatabaseInUseError);
      expect((error as Error).message).toContain(`pid ${other.pid}`);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that is gone, and releases it on close', async () => {
    const dir = freshDir();
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    writeFileSync(path.join(dir, 'portal.lock'), String(gone.pid));
    const database = await openDatabase({ dataDir: dir });
    expect(readFileSync(path.join(dir, 'portal.lock'), 'utf8')).toBe(String(process.pid));
    await database.close();
    expect(existsSync(path.join(dir, 'portal.lock'))).toBe(false);
  });
});
