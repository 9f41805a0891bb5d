// What the load runs against, written straight into the database as the other benches do (no
// provider, no sync): a pool of free service lines, one live terminal on each, with daily usage
// and monthly cycles; background customers for the search to find; one customer per connection
// (the only customers that connection writes to, so "the last acknowledged value" of each is
// well defined); and a few administrators whose tokens the connections share.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../server/auth/passwords';
import type { Database } from '../../server/db/client';
import { createRepositories } from '../../server/db/repositories';
import type { BulkCustomerRow } from '../../server/db/repositories/customers';
import { dayOf } from '../../server/services/terminals';
import { insertTerminalsBulk, insertUsageHistory, type BulkTerminal } from '../../tests/fixtures/terminals';

/** Names the background customers are built from; the search terms come from the same lists. */
export const FIRST_NAMES = ['Ana', 'Bruno', 'Carla', 'Diego', 'Elena', 'Felipe', 'Hugo', 'Isabel', 'Karina', 'Lucas', 'Marta', 'Olivia'] as const;
export const LAST_NAMES = ['Lima', 'Okafor', 'Schmidt', 'Nakamura', 'Rossi', 'Haddad', 'Mensah', 'Petrov', 'Quispe', 'Costa', 'Tanaka', 'Zhou'] as const;

export interface SeedOptions {
  lines: number;
  backgroundCustomers: number;
  /** One owned customer each. */
  connections: number;
  admins: number;
  /** Days of daily usage up to today on every line. */
  usageDays: number;
  /** Marks this run's rows (emails), so verification counts only what the load wrote. */
  runId: string;
}

export interface Seeded {
  /** Service line number → the user terminal id on it (one terminal a line). */
  terminalOfLine: Map<string, string>;
  lines: string[];
  /** Index = connection. */
  ownedCustomers: string[];
  admins: { email: string; password: string }[];
  /** Every email the load's POST /customers uses starts with it. */
  createdEmailPrefix: string;
}

const lineNumber = (i: number) => `AST-${700_000 + i}-${String(i).padStart(5, '0')}-${String(i % 100).padStart(2, '0')}`;

function terminal(i: number): BulkTerminal {
  const n = String(i).padStart(6, '0');
  return {
    userTerminalId: `ut-load-${n}`,
    kitSerialNumber: `KITL${n}`,
    dishSerialNumber: `DSHL${n}`,
    serviceLineNumber: lineNumber(i),
    active: true,
    condition: i % 7 === 0 ? 'warning' : 'active',
    isPriority: i % 3 === 0,
    assignedCustomerId: null,
    syncStatus: 'synced',
    lastSyncedAt: new Date(),
    plan: i % 2 === 0 ? 'Priority 50 GB' : 'Priority 1 TB',
    terminalType: 'Standard',
    removed: false,
  };
}

export async function seedLoad(database: Database, options: SeedOptions): Promise<Seeded> {
  const { db } = database;
  const repos = createRepositories(db);
  const now = new Date();

  const terminals = Array.from({ length: options.lines }, (_, i) => terminal(i));
  for (let i = 0; i < terminals.length; i += 10_000) await insertTerminalsBulk(db, terminals.slice(i, i + 10_000));
  await db.execute(sql`
    INSERT INTO service_lines (service_line_number, account_id, account_number, active, synced_at)
    SELECT service_line_number, account_id, account_number, active, now() FROM terminals WHERE service_line_number IS NOT NULL`);
  await insertUsageHistory(db, dayOf(now), options.usageDays);

  const background: BulkCustomerRow[] = Array.from({ length: options.backgroundCustomers }, (_, i) => {
    const first = FIRST_NAMES[i % FIRST_NAMES.length]!;
    const last = LAST_NAMES[Math.floor(i / FIRST_NAMES.length) % LAST_NAMES.length]!;
    return {
      email: `${first}.${last}.${i}@load-background.example`.toLowerCase(),
      name: `${first} ${last}`,
      company: `${last} Holdings`,
      isActive: i % 5 !== 0,
      blockedEnabled: false,
      blockedReason: null,
      mfaEnabled: false,
      accountExpiresAt: null,
      createdAt: new Date(now.getTime() - i * 60_000),
    };
  });
  const owned: BulkCustomerRow[] = Array.from({ length: options.connections }, (_, i) => ({
    email: `load-owner-${String(i).padStart(4, '0')}@load-${options.runId}.example`,
    name: `Load Owner ${i}`,
    company: 'Load Holdings',
    isActive: true,
    blockedEnabled: false,
    blockedReason: null,
    mfaEnabled: false,
    // Never expires: an expiry would turn assigns into refusals part-way through a long run.
    accountExpiresAt: null,
    createdAt: now,
  }));
  await repos.customers.insertBulk([...background, ...owned]);
  const ownedRows = (
    (await db.execute(
      sql`SELECT id, email FROM customers WHERE email LIKE ${`load-owner-%@load-${options.runId}.example`} ORDER BY email`,
    )) as unknown as { rows: { id: string; email: string }[] }
  ).rows;
  if (ownedRows.length !== options.connections) throw new Error(`seeded ${ownedRows.length} owned customers, expected ${options.connections}`);

  const admins = [];
  for (let i = 0; i < options.admins; i++) {
    const password = `Load-${randomBytes(8).toString('hex')}`;
    const email = `load-admin-${i}@load-${options.runId}.example`;
    await repos.users.insert({ email, name: `Load Admin ${i}`, role: 'admin', passwordHash: await hashPassword(password) });
    admins.push({ email, password });
  }

  await database.exec(database.kind === 'postgres' ? 'VACUUM ANALYZE' : 'ANALYZE');
  return {
    terminalOfLine: new Map(terminals.map((t) => [t.serviceLineNumber!, t.userTerminalId])),
    lines: terminals.map((t) => t.serviceLineNumber!),
    ownedCustomers: ownedRows.map((r) => r.id),
    admins,
    createdEmailPrefix: `load-${options.runId}-`,
  };
}
