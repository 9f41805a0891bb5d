// Every write accounted for: once the server is closed, the database is read back and held to the
// ledger of acknowledged writes.
// - Customers: exactly the acknowledged ones carry the run's email prefix, each with one
//   customer.created audit row.
// - Updates: each updated customer holds the address of its last acknowledged update, with one
//   customer.updated audit row per acknowledged update.
// - Lines: every line of the pool is held by the customer the acknowledged assigns and unassigns
//   leave it with (or free), and its terminal has exactly as many terminal.assigned and
//   terminal.unassigned audit rows as acknowledged ones.
// A write is verified when everything it touched passes; anything the ledger cannot explain (a row
// nobody acknowledged, a line in the wrong hands) is listed as a problem.
import { sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import type { Seeded } from './seed';
import { WRITES, type Ledger, type WriteOperation } from './workload';

export interface WriteCheck {
  acknowledged: number;
  verified: number;
  byKind: Record<WriteOperation, { acknowledged: number; verified: number }>;
  /** How many things the ledger does not explain, and the first few in words. */
  problems: number;
  problemSamples: string[];
}

const MAX_SAMPLES = 10;

type Rows<T> = { rows: T[] };

export async function verifyWrites(database: Database, ledger: Ledger, seeded: Seeded): Promise<WriteCheck> {
  const { db } = database;
  const problems: string[] = [];
  const problem = (text: string) => problems.push(text);

  const customerRows = (
    (await db.execute(sql`SELECT id::text AS id, email FROM customers WHERE email LIKE ${`${seeded.createdEmailPrefix}%`}`)) as unknown as Rows<{
      id: string;
      email: string;
    }>
  ).rows;
  const updatedIds = [...ledger.updates.keys()];
  const addressRows = (
    (await db.execute(
      sql`SELECT id::text AS id, address FROM customers WHERE id = ANY(${sql.param(updatedIds)}::uuid[])`,
    )) as unknown as Rows<{ id: string; address: string | null }>
  ).rows;
  const auditRows = (
    (await db.execute(sql`
      SELECT action, target_id, count(*)::int AS n FROM audit_log
      WHERE action IN ('customer.created', 'customer.updated', 'terminal.assigned', 'terminal.unassigned')
      GROUP BY action, target_id`)) as unknown as Rows<{ action: string; target_id: string; n: number }>
  ).rows;
  const terminalRows = (
    (await db.execute(sql`
      SELECT service_line_number AS line, assigned_customer_id::text AS customer FROM terminals
      WHERE service_line_number = ANY(${sql.param(seeded.lines)}::text[])`)) as unknown as Rows<{ line: string; customer: string | null }>
  ).rows;

  const audits = new Map(auditRows.map((r) => [`${r.action} ${r.target_id}`, Number(r.n)]));
  const audited = (action: string, target: string) => audits.get(`${action} ${target}`) ?? 0;

  // Customers created.
  const stored = new Map(customerRows.map((r) => [r.id, r.email]));
  const goodCreated = new Set<string>();
  for (const [id, email] of ledger.created) {
    if (stored.get(id) !== email) problem(`created customer ${email} (${id}) is not stored`);
    else if (audited('customer.created', id) !== 1) problem(`created customer ${email} has ${audited('customer.created', id)} customer.created audit rows`);
    else goodCreated.add(id);
  }
  for (const [id, email] of stored) if (!ledger.created.has(id)) problem(`customer ${email} (${id}) was created but never acknowledged`);

  // Updates.
  const addresses = new Map(addressRows.map((r) => [r.id, r.address]));
  const goodUpdated = new Set<string>();
  for (const [id, { count, last }] of ledger.updates) {
    if (addresses.get(id) !== last) problem(`customer ${id} holds address ${JSON.stringify(addresses.get(id))}, last acknowledged ${JSON.stringify(last)}`);
    else if (audited('customer.updated', id) !== count) problem(`customer ${id}: ${count} updates acknowledged, ${audited('customer.updated', id)} audited`);
    else goodUpdated.add(id);
  }

  // Lines.
  const owners = new Map(terminalRows.map((r) => [r.line, r.customer]));
  const goodLines = new Set<string>();
  for (const line of seeded.lines) {
    const terminal = seeded.terminalOfLine.get(line)!;
    const expected = ledger.holders.get(line) ?? null;
    const actual = owners.has(line) ? owners.get(line)! : 'missing';
    const assigned = [ledger.assigned.get(line) ?? 0, audited('terminal.assigned', terminal)];
    const unassigned = [ledger.unassigned.get(line) ?? 0, audited('terminal.unassigned', terminal)];
    if (actual !== expected) problem(`line ${line} is held by ${actual ?? 'nobody'}, acknowledged ${expected ?? 'free'}`);
    else if (assigned[0] !== assigned[1]) problem(`line ${line}: ${assigned[0]} assignments acknowledged, ${assigned[1]} audited`);
    else if (unassigned[0] !== unassigned[1]) problem(`line ${line}: ${unassigned[0]} unassignments acknowledged, ${unassigned[1]} audited`);
    else goodLines.add(line);
  }

  const byKind = Object.fromEntries(Object.keys(WRITES).map((k) => [k, { acknowledged: 0, verified: 0 }])) as WriteCheck['byKind'];
  for (const write of ledger.writes) {
    const ok =
      'customerId' in write
        ? (write.kind === 'customers.create' ? goodCreated : goodUpdated).has(write.customerId)
        : write.lines.every((line) => goodLines.has(line));
    byKind[write.kind].acknowledged++;
    if (ok) byKind[write.kind].verified++;
  }
  const acknowledged = ledger.writes.length;
  const verified = Object.values(byKind).reduce((sum, k) => sum + k.verified, 0);
  return { acknowledged, verified, byKind, problems: problems.length, problemSamples: problems.slice(0, MAX_SAMPLES) };
}
