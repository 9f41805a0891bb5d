// Checks a built SPA (dist/client, after `vite build`) for the XState inspector: it must not be in
// anything the first page load fetches (index.html's entry scripts, its modulepreloads and all they
// import statically), and it must be in a chunk that is only imported dynamically (src/inspect.ts
// loads it on demand). The inspector is recognised by strings @statelyai/inspect embeds; the check
// also demands that they are found somewhere, so a renamed string cannot make it pass vacuously.
//
//   tsx scripts/check-bundle.ts [--dir dist/client]
//
// Prints a JSON summary (entry and initial-load sizes, the inspector chunk) and exits 1 on a problem.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** Strings from @statelyai/inspect's code that survive minification: its window URL and its handshake event. */
export const INSPECTOR_MARKERS = ['https://stately.ai/inspect', '@statelyai.connected'];

export interface ChunkSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface BundleReport {
  ok: boolean;
  problems: string[];
  /** The module scripts index.html runs. */
  entry: ChunkSize[];
  /** Everything the first load fetches: entries, modulepreloads and their static imports. */
  initialLoad: { files: number; bytes: number; gzipBytes: number };
  inspector: (ChunkSize & { importedBy: string[] })[];
  lazyChunks: number;
}

// `import{a as b}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`: never `import(` (dynamic).
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$\s{},*]+?\s*from\s*)?(["'`])((?:\.{1,2}\/|\/)[^"'`\s]+?\.js)\1/g;
const DYNAMIC_IMPORT = /\bimport\(\s*(["'`])((?:\.{1,2}\/|\/)[^"'`\s]+?\.js)\1\s*\)/g;

function listJs(dir: string, sub = ''): string[] {
  return readdirSync(join(dir, sub), { withFileTypes: true }).flatMap((entry) => {
    const path = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return listJs(dir, path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** A reference from `from` (a file relative to dir, or '' for index.html) to a dir-relative path. */
function resolveRef(from: string, ref: string): string {
  const path = ref.startsWith('/') ? ref.slice(1) : posix.join(posix.dirname(from), ref);
  return posix.normalize(path);
}

export function checkBundle(dir: string): BundleReport {
  const problems: string[] = [];
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
  const tags = html.match(/<(?:script|link)\b[^>]*>/g) ?? [];
  const entries = tags.filter((t) => t.startsWith('<script') && /type="module"/.test(t)).map((t) => attr(t, 'src')).filter((s): s is string => Boolean(s));
  const preloads = tags.filter((t) => t.startsWith('<link') && /rel="modulepreload"/.test(t)).map((t) => attr(t, 'href')).filter((s): s is string => Boolean(s));
  if (entries.length === 0) problems.push('index.html runs no module script');

  const files = listJs(dir).sort();
  const text = new Map(files.map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
  const size = (file: string): ChunkSize => {
    const bytes = Buffer.from(text.get(file) ?? '');
    return { file, bytes: bytes.length, gzipBytes: gzipSync(bytes).length };
  };

  // The first load: a breadth-first walk over static imports from what index.html names.
  const initial = new Set<string>();
  const queue = [...entries, ...preloads].map((ref) => resolveRef('', ref));
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (initial.has(file)) continue;
    const code = text.get(file);
    if (code === undefined) {
      problems.push(`${file} is loaded at start but is not in the build`);
      continue;
    }
    initial.add(file);
    for (const match of code.matchAll(STATIC_IMPORT)) queue.push(resolveRef(file, match[2]!));
  }

  for (const file of initial) {
    for (const marker of INSPECTOR_MARKERS) {
      if (text.get(file)!.includes(marker)) problems.push(`the inspector is in the initial load: ${file} contains "${marker}"`);
    }
  }

  const lazy = files.filter((file) => !initial.has(file));
  const inspectorFiles = lazy.filter((file) => INSPECTOR_MARKERS.some((marker) => text.get(file)!.includes(marker)));
  for (const marker of INSPECTOR_MARKERS) {
    if (!files.some((file) => text.get(file)!.includes(marker))) {
      problems.push(`no chunk contains "${marker}": the check cannot recognise the inspector any more (see INSPECTOR_MARKERS)`);
    }
  }
  const inspector = inspectorFiles.map((file) => {
    const importedBy = files.filter((other) => [...text.get(other)!.matchAll(DYNAMIC_IMPORT)].some((m) => resolveRef(other, m[2]!) === file));
    if (importedBy.length === 0) problems.push(`${file} holds the inspector but no chunk imports it with import()`);
    return { ...size(file), importedBy };
  });

  const initialSizes = [...initial].map(size);
  return {
    ok: problems.length === 0,
    problems,
    entry: entries.map((ref) => size(resolveRef('', ref))),
    initialLoad: {
      files: initial.size,
      bytes: initialSizes.reduce((sum, s) => sum + s.bytes, 0),
      gzipBytes: initialSizes.reduce((sum, s) => sum + s.gzipBytes, 0),
    },
    inspector,
    lazyChunks: lazy.length,
  };
}

function main() {
  const at = process.argv.indexOf('--dir');
  const dir = resolve(at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : join(ROOT, 'dist/client'));
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`${relative(ROOT, dir) || dir}/index.html is missing: run npm run build first`);
    process.exitCode = 1;
    return;
  }
  const report = checkBundle(dir);
  console.log(JSON.stringify({ dir: relative(ROOT, dir) || '.', ...report }, null, 2));
  if (!report.ok) {
    for (const problem of report.problems) console.error(`bundle check: ${problem}`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

