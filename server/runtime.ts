// The Node.js the portal runs on: 22.12 or newer (pg-boss 12 and the HTTP libraries need it), and
// Node 24 LTS by default, which `npm ci` installs into node_modules for every npm script. Imported
// first by the server entry, so that a start by hand with an older `node` says so instead of
// failing somewhere inside a library.
export const MINIMUM_NODE = { major: 22, minor: 12 } as const;

/** Why `version` (process.version) cannot run the portal, or null when it can. */
export function unsupportedNode(version: string): string | null {
  const match = /^v?(\d+)\.(\d+)\./.exec(version);
  const major = Number(match?.[1] ?? 0);
  const minor = Number(match?.[2] ?? 0);
  if (major > MINIMUM_NODE.major || (major === MINIMUM_NODE.major && minor >= MINIMUM_NODE.minor)) return null;
  return (
    `The portal needs Node.js ${MINIMUM_NODE.major}.${MINIMUM_NODE.minor} or newer; this is ${version}. ` +
    'Start it through npm (npm start), which runs the Node.js 24 that npm ci installed into node_modules, ' +
    'or install Node.js 24 LTS.'
  );
}

const problem = unsupportedNode(process.version);
if (problem) {
  console.error(problem);
  process.exit(1);
}
