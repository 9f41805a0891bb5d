// PostgreSQL's unique violation (23505) on one named index, however the driver wraps it: PGlite
// and node-postgres put `code` and `constraint` on the error or on its `cause`, and some wrappers
// keep only the message.
const UNIQUE_VIOLATION = '23505';

export function isUniqueViolation(error: unknown, index: string): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === UNIQUE_VIOLATION) return constraint === index || (typeof message === 'string' && message.includes(index));
  }
  return false;
}
