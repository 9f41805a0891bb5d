// The one place provider failures become our API's errors: 504 when the provider did not answer
// in time, 502 for everything else it did wrong, with a message an administrator can act on.
// Anything that is not a provider failure is returned as is (a bug stays a 500).
import { isProviderError, type ProviderError } from '../provider/errors';
import { BadGatewayError, ConflictError, GatewayTimeoutError } from '../errors';

function reason(error: ProviderError): string {
  const said = error.messages.length > 0 ? ` (${error.messages.join('; ')})` : '';
  switch (error.kind) {
    case 'auth':
      return `the provider refused the portal's credentials${said}`;
    case 'permission':
      return `the provider account lacks a permission this needs${said}`;
    case 'not-found':
      return `the provider does not know it${said}`;
    case 'validation':
      return error.messages.length > 0 ? error.messages.join('; ') : 'the provider refused the request';
    case 'rate-limit':
      return 'the provider is rate-limiting requests; try again in a minute';
    case 'unavailable':
      return 'the provider is unavailable right now';
    case 'timeout':
      return 'the provider did not answer in time';
    case 'response':
      return 'the provider sent an answer the portal cannot read';
  }
}

export function providerFailure(error: unknown, summary: string): unknown {
  if (!isProviderError(error)) return error;
  const message = `${summary}: ${reason(error)}`;
  return error.kind === 'timeout' ? new GatewayTimeoutError(message, { cause: error }) : new BadGatewayError(message, { cause: error });
}

/**
 * For a change the portal asked the provider to make: its refusal (or its "no such thing": ours is
 * out of step with it, a sync catches up) is a 409 in the provider's own words, not a fault of the
 * provider's; everything else is `providerFailure`.
 */
export function providerRefusal(error: unknown, summary: string): unknown {
  if (isProviderError(error) && (error.kind === 'validation' || error.kind === 'not-found')) {
    return new ConflictError(error.kind === 'validation' && error.messages.length > 0 ? error.messages.join('; ') : `${summary}: ${reason(error)}`, { cause: error });
  }
  return providerFailure(error, summary);
}
