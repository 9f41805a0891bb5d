// scripts/check-bundle.ts tells a build whose first load is free of the XState inspector from one
// that ships it up front (statically imported, or preloaded by index.html), and refuses to pass
// when it cannot find the inspector at all. Small hand-made builds in Rolldown's minified shape
// stand in for `vite build`, which CI runs before the script itself.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBundle, INSPECTOR_MARKERS } from '../../scripts/check-bundle';

const scratch = mkdtempSync(join(tmpdir(), 'bundle-check-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const INSPECTOR_CODE = `var e=\`${INSPECTOR_MARKERS[0]}\`,t="${INSPECTOR_MARKERS[1]}";export{e as createBrowserInspector,t as n};`;

let builds = 0;
function build(files: Record<string, string>, preload: string[] = []): string {
  const dir = join(scratch, String((builds += 1)));
  mkdirSync(join(dir, 'assets'), { recursive: true });
  const links = preload.map((file) => `<link rel="modulepreload" crossorigin href="/assets/${file}">`).join('\n');
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><script type="module" crossorigin src="/assets/index.js"></script>\n${links}</head><body></body></html>`);
  for (const [name, code] of Object.entries(files)) writeFileSync(join(dir, 'assets', name), code);
  return dir;
}

describe('the bundle check', () => {
  it('passes a build whose inspector sits in a chunk only import() reaches, and names it', () => {
    const report = checkBundle(
      build({
        'index.js': 'import{n as e}from"./runtime.js";import"./app.js";const r=()=>e(()=>import(`./inspect-chunk.js`));',
        'runtime.js': 'export{a as n};',
        'app.js': 'import{n as e}from"./runtime.js";',
        'inspect-chunk.js': INSPECTOR_CODE,
        'other-page.js': 'export{};',
      }),
    );
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.entry.map((e) => e.file)).toEqual(['assets/index.js']);
    expect(report.initialLoad.files).toBe(3);
    expect(report.inspector).toEqual([expect.objectContaining({ file: 'assets/inspect-chunk.js', importedBy: ['assets/index.js'] })]);
    expect(report.lazyChunks).toBe(2);
  });

  it('fails when a chunk the entry imports statically, however deep, holds the inspector', () => {
    const report = checkBundle(
      build({
        'index.js': 'import{a}from"./app.js";',
        'app.js': 'import{createBrowserInspector as c}from"./inspect-chunk.js";export{c as a};',
        'inspect-chunk.js': INSPECTOR_CODE,
      }),
    );
    expect(report.ok).toBe(false);
    expect(report.problems).toContain(`the inspector is in the initial load: assets/inspect-chunk.js contains "${INSPECTOR_MARKERS[0]}"`);
  });

  it('fails when index.html preloads the inspector chunk', () => {
    const report = checkBundle(build({ 'index.js': 'const r=()=>import(`./inspect-chunk.js`);', 'inspect-chunk.js': INSPECTOR_CODE }, ['inspect-chunk.js']));
    expect(report.ok).toBe(false);
    expect(report.problems.some((p) => p.startsWith('the inspector is in the initial load: assets/inspect-chunk.js'))).toBe(true);
  });

  it('fails when it cannot find the inspector anywhere, rather than passing without looking', () => {
    const report = checkBundle(build({ 'index.js': 'const r=()=>import(`./page.js`);', 'page.js': 'export{};' }));
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(INSPECTOR_MARKERS.map((m) => expect.stringContaining(`no chunk contains "${m}"`)));
  });

  it('fails when the inspector chunk is not loaded by import()', () => {
    const report = checkBundle(build({ 'index.js': 'export{};', 'inspect-chunk.js': INSPECTOR_CODE }));
    expect(report.problems).toEqual(['assets/inspect-chunk.js holds the inspector but no chunk imports it with import()']);
  });
});
