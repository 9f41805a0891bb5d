// One reading of an API call for the machines: an expected failure's message as data, and "no
// answer" (a network failure) as the network message. Anything else is a bug and is rethrown.
import { NetworkError } from '../api';
import { NETWORK_ERROR_MESSAGE } from '../domain/login';
import type { LoadOutcome } from '../machines/resource';

export async function outcome<T>(call: () => Promise<{ ok: true; data: T } | { ok: false; message: string }>): Promise<LoadOutcome<T>> {
  try {
    const result = await call();
    return result.ok ? { ok: true, data: result.data } : { ok: false, message: result.message };
  } catch (error) {
    if (error instanceof NetworkError) return { ok: false, message: NETWORK_ERROR_MESSAGE };
    throw error;
  }
}
