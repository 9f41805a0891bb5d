// Provider intents: a write that changes money or service, recorded before it is sent, and what
// became of it (server/services/provider-intents.ts runs them).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { providerIntents, type ProviderIntentRow } from '../schema';

export type IntentOperation = ProviderIntentRow['operation'];
export type IntentStatus = ProviderIntentRow['status'];

export interface NewIntent {
  key: string;
  operation: IntentOperation;
  serviceLineNumber: string;
  payload: Record<string, unknown>;
  evidence: Record<string, unknown>;
}

export function createProviderIntentsRepository(db: Db) {
  return {
    /**
     * The intent of `key`: recorded now, or the one an earlier attempt recorded (its payload and
     * evidence are the first attempt's: the lookup compares against what the line showed then).
     */
    async record(intent: NewIntent, at: Date): Promise<{ intent: ProviderIntentRow; recorded: boolean }> {
      const [made] = await db.insert(providerIntents).values({ ...intent, createdAt: at }).onConflictDoNothing({ target: providerIntents.key }).returning();
      if (made) return { intent: made, recorded: true };
      const [found] = await db.select().from(providerIntents).where(eq(providerIntents.key, intent.key));
      if (!found) throw new Error(`The intent ${intent.key} was neither recorded nor found`);
      return { intent: found, recorded: false };
    },

    /** An intent this attempt recorded and the provider refused: nothing changed, nothing is kept. */
    async forget(id: string): Promise<void> {
      await db.delete(providerIntents).where(eq(providerIntents.id, id));
    },

    /**
     * About to send: one more attempt, pending again. Answers false when another attempt settled
     * it or took it since `attempts` was read (two processes never send the same intent at once).
     */
    async markSending(id: string, attempts: number, at: Date): Promise<boolean> {
      const rows = await db
        .update(providerIntents)
        .set({ status: 'pending', attempts: attempts + 1, sentAt: at, settledAt: null, outcome: null })
        .where(and(eq(providerIntents.id, id), eq(providerIntents.attempts, attempts), sql`${providerIntents.status} IN ('pending', 'failed')`))
        .returning({ id: providerIntents.id });
      return rows.length === 1;
    },

    async settle(id: string, status: Exclude<IntentStatus, 'pending'>, outcome: string, at: Date, tx: Db = db): Promise<void> {
      await tx.update(providerIntents).set({ status, outcome, settledAt: at }).where(eq(providerIntents.id, id));
    },

    /** Intents left pending since before `at` (their last attempt, else their record), oldest first. */
    async pendingSince(at: Date, limit: number): Promise<ProviderIntentRow[]> {
      return db
        .select()
        .from(providerIntents)
        .where(and(eq(providerIntents.status, 'pending'), sql`coalesce(${providerIntents.sentAt}, ${providerIntents.createdAt}) < ${at}`))
        .orderBy(asc(providerIntents.createdAt))
        .limit(limit);
    },

    async byKey(key: string): Promise<ProviderIntentRow | undefined> {
      const [row] = await db.select().from(providerIntents).where(eq(providerIntents.key, key));
      return row;
    },
  };
}
