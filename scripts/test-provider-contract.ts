// `npm run test:provider-contract`: the simulator, the client and the project's own provider
// contract checked against the provider's published OpenAPI document, whose path comes from
// PROVIDER_OPENAPI. The document is the provider's text and is not part of the repository, so this
// is the one command that reads a file from outside it; it fails (never skips) without one.
//
//   PROVIDER_OPENAPI=/path/to/starlink-public-api-v2.openapi.json npm run test:provider-contract
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

function fail(message: string): never {
  console.error(`test:provider-contract: ${message}`);
  console.error('Usage: PROVIDER_OPENAPI=/path/to/starlink-public-api-v2.openapi.json npm run test:provider-contract');
  process.exit(1);
}

const given = process.env.PROVIDER_OPENAPI;
if (!given) fail("PROVIDER_OPENAPI is not set: give the path of the provider's published OpenAPI document (JSON)");
const file = resolve(given);
if (!existsSync(file)) fail(`PROVIDER_OPENAPI names ${file}, which does not exist`);
let document: { openapi?: unknown; paths?: unknown; components?: { schemas?: unknown } };
try {
  document = JSON.parse(readFileSync(file, 'utf8')) as typeof document;
} catch (error) {
  fail(`${file} is not JSON (${(error as Error).message})`);
}
if (typeof document.openapi !== 'string' || typeof document.paths !== 'object' || typeof document.components?.schemas !== 'object') {
  fail(`${file} is not an OpenAPI document with paths and component schemas`);
}
console.log(`Checking against ${file} (OpenAPI ${document.openapi}, ${Object.keys(document.paths as object).length} paths)`);

const vitest = spawnSync(
  process.execPath,
  [resolve('node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.provider-contract.config.ts', ...process.argv.slice(2)],
  { stdio: 'inherit', env: { ...process.env, PROVIDER_CONTRACT_DOCUMENT: file } },
);
process.exit(vitest.status ?? 1);
