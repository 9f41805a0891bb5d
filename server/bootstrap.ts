// First-run set-up after migrations: make sure someone can sign in, and seed the demo world once.
// All writes share one transaction under an advisory lock, so two processes starting together on
// one PostgreSQL server cannot both create an administrator or seed twice.
import { randomBytes } from 'node:crypto';
import { generatePassword, hashPassword } from './auth/passwords';
import { systemClock, type Clock } from './clock';
import type { Config } from './config';
import type { Database } from './db/client';
import { createRepositories } from './db/repositories';
import { createAuditService } from './services/audit';
import { DEMO_ADMIN_EMAIL, DEMO_ADMIN_NAME, DEMO_CUSTOMER_TOTAL, DEMO_SEEDED_KEY, DEMO_USER_TOTAL, generateDemoData } from './demo-data';

export { DEMO_SEEDED_KEY } from './demo-data';
const BOOTSTRAP_LOCK_KEY = 720_150_002;

export type AdminBootstrap =
  /** An administrator already existed; nothing was created. */
  | { status: 'existing' }
  | { status: 'created'; source: 'env'; email: string }
  /** The generated password is returned once, for server.ts to print. */
  | { status: 'created'; source: 'demo'; email: string; password: string }
  /** PostgreSQL without ADMIN_* or SEED_DEMO: nobody can sign in yet. */
  | { status: 'missing' };

export interface BootstrapResult {
  admin: AdminBootstrap;
  demo: 'seeded' | 'already-seeded' | 'disabled';
  /** When the demo was seeded now: the demo customer who can sign in, with a password shown once. */
  demoCustomer: { email: string; password: string } | null;
}

export interface BootstrapOptions {
  database: Database;
  config: Pick<Config, 'adminEmail' | 'adminPassword' | 'seedDemo' | 'databaseUrl'>;
  now?: Clock;
}

export async function bootstrap({ database, config, now = systemClock }: BootstrapOptions): Promise<BootstrapResult> {
  const repos = createRepositories(database.db);
  const audit = createAuditService({ audit: repos.audit, now });

  // Hash before the transaction: PGlite has one connection, and nobody should wait on Argon2.
  const needAdmin = (await repos.users.countLiveAdmins()) === 0;
  let planned: { email: string; name: string; password: string; source: 'env' | 'demo' } | null = null;
  if (needAdmin && config.adminEmail && config.adminPassword) {
    planned = { email: config.adminEmail, name: 'Administrator', password: config.adminPassword, source: 'env' };
  } else if (needAdmin && (!config.databaseUrl || config.seedDemo)) {
    planned = { email: DEMO_ADMIN_EMAIL, name: DEMO_ADMIN_NAME, password: generatePassword(16), source: 'demo' };
  }
  const adminHash = planned ? await hashPassword(planned.password) : null;
  const wantDemo = config.seedDemo && (await repos.appMeta.get(DEMO_SEEDED_KEY)) === undefined;
  const throwawayHash = wantDemo ? await hashPassword(randomBytes(24).toString('base64url')) : null;
  const customerPassword = wantDemo ? generatePassword(16) : null;
  const customerHash = customerPassword ? await hashPassword(customerPassword) : null;

  return database.db.transaction(async (tx) => {
    await repos.appMeta.lockForTransaction(BOOTSTRAP_LOCK_KEY, tx);
    const at = now();

    let admin: AdminBootstrap = needAdmin ? { status: 'missing' } : { status: 'existing' };
    if (planned && adminHash && (await repos.users.countLiveAdmins(tx)) === 0) {
      const created = await repos.users.insert(
        { email: planned.email, name: planned.name, role: 'admin', passwordHash: adminHash, createdAt: at, updatedAt: at },
        tx,
      );
      await audit.record(
        { actor: { type: 'system' }, action: 'system.admin_created', targetType: 'user', targetId: created.id, after: { email: created.email, source: planned.source } },
        tx,
      );
      admin =
        planned.source === 'demo'
          ? { status: 'created', source: 'demo', email: created.email, password: planned.password }
          : { status: 'created', source: 'env', email: created.email };
    } else if (planned) {
      admin = { status: 'existing' };
    }

    let demo: BootstrapResult['demo'] = config.seedDemo ? 'already-seeded' : 'disabled';
    let demoCustomer: BootstrapResult['demoCustomer'] = null;
    if (throwawayHash && (await repos.appMeta.claim(DEMO_SEEDED_KEY, { at: at.toISOString(), users: DEMO_USER_TOTAL, customers: DEMO_CUSTOMER_TOTAL }, tx))) {
      const data = generateDemoData(at, throwawayHash, customerHash);
      if (data.signInCustomerEmail && customerPassword) demoCustomer = { email: data.signInCustomerEmail, password: customerPassword };
      const users = await repos.users.insertManyIgnoringConflicts(data.users, tx);
      const customers = await repos.customers.insertManyIgnoringConflicts(data.customers, tx);
      await audit.record({ actor: { type: 'system' }, action: 'system.demo_seeded', after: { users, customers } }, tx);
      demo = 'seeded';
    }
    return { admin, demo, demoCustomer };
  });
}
