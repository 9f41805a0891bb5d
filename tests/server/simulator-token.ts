// Asks the simulator's token endpoint as the provider client does: client credentials, form-encoded.
import type { RunningSimulator } from '../../server/simulator';

type TokenEndpoint = Pick<RunningSimulator, 'tokenUrl' | 'credentials'>;

/** The raw answer, for tests about the token endpoint itself. */
export function requestSimulatorToken(sim: TokenEndpoint): Promise<Response> {
  return fetch(sim.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: sim.credentials.clientId, client_secret: sim.credentials.clientSecret, grant_type: 'client_credentials' }),
  });
}

/** A fresh access token. */
export async function simulatorToken(sim: TokenEndpoint): Promise<string> {
  const response = await requestSimulatorToken(sim);
  if (response.status !== 200) throw new Error(`The simulator refused a token: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
