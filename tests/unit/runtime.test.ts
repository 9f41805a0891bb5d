// The Node.js versions the server entry accepts: 22.12 and newer, with the reason for anything older.
import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../../server/runtime';

describe('unsupportedNode', () => {
  it('accepts Node 22.12 and newer, the LTS lines the portal runs on', () => {
    for (const version of ['v22.12.0', 'v22.23.3', 'v24.21.0', 'v26.10.0']) expect(unsupportedNode(version), version).toBeNull();
  });

  it('refuses anything older and says what to do', () => {
    expect(unsupportedNode('v20.20.2')).toBe(
      'The portal needs Node.js 22.12 or newer; this is v20.20.2. Start it through npm (npm start), which runs the Node.js 24 that npm ci installed into node_modules, or install Node.js 24 LTS.',
    );
    for (const version of ['v22.11.0', 'v18.20.8', 'not a version']) expect(unsupportedNode(version), version).toMatch(/^The portal needs Node\.js 22\.12/);
  });

  it('is what this test runs on', () => {
    expect(unsupportedNode(process.version)).toBeNull();
  });
});
