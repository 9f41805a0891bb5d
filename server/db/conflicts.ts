// PostgreSQL ends a transaction with a deadlock (40P01) or a serialization failure (40001) so that
// another can go on. Nothing of it was written, so the work, run again from its start, is safe.
// Only a server with several connections does this; the embedded database runs one transaction
// at a time.
import type { Db } from './client';

const RETRYABLE = new Set(['40P01', '40001']);
export const TRANSACTION_ATTEMPTS = 5;

export function isRetryableConflict(error: unknown): boolean {
  // Drizzle wraps the driver's error; the SQLSTATE is on the cause.
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && RETRYABLE.has(code)) return true;
  }
  return false;
}

export interface RetryOptions {
  /** Before each new attempt: undo what the failed attempt changed outside the database. */
  beforeRetry?: () => void;
}

/** `work` in one transaction, run again (up to TRANSACTION_ATTEMPTS in all) after a retryable conflict. */
export async function transactionRetryingConflicts<T>(db: Db, work: (tx: Db) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction(work);
    } catch (error) {
      if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableConflict(error)) throw error;
      options.beforeRetry?.();
    }
  }
}
