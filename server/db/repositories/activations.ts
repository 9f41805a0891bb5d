// Activations: the record of a kit being taken to an active line, step by step. One unfinished
// activation per kit (a partial unique index); a run claims its record by a conditional update, so
// two resumes of one activation never run its steps at once.
import { and, asc, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { activations, providerAddresses } from '../schema';
import { searchTerm } from './customers';
import { isUniqueViolation } from './unique-violation';

export type ActivationRow = typeof activations.$inferSelect;
export type ActivationInsert = Omit<typeof activations.$inferInsert, 'id' | 'status' | 'steps' | 'createdAt' | 'updatedAt'>;

const OPEN_PER_DEVICE = 'activations_device_open_uq';

export interface AddressChoice {
  addressReferenceId: string;
  formattedAddress: string | null;
  locality: string | null;
  region: string | null;
}

export type ActivationStart = { ok: true; row: ActivationRow } | { ok: false; reason: 'device_in_progress' };

export type ActivationsRepository = ReturnType<typeof createActivationsRepository>;

export function createActivationsRepository(db: Db) {
  return {
    /** A new running activation, or a conflict when the kit already has an unfinished one. */
    async start(values: ActivationInsert, at: Date, tx: Db = db): Promise<ActivationStart> {
      try {
        const [row] = await tx
          .insert(activations)
          .values({ ...values, status: 'running', steps: {}, createdAt: at, updatedAt: at })
          .returning();
        return { ok: true, row: row! };
      } catch (error) {
        if (isUniqueViolation(error, OPEN_PER_DEVICE)) return { ok: false, reason: 'device_in_progress' };
        throw error;
      }
    },

    /**
     * The account's addresses as last synced, for choosing one: at most `limit`, those whose text
     * contains `search` (case-insensitive, `%` and `_` literal, control characters dropped as in
     * every search), by formatted address.
     */
    async addresses(search: string | null, limit: number, accountId: number, tx: Db = db): Promise<AddressChoice[]> {
      const a = providerAddresses;
      const term = searchTerm(search);
      const pattern = term ? `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      return tx
        .select({ addressReferenceId: a.addressReferenceId, formattedAddress: a.formattedAddress, locality: a.locality, region: a.region })
        .from(a)
        .where(
          and(
            isNull(a.removedAt),
            eq(a.accountId, accountId),
            pattern ? sql`lower(coalesce(${a.formattedAddress}, '') || ' ' || coalesce(${a.locality}, '') || ' ' || coalesce(${a.region}, '')) LIKE ${pattern}` : undefined,
          ),
        )
        .orderBy(asc(a.formattedAddress), asc(a.addressReferenceId))
        .limit(limit);
    },

    /** The accounts that hold this address as last synced (none: the portal has not seen it). */
    async addressAccounts(addressReferenceId: string, tx: Db = db): Promise<number[]> {
      const a = providerAddresses;
      const rows = await tx.select({ accountId: a.accountId }).from(a).where(and(eq(a.addressReferenceId, addressReferenceId), isNull(a.removedAt)));
      return rows.map((r) => r.accountId);
    },

    async findById(id: string, tx: Db = db): Promise<ActivationRow | null> {
      const [row] = await tx.select().from(activations).where(eq(activations.id, id));
      return row ?? null;
    },

    /** The kit's unfinished activation, if any. */
    async openForDevice(deviceKey: string, tx: Db = db): Promise<ActivationRow | null> {
      const [row] = await tx
        .select()
        .from(activations)
        .where(and(eq(activations.deviceKey, deviceKey), sql`${activations.status} <> 'completed'`))
        .orderBy(desc(activations.createdAt))
        .limit(1);
      return row ?? null;
    },

    /**
     * Takes a failed activation (or a running one nobody has touched since `staleBefore`: its
     * server died) to run again; null when another run has it or it is done.
     */
    async claim(id: string, at: Date, staleBefore: Date, tx: Db = db): Promise<ActivationRow | null> {
      const [row] = await tx
        .update(activations)
        .set({ status: 'running', error: null, updatedAt: at })
        .where(and(eq(activations.id, id), or(eq(activations.status, 'failed'), and(eq(activations.status, 'running'), lt(activations.updatedAt, staleBefore)))))
        .returning();
      return row ?? null;
    },

    /** Records a step done, with what it found or made. */
    async stepDone(
      id: string,
      step: string,
      found: Partial<Pick<ActivationRow, 'userTerminalId' | 'addressReferenceId' | 'serviceLineNumber'>>,
      at: Date,
      tx: Db = db,
    ): Promise<ActivationRow> {
      const [row] = await tx
        .update(activations)
        .set({ ...found, steps: sql`${activations.steps} || ${JSON.stringify({ [step]: at.toISOString() })}::jsonb`, updatedAt: at })
        .where(eq(activations.id, id))
        .returning();
      return row!;
    },

    async finish(id: string, outcome: { status: 'completed' } | { status: 'failed'; error: string }, at: Date, tx: Db = db): Promise<ActivationRow> {
      const [row] = await tx
        .update(activations)
        .set({ status: outcome.status, error: outcome.status === 'failed' ? outcome.error : null, updatedAt: at })
        .where(eq(activations.id, id))
        .returning();
      return row!;
    },
  };
}
