import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { customers, type CustomerRow, type NewCustomerRow } from '../schema';
import { createAccountLoginStore } from './accounts';

export type CustomersRepository = ReturnType<typeof createCustomersRepository>;

export function createCustomersRepository(db: Db) {
  return {
    ...createAccountLoginStore<CustomerRow>(db, customers),
    async insert(row: NewCustomerRow, tx: Db = db): Promise<CustomerRow> {
      const [created] = await tx.insert(customers).values(row).returning();
      if (!created) throw new Error('insert into customers returned no row');
      return created;
    },
    async insertManyIgnoringConflicts(rows: NewCustomerRow[], tx: Db = db): Promise<number> {
      if (rows.length === 0) return 0;
      const inserted = await tx.insert(customers).values(rows).onConflictDoNothing().returning({ id: customers.id });
      return inserted.length;
    },
    async update(id: string, patch: Partial<NewCustomerRow>, tx: Db = db): Promise<CustomerRow | null> {
      const [row] = await tx.update(customers).set(patch).where(eq(customers.id, id)).returning();
      return row ?? null;
    },
  };
}
