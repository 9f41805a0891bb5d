// How the repositories pass values into raw SQL and read them back: the same text on both
// drivers (PGlite and node-postgres answer bigint, date and timestamptz columns differently).
import { sql, type SQL } from 'drizzle-orm';

export const text = (value: string | number | boolean | null | undefined) => (value === null || value === undefined ? null : String(value));
/** One column of rows as an array parameter, for `unnest(...)`. */
export const column = <T>(rows: readonly T[], pick: (row: T) => string | number | boolean | null | undefined) => sql.param(rows.map((row) => text(pick(row))));
/** An instant as ISO 8601 in UTC, the same text on both drivers. */
export const isoText = (expression: SQL) => sql`to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
export const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
export const int = (value: unknown): number => Number(value ?? 0);
export const intOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
/** A boolean column: PGlite and node-postgres answer true, a raw text result 't'. */
export const bool = (value: unknown): boolean => value === true || value === 't';
export const jsonValue = <T>(value: unknown): T => (typeof value === 'string' ? (JSON.parse(value) as T) : (value as T));

/** What is paid on statement `s` (the alias the query gives billing_statements): its allocations' sum. */
export const PAID_ON_STATEMENT = sql`coalesce((SELECT sum(a.amount_minor) FROM billing_allocations a WHERE a.statement_id = s.id), 0)`;
