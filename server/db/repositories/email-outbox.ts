// Every email the server composes, with its delivery outcome.
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { emailOutbox, type EmailOutboxRow } from '../schema';

export type EmailOutboxRepository = ReturnType<typeof createEmailOutboxRepository>;

export function createEmailOutboxRepository(db: Db) {
  const o = emailOutbox;
  return {
    async insert(row: { recipient: string; subject: string; bodyText: string; createdAt: Date }, tx: Db = db): Promise<EmailOutboxRow> {
      const [created] = await tx.insert(o).values(row).returning();
      if (!created) throw new Error('insert into email_outbox returned no row');
      return created;
    },
    async markSent(id: number, at: Date, tx: Db = db): Promise<EmailOutboxRow | null> {
      const [row] = await tx.update(o).set({ sentAt: at, error: null }).where(eq(o.id, id)).returning();
      return row ?? null;
    },
    async markFailed(id: number, error: string, tx: Db = db): Promise<EmailOutboxRow | null> {
      const [row] = await tx.update(o).set({ error }).where(eq(o.id, id)).returning();
      return row ?? null;
    },
    /** Newest first; `recipient` compares case-insensitively. */
    async listRecent(filter: { recipient?: string | null; limit: number }, tx: Db = db): Promise<EmailOutboxRow[]> {
      return tx
        .select()
        .from(o)
        .where(filter.recipient ? sql`lower(${o.recipient}) = lower(${filter.recipient})` : undefined)
        .orderBy(desc(o.createdAt), desc(o.id))
        .limit(filter.limit);
    },
  };
}
