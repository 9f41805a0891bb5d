// The baseline's checkout: `git worktree add --detach <dir> <rev>` beside this one, with this
// checkout's node_modules symlinked into it (the baseline runs on today's installed packages; a
// commit whose lock file differs would need its own `npm ci`, which a benchmark should not do),
// removed with `git worktree remove --force` at the end.
import { execFile } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { defer } from './cleanup';

const run = promisify(execFile);

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

/** The full commit id of `rev`, or null when it names no commit. */
export async function resolveCommit(root: string, rev: string): Promise<string | null> {
  try {
    return await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${rev}^{commit}`]);
  } catch {
    return null;
  }
}

/** What the current checkout is: HEAD's commit and whether files differ from it. */
export async function describeCheckout(root: string): Promise<{ commit: string; dirty: boolean }> {
  const commit = await git(root, ['rev-parse', 'HEAD']);
  const status = await git(root, ['status', '--porcelain', '--untracked-files=no']);
  return { commit, dirty: status !== '' };
}

export async function addWorktree(root: string, commit: string, parent: string): Promise<string> {
  const dir = path.join(parent, `baseline-${commit.slice(0, 10)}`);
  await git(root, ['worktree', 'add', '--detach', dir, commit]);
  defer(`worktree ${dir}`, async () => {
    await git(root, ['worktree', 'remove', '--force', dir]);
    await git(root, ['worktree', 'prune']);
  });
  await symlink(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}
