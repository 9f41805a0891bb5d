// `npm start`: build the SPA when it is missing or older than its sources, then run the server
// (API + SPA on one port, embedded database and demo data by default).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const builtIndex = join(root, 'dist/client/index.html');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function buildIsStale(): boolean {
  if (!existsSync(builtIndex)) return true;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package-lock.json'].map((p) => join(root, p)).filter(existsSync);
  const newestSource = Math.max(...sources.map(newestMtime));
  return newestSource > statSync(builtIndex).mtimeMs;
}

// `npm start` is the production entry: a NODE_ENV inherited from a test runner would otherwise
// give a development build of React and the libraries.
process.env.NODE_ENV = 'production';

if (process.env.SKIP_BUILD !== '1' && buildIsStale()) {
  console.log('Building the portal client (first start, or its sources changed)...');
  const started = Date.now();
  const { build } = await import('vite');
  await build({ root, configFile: join(root, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  console.log(`Client built in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

await import('../server/server');
