// `npm run check:engines`: a clean install of the locked tree, planned by npm (`npm ci --dry-run`,
// nothing written) on the project's Node, prints no engine warning and no error. Run through npm,
// `npm` here runs on the Node of node_modules/.bin (Node 24), as every npm script does.
import { spawnSync } from 'node:child_process';

const result = spawnSync('npm', ['ci', '--dry-run', '--no-audit', '--no-fund'], { encoding: 'utf8' });
const printed = `${result.stdout}${result.stderr}`;
const problems = printed.split('\n').filter((line) => /EBADENGINE|EBADDEVENGINES|npm error/.test(line));
if (result.status !== 0 || problems.length > 0) {
  console.error(`npm ci on Node ${process.version} would not be clean:\n${problems.join('\n') || printed}`);
  process.exit(1);
}
console.log(`npm ci on Node ${process.version}: no engine warnings.`);
