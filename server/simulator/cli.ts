// Runs the simulator on its own: `tsx server/simulator/cli.ts --port 4010 [--host 0.0.0.0]`.
// Fleet and faults come from the SIM_* environment variables (see options.ts).
import { parseArgs } from 'node:util';
import { ConfigError } from '../config';
import { simulatorOptionsFromEnv, startSimulator } from './index';

const USAGE = 'Usage: tsx server/simulator/cli.ts [--port N] [--host ADDRESS] [--prefix /api]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.SIM_PORT ?? '4010' },
      host: { type: 'string', default: process.env.SIM_HOST ?? '127.0.0.1' },
      prefix: { type: 'string', default: '/api' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError(`--port must be a port number (0-65535), got "${values.port}"`);

  const options = simulatorOptionsFromEnv(process.env);
  const sim = await startSimulator({ ...options, port, host: values.host, prefix: values.prefix });
  // The summary walks the whole fleet (usage included): worth it for demo sizes only.
  const stats = sim.fleet.size <= 20_000 ? sim.fleet.stats() : null;
  const faults = sim.simulator.faults();
  console.log(
    [
      'Starlink Public API v2 simulator',
      `  base URL       ${sim.baseUrl}`,
      `  token URL      ${sim.tokenUrl}`,
      `  client id      ${sim.credentials.clientId}`,
      `  client secret  ${sim.credentials.clientSecret}`,
      `  account        ${sim.fleet.accountNumber} (seed "${sim.fleet.seed}")`,
      stats
        ? `  fleet          ${stats.terminals} terminals, ${stats.serviceLines} service lines (${stats.inactiveServiceLines} inactive), ${stats.unattachedTerminals} terminals without a line`
        : `  fleet          ${sim.fleet.size} terminals`,
      `  example line   ${sim.fleet.knownServiceLineNumber}`,
      `  rate limit     ${options.rateLimitPerMinute ? `${options.rateLimitPerMinute} requests/minute` : 'off'}`,
      `  faults         latency ${faults.latencyMs} ms, spikes ${faults.spikeRate} × ${faults.spikeMs} ms, 429 ${faults.rate429}, ` +
        `429 bursts ${faults.burst429Rate} × ${faults.burst429Length}, 5xx ${faults.rate5xx}, drop ${faults.dropRate}, shuffle pages ${faults.shufflePages ? 'on' : 'off'}`,
    ].join('\n'),
  );

  const stop = () => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
