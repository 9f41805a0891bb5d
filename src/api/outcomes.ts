// How the page actors read an API call for their machines: an expected failure's message (and, for
// a save, its status and the fields at fault) as data, and "no answer" (a network failure) as the
// network's message, as every page words it. Anything else is a bug and is rethrown.
import { NETWORK_ERROR_MESSAGE } from '../domain/login';
import type { LoadOutcome } from '../machines/resource';
import type { SaveOutcome } from '../machines/user-form';
import { NetworkError, type ApiResult } from './client';

export async function outcome<T>(call: () => Promise<{ ok: true; data: T } | { ok: false; message: string }>): Promise<LoadOutcome<T>> {
  try {
    const result = await call();
    return result.ok ? { ok: true, data: result.data } : { ok: false, message: result.message };
  } catch (error) {
    if (error instanceof NetworkError) return { ok: false, message: NETWORK_ERROR_MESSAGE };
    throw error;
  }
}

/** A save's outcome: a refusal keeps its status and the fields at fault. */
export async function settle<T>(call: () => Promise<ApiResult<T>>): Promise<SaveOutcome<T>> {
  try {
    const result = await call();
    if (result.ok) return { ok: true, data: result.data };
    return { ok: false, message: result.message, status: result.status, ...(result.errors ? { errors: result.errors } : {}) };
  } catch (error) {
    if (error instanceof NetworkError) return { ok: false, message: NETWORK_ERROR_MESSAGE };
    throw error;
  }
}
