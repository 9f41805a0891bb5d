// What a raw `db.execute(sql…)` answers differs by driver in its type, not in its shape: both
// PGlite and node-postgres give `rows` and an affected count (affectedRows or rowCount).

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export function affected(result: unknown): number {
  const r = result as { affectedRows?: number; rowCount?: number | null };
  return r.affectedRows ?? r.rowCount ?? 0;
}
