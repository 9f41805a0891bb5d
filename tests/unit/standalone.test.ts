// The repository stands alone: a clone with nothing beside it builds, starts, tests and documents
// itself. No file names the folder that sat beside the first checkout, and every relative link in
// the documentation lands on a file inside the repository. (`.ci/run` proves the rest by running
// the tests in a fresh clone in an empty temporary directory.)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SKIP = new Set(['node_modules', '.git', 'dist', 'data', '.tmp', 'coverage']);
const TEXT = /\.(ts|tsx|js|mjs|cjs|json|md|html|css|yml|yaml|sh)$|^run$|^\.gitignore$/;

function files(dir = ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return TEXT.test(name) && name !== 'package-lock.json' ? [path] : [];
  });
}

// Built so this file does not match itself.
const SIBLING = ['..', 'shared'].join('/');

/** Markdown links and images with a relative target: `[text](target)`, `![alt](target)`. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURIComponent(target.split('#')[0]!))
    .filter((target) => target !== '');
}

describe('the repository stands alone', () => {
  const all = files();

  it('looks at the whole tree: sources, tests, scripts, docs and CI', () => {
    const names = all.map((f) => relative(ROOT, f).split(sep).join('/'));
    for (const expected of ['README.md', 'package.json', '.ci/run', 'server/app.ts', 'src/main.tsx', 'docs/machines/README.md']) {
      expect(names).toContain(expected);
    }
  });

  it('has no file that reads or links the folder beside the first checkout', () => {
    const offending = all.filter((file) => readFileSync(file, 'utf8').includes(SIBLING)).map((file) => relative(ROOT, file));
    expect(offending).toEqual([]);
  });

  it('links, from every Markdown file, only to files inside the repository that exist', () => {
    const broken: string[] = [];
    for (const file of all.filter((f) => f.endsWith('.md'))) {
      for (const target of relativeLinks(readFileSync(file, 'utf8'))) {
        const landing = resolve(dirname(file), target);
        const inside = landing === ROOT || landing.startsWith(ROOT + sep);
        if (!inside || !existsSync(landing)) broken.push(`${relative(ROOT, file)} → ${target}${inside ? '' : ' (outside the repository)'}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('finds a link that leaves the repository or lands nowhere (the check can fail)', () => {
    const links = relativeLinks('See [arch](../../elsewhere/ARCHITECTURE.md), [ok](docs/guide.md#top), [web](https://example.com) and ![pic](guide/a%20b.jpg).');
    expect(links).toEqual(['../../elsewhere/ARCHITECTURE.md', 'docs/guide.md', 'guide/a b.jpg']);
  });
});
