// CI's closing summary: every step's wall time (the .tsv that .ci/run writes: name, seconds, exit
// status; steps run side by side also appear together), then Vitest's JSON reports added up into one
// closing line: "Tests: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
let failedStep = false;
for (const file of files.filter((f) => f.endsWith('.tsv'))) {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t'));
  const width = Math.max(4, ...rows.map(([name]) => name.length));
  console.log(`${'step'.padEnd(width)}  ${'seconds'.padStart(7)}  status`);
  for (const [name, seconds, status] of rows) {
    console.log(`${name.padEnd(width)}  ${Number(seconds).toFixed(1).padStart(7)}  ${status === '0' ? 'ok' : `failed (${status})`}`);
    if (status !== '0') failedStep = true;
  }
  console.log('');
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files.filter((f) => f.endsWith('.json'))) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}
if (files.some((f) => f.endsWith('.json'))) console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedStep ? 1 : 0);
