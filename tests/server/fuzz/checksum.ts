// A fingerprint of every table in the `public` schema, in one SQL round trip, so a fuzz case can
// prove that a refused request wrote nothing. (It installs one function, public.fuzz_fingerprint,
// in the database it watches: a test database of its own.)
//
// A table's part is its row count and the sum of a 64-bit hash of each row's text: order does not
// matter, so there is no sort, one scan per table. Two refinements keep it cheap as the fuzz
// writes (measured in /tmp/briefs/fuzz-report.md):
//   - audit_log only grows, and is the one table that grows fast, so rows up to a watermark
//     (`rebase`, once per route) count by row count and the sum of their xmin (any update or
//     delete changes one of the two), and only the rows after it are hashed;
//   - most cases write nothing, so `refresh` first reads the transaction-id horizon alone and
//     takes the fingerprint again only when some transaction was assigned an id since.
//
// A few writes on refusal are by design, and each gets its own named part so a route can be
// allowed exactly those and nothing else (see ALLOWED_ON_REFUSAL in harness.ts):
//   <table>.lockout     users/customers: failed_login_attempts and locked_until, which a wrong
//                       password or code counts up (the rest of the row is in <table>)
//   audit_log:<action>  new audit rows of failed attempts (sign-ins, code and password checks),
//                       which a security log must keep; every other new row is in audit_log
import { sql } from 'drizzle-orm';
import type { Db } from '../../../server/db/client';

/** Audit actions that record a refused attempt; each is a separate part of the fingerprint. */
export const FAILED_ATTEMPT_ACTIONS = [
  'auth.login_failed',
  'customer.login_failed',
  'user.password_change_failed',
  'customer.password_change_failed',
  'auth.mfa_enable_failed',
  'auth.mfa_disable_failed',
  'customer.mfa_enable_failed',
  'customer.mfa_disable_failed',
] as const;

export type FailedAttemptAction = (typeof FAILED_ATTEMPT_ACTIONS)[number];

/** Tables whose sign-in counters are split from the rest of the row. */
const LOCKOUT_TABLES = ['users', 'customers'];
const LOCKOUT_COLUMNS = ['failed_login_attempts', 'locked_until'];
const AUDIT = 'audit_log';

export type Fingerprint = Readonly<Record<string, string>>;

export interface Snapshot {
  /** The first transaction id not yet assigned when the fingerprint was taken. */
  horizon: string;
  parts: Fingerprint;
}

export interface Checksum {
  /** Every part, and the horizon, in one statement (so one snapshot). */
  take(): Promise<Snapshot>;
  /**
   * Only the transaction-id horizon: a write of any kind assigns a transaction id, so an
   * unchanged horizon proves nothing was written and the fingerprint still holds. On a shared
   * PostgreSQL server other databases move it too; that costs a full take(), never a wrong answer.
   */
  horizon(): Promise<string>;
  /** `previous` itself if the horizon has not moved, else a new snapshot. */
  refresh(previous: Snapshot): Promise<Snapshot>;
  /** Moves the audit_log watermark to its newest row; snapshots taken before are not comparable. */
  rebase(): Promise<void>;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** `count:sum` of a per-row hash expression, as text ('0:0' for no rows). */
const digest = (hash: string) => `count(*)::text || ':' || coalesce(sum(${hash}), 0)::text`;
const rowHash = (text: string) => `hashtextextended(${text}, 0)::numeric`;

const rowsOf = (db: Db, query: string) => db.execute(sql.raw(query)) as unknown as Promise<{ rows: Record<string, unknown>[] }>;

const HORIZON = 'pg_snapshot_xmax(pg_current_snapshot())::text';

export async function createChecksum(db: Db): Promise<Checksum> {
  const listed = await rowsOf(db, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const tables = listed.rows.map((r) => String(r.tablename));
  let watermark = '0';

  /** One expression per table: its parts as `name=digest` pairs joined by `;`. */
  const expressionOf = (table: string): string => {
    const from = `FROM public.${quote(table)} t`;
    const pair = (name: string, value: string) => `${literal(`${name}=`)} || ${value}`;
    if (LOCKOUT_TABLES.includes(table)) {
      const rest = rowHash(`(to_jsonb(t) - ${LOCKOUT_COLUMNS.map(literal).join(' - ')})::text`);
      const lockout = rowHash(`row(t.id, ${LOCKOUT_COLUMNS.map((c) => `t.${quote(c)}`).join(', ')})::text`);
      return `(SELECT ${pair(table, digest(rest))} || ';' || ${pair(`${table}.lockout`, digest(lockout))} ${from})`;
    }
    if (table === AUDIT) {
      const part = `CASE WHEN t.action IN (${FAILED_ATTEMPT_ACTIONS.map(literal).join(', ')}) THEN ${literal(`${AUDIT}:`)} || t.action ELSE ${literal(AUDIT)} END`;
      const old = `(SELECT ${pair(`${AUDIT}.before-watermark`, digest('t.xmin::text::numeric'))} ${from} WHERE t.id <= watermark)`;
      const fresh = `(SELECT string_agg(part || '=' || d, ';') FROM (SELECT ${part} AS part, ${digest(rowHash('t::text'))} AS d ${from} WHERE t.id > watermark GROUP BY 1) g)`;
      return `${old} || coalesce(';' || ${fresh}, '')`;
    }
    return `(SELECT ${pair(table, digest(rowHash('t::text')))} ${from})`;
  };

  // A PL/pgSQL function keeps its query plan, which is most of the cost of a query over every
  // table (about 7 ms planned afresh on PGlite, 1.3 ms cached). It returns the horizon and one line
  // per table, all from one statement, so from one snapshot. The fuzz world's database is its own.
  await rowsOf(
    db,
    `CREATE OR REPLACE FUNCTION public.fuzz_fingerprint(watermark bigint) RETURNS text LANGUAGE plpgsql AS $fingerprint$
     BEGIN
       RETURN concat_ws(E'\n', ${HORIZON}, ${tables.map(expressionOf).join(',\n')});
     END $fingerprint$`,
  );

  const take = async (): Promise<Snapshot> => {
    const text = String((await rowsOf(db, `SELECT public.fuzz_fingerprint(${watermark}) AS fingerprint`)).rows[0]!.fingerprint);
    const [horizonLine, ...lines] = text.split('\n');
    const parts: Record<string, string> = {};
    for (const entry of lines.flatMap((line) => line.split(';'))) {
      const at = entry.indexOf('=');
      parts[entry.slice(0, at)] = entry.slice(at + 1);
    }
    return { horizon: horizonLine!, parts };
  };
  const horizon = async () => String((await rowsOf(db, `SELECT ${HORIZON} AS horizon`)).rows[0]!.horizon);
  return {
    take,
    horizon,
    async refresh(previous) {
      return (await horizon()) === previous.horizon ? previous : take();
    },
    async rebase() {
      const { rows } = await rowsOf(db, `SELECT coalesce(max(id), 0)::text AS id FROM public.${AUDIT}`);
      watermark = String(rows[0]!.id);
    },
  };
}

/** The parts that differ (appeared, vanished or changed), leaving out those in `allowed`. */
export function changedParts(before: Snapshot, after: Snapshot, allowed: readonly string[] = []): string[] {
  if (before === after) return [];
  const names = new Set([...Object.keys(before.parts), ...Object.keys(after.parts)]);
  return [...names].filter((part) => (before.parts[part] ?? '0:0') !== (after.parts[part] ?? '0:0') && !allowed.includes(part));
}
