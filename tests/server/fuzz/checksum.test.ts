// The fuzz checksum can fail: a write to any table changes its part, the sign-in counters and
// failed-attempt audit rows land in their own parts (and only there), an edit of an audit row from
// before the watermark shows, a read leaves the horizon and so the snapshot as they were, and a
// write that changes no content (a rolled-back insert) moves the horizon but no part.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers';
import { changedParts, createChecksum, type Checksum } from './checksum';

let ctx: TestContext;
let checksum: Checksum;
let customerId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  customerId = (await ctx.createCustomer({ password: null })).id;
  await ctx.createAdmin({ password: null });
  await ctx.database.db.execute(sql`INSERT INTO audit_log (actor_type, action) VALUES ('system', 'seed.one'), ('system', 'seed.two')`);
  checksum = await createChecksum(ctx.database.db);
  await checksum.rebase();
});
afterAll(async () => {
  await ctx?.close();
});

const run = (statement: ReturnType<typeof sql>) => ctx.database.db.execute(statement);

/** The parts one statement changes. */
async function changedBy(statement: ReturnType<typeof sql>): Promise<string[]> {
  const before = await checksum.take();
  await run(statement);
  return changedParts(before, await checksum.refresh(before)).sort();
}

describe('the fuzz checksum', () => {
  it('sees an insert, an update and a delete in the table they touch', async () => {
    expect(await changedBy(sql`INSERT INTO email_outbox (recipient, subject, body_text) VALUES ('a@example.com', 's', 'b')`)).toEqual(['email_outbox']);
    expect(await changedBy(sql`UPDATE email_outbox SET subject = 't'`)).toEqual(['email_outbox']);
    expect(await changedBy(sql`DELETE FROM email_outbox`)).toEqual(['email_outbox']);
    expect(await changedBy(sql`UPDATE customers SET name = 'Renamed' WHERE id = ${customerId}`)).toEqual(['customers']);
  });

  it('keeps the sign-in counters apart from the rest of the row', async () => {
    expect(await changedBy(sql`UPDATE users SET failed_login_attempts = failed_login_attempts + 1`)).toEqual(['users.lockout']);
    expect(await changedBy(sql`UPDATE customers SET locked_until = now() WHERE id = ${customerId}`)).toEqual(['customers.lockout']);
    expect(await changedBy(sql`UPDATE users SET failed_login_attempts = 0, name = 'Someone else'`)).toEqual(['users', 'users.lockout']);
  });

  it('puts new failed-attempt audit rows in their own part, other new rows and edits of old ones in theirs', async () => {
    expect(await changedBy(sql`INSERT INTO audit_log (actor_type, action) VALUES ('anonymous', 'auth.login_failed')`)).toEqual(['audit_log:auth.login_failed']);
    expect(await changedBy(sql`INSERT INTO audit_log (actor_type, action) VALUES ('system', 'customer.updated')`)).toEqual(['audit_log']);
    expect(await changedBy(sql`UPDATE audit_log SET action = 'seed.changed' WHERE action = 'seed.one'`)).toEqual(['audit_log.before-watermark']);
    expect(await changedBy(sql`DELETE FROM audit_log WHERE action = 'seed.two'`)).toEqual(['audit_log.before-watermark']);
  });

  it('lets a route be allowed exactly its parts', async () => {
    const before = await checksum.take();
    await run(sql`UPDATE users SET failed_login_attempts = failed_login_attempts + 1`);
    await run(sql`INSERT INTO audit_log (actor_type, action) VALUES ('anonymous', 'auth.login_failed')`);
    const after = await checksum.refresh(before);
    expect(changedParts(before, after, ['users.lockout', 'audit_log:auth.login_failed'])).toEqual([]);
    expect(changedParts(before, after, ['users.lockout']).sort()).toEqual(['audit_log:auth.login_failed']);
  });

  it('keeps the snapshot across reads, and finds no change in a write that was rolled back', async () => {
    const before = await checksum.take();
    await run(sql`SELECT * FROM customers`);
    const again = await checksum.refresh(before);
    // On PGlite nothing else assigns transaction ids: the snapshot itself comes back. On a shared
    // PostgreSQL server another test file's database may move the horizon meanwhile (seen in CI):
    // then a fresh take, equal part for part.
    if (ctx.database.kind === 'pglite') expect(again).toBe(before);
    expect(changedParts(before, again)).toEqual([]);
    await ctx.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO email_outbox (recipient, subject, body_text) VALUES ('b@example.com', 's', 'b')`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    const after = await checksum.refresh(before);
    expect(after).not.toBe(before);
    expect(changedParts(before, after)).toEqual([]);
  });
});
