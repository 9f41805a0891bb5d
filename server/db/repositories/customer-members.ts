// A customer organisation's members and its invitations (migration 0022).
//
// A member signs in through the customer sign-in, with the same bookkeeping as any account, but
// stands only while their organisation does: the rows the sign-in and the session read carry the
// member's status combined with the organisation's (blocked if either is, inactive if either is,
// expiring with the earlier of the two), and a member of a deleted organisation is not found.
import { and, asc, desc, eq, getTableColumns, gt, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { customerInvitations, customerMembers, customers, terminals, type CustomerInvitationRow, type CustomerMemberRow, type NewCustomerMemberRow } from '../schema';
import type { AccountLoginStore, AccountSession } from './accounts';
import { rowsOf } from './results';
import { isUniqueViolation } from './unique-violation';

const m = customerMembers;
const c = customers;
const i = customerInvitations;
const EMAIL_UNIQUE_INDEX = 'customer_members_email_live_uq';

/** A member as the sign-in sees them: status combined with the organisation's, and its company. */
export type MemberAccountRow = CustomerMemberRow & { company: string };

/** What a request's authentication needs of a member: the combined status and their seat. */
export type MemberSession = Omit<AccountSession, 'role'> & Pick<CustomerMemberRow, 'customerId' | 'serviceLines'> & { memberRole: CustomerMemberRow['role'] };

export type MemberInsert = { ok: true; row: CustomerMemberRow } | { ok: false; reason: 'duplicate_email' };

const combined = {
  blockedEnabled: sql<boolean>`(${m.blockedEnabled} OR ${c.blockedEnabled})`.as('blocked_enabled'),
  isActive: sql<boolean>`(${m.isActive} AND ${c.isActive})`.as('is_active'),
  accountExpiresAt: sql<Date | null>`least(${m.accountExpiresAt}, ${c.accountExpiresAt})`.mapWith(c.accountExpiresAt).as('account_expires_at'),
};

const accountSelection = { ...getTableColumns(m), ...combined, company: c.company };

const live = and(isNull(m.deletedAt), isNull(c.deletedAt));

/** Pending: neither used nor revoked, and not yet expired at `at`. */
const pendingAt = (at: Date) => and(isNull(i.usedAt), isNull(i.revokedAt), gt(i.expiresAt, at));

export type CustomerMembersRepository = ReturnType<typeof createCustomerMembersRepository>;

export function createCustomerMembersRepository(db: Db) {
  const accountQuery = (q: Db, where: SQL | undefined) => q.select(accountSelection).from(m).innerJoin(c, eq(c.id, m.customerId)).where(and(where, live)).limit(1);
  // Every request of a signed-in member asks it: built once (prepared).
  const session = db
    .select({
      id: m.id,
      blockedEnabled: combined.blockedEnabled,
      isActive: combined.isActive,
      accountExpiresAt: combined.accountExpiresAt,
      passwordChangedAt: m.passwordChangedAt,
      customerId: m.customerId,
      memberRole: m.role,
      serviceLines: m.serviceLines,
    })
    .from(m)
    .innerJoin(c, eq(c.id, m.customerId))
    .where(and(eq(m.id, sql.placeholder('id')), live))
    .limit(1)
    .prepare('session_of_customer_members');

  const login = {
    async findByEmail(email, tx = db) {
      const [row] = await accountQuery(tx, sql`lower(${m.email}) = lower(${email})`);
      return (row as MemberAccountRow | undefined) ?? null;
    },
    async findLiveById(id: string, tx: Db = db): Promise<MemberAccountRow | null> {
      const [row] = await accountQuery(tx, eq(m.id, id));
      return (row as MemberAccountRow | undefined) ?? null;
    },
    async sessionOf(id: string): Promise<MemberSession | null> {
      const [row] = await session.execute({ id });
      return row ?? null;
    },
    async recordFailedLogin(id, { maxAttempts, lockUntil }, tx = db) {
      const reachesMax = sql`${m.failedLoginAttempts} + 1 >= ${maxAttempts}`;
      const [row] = await tx
        .update(m)
        .set({
          failedLoginAttempts: sql`CASE WHEN ${reachesMax} THEN 0 ELSE ${m.failedLoginAttempts} + 1 END`,
          lockedUntil: sql`CASE WHEN ${reachesMax} THEN ${lockUntil.toISOString()}::timestamptz ELSE ${m.lockedUntil} END`,
        })
        .where(eq(m.id, id))
        .returning({ failedLoginAttempts: m.failedLoginAttempts, lockedUntil: m.lockedUntil });
      return row ?? null;
    },
    async recordSuccessfulLogin(id, { at, ip }, tx = db): Promise<MemberAccountRow | null> {
      await tx.update(m).set({ failedLoginAttempts: 0, lockedUntil: null, lastLogin: at, lastIp: ip, updatedAt: at }).where(eq(m.id, id));
      const [row] = await accountQuery(tx, eq(m.id, id));
      return (row as MemberAccountRow | undefined) ?? null;
    },
  } satisfies AccountLoginStore<MemberAccountRow>;

  return {
    ...login,

    /** The live member (with the combined status), their row locked for the caller's transaction. */
    async findLiveByIdForUpdate(id: string, tx: Db): Promise<MemberAccountRow | null> {
      await tx.select({ id: m.id }).from(m).where(eq(m.id, id)).for('update');
      return login.findLiveById(id, tx);
    },

    /** Writes the member's own fields (profile, password, MFA counters); null when gone. */
    async update(id: string, patch: Partial<NewCustomerMemberRow>, tx: Db = db): Promise<MemberAccountRow | null> {
      const [row] = await tx.update(m).set(patch).where(and(eq(m.id, id), isNull(m.deletedAt))).returning({ id: m.id });
      return row ? login.findLiveById(row.id, tx) : null;
    },

    async insert(values: NewCustomerMemberRow, tx: Db = db): Promise<MemberInsert> {
      try {
        const [row] = await tx.insert(m).values(values).returning();
        return { ok: true, row: row! };
      } catch (error) {
        if (isUniqueViolation(error, EMAIL_UNIQUE_INDEX)) return { ok: false, reason: 'duplicate_email' };
        throw error;
      }
    },

    /** The organisation's live members, oldest first. */
    async ofCustomer(customerId: string, tx: Db = db): Promise<CustomerMemberRow[]> {
      return tx.select().from(m).where(and(eq(m.customerId, customerId), isNull(m.deletedAt))).orderBy(asc(m.createdAt), asc(m.id));
    },

    /** The member when they are a live member of this organisation; null otherwise. */
    async findOfCustomer(id: string, customerId: string, tx: Db = db): Promise<CustomerMemberRow | null> {
      const [row] = await tx.select().from(m).where(and(eq(m.id, id), eq(m.customerId, customerId), isNull(m.deletedAt)));
      return row ?? null;
    },

    /** Changes a member's seat (role, lines) in their organisation. */
    async updateSeat(id: string, customerId: string, patch: Pick<Partial<NewCustomerMemberRow>, 'role' | 'serviceLines'>, at: Date, tx: Db = db): Promise<CustomerMemberRow | null> {
      const [row] = await tx
        .update(m)
        .set({ ...patch, updatedAt: at })
        .where(and(eq(m.id, id), eq(m.customerId, customerId), isNull(m.deletedAt)))
        .returning();
      return row ?? null;
    },

    /** Soft-deletes the member: the audit log keeps their name, and their sessions stop at once. */
    async remove(id: string, customerId: string, at: Date, tx: Db = db): Promise<CustomerMemberRow | null> {
      const [row] = await tx
        .update(m)
        .set({ deletedAt: at, updatedAt: at })
        .where(and(eq(m.id, id), eq(m.customerId, customerId), isNull(m.deletedAt)))
        .returning();
      return row ?? null;
    },

    /** Whether a live customer login or a live member already signs in with this email. */
    async emailTaken(email: string, tx: Db = db): Promise<boolean> {
      const result = await tx.execute(sql`
        SELECT EXISTS (SELECT 1 FROM ${c} WHERE lower(email) = lower(${email}) AND deleted_at IS NULL)
            OR EXISTS (SELECT 1 FROM ${m} WHERE lower(email) = lower(${email}) AND deleted_at IS NULL) AS taken`);
      return Boolean(rowsOf<{ taken: boolean }>(result)[0]?.taken);
    },

    /** Whether a live member signs in with this email (a customer login may not take it). */
    async memberEmailTaken(email: string, tx: Db = db): Promise<boolean> {
      return (await tx.$count(m, and(sql`lower(${m.email}) = lower(${email})`, isNull(m.deletedAt)))) > 0;
    },

    /** Live members plus invitations pending at `at`: the team's size. */
    async teamSize(customerId: string, at: Date, tx: Db = db): Promise<number> {
      const members = await tx.$count(m, and(eq(m.customerId, customerId), isNull(m.deletedAt)));
      const invitations = await tx.$count(i, and(eq(i.customerId, customerId), pendingAt(at)));
      return members + invitations;
    },

    /** The lines the organisation holds now (a live terminal of theirs on it), with a terminal's nickname. */
    async linesOfCustomer(customerId: string, tx: Db = db): Promise<{ serviceLineNumber: string; nickname: string | null }[]> {
      const rows = await tx
        .select({ serviceLineNumber: sql<string>`${terminals.serviceLineNumber}`, nickname: sql<string | null>`max(${terminals.nickname})` })
        .from(terminals)
        .where(and(eq(terminals.assignedCustomerId, customerId), isNull(terminals.removedAt), isNotNull(terminals.serviceLineNumber)))
        .groupBy(terminals.serviceLineNumber)
        .orderBy(terminals.serviceLineNumber);
      return rows;
    },

    // ---- invitations ---------------------------------------------------------------------------

    async insertInvitation(values: typeof i.$inferInsert, tx: Db = db): Promise<CustomerInvitationRow> {
      const [row] = await tx.insert(i).values(values).returning();
      return row!;
    },

    /** Revokes the organisation's pending invitations to this email (a new one replaces them). */
    async revokePendingTo(customerId: string, email: string, at: Date, tx: Db = db): Promise<number> {
      const rows = await tx
        .update(i)
        .set({ revokedAt: at })
        .where(and(eq(i.customerId, customerId), sql`lower(${i.email}) = lower(${email})`, pendingAt(at)))
        .returning({ id: i.id });
      return rows.length;
    },

    /** Pending invitations, then those created since `since`, newest first. */
    async invitationsOf(customerId: string, at: Date, since: Date, tx: Db = db): Promise<CustomerInvitationRow[]> {
      return tx
        .select()
        .from(i)
        .where(and(eq(i.customerId, customerId), or(pendingAt(at), gt(i.createdAt, since))))
        .orderBy(desc(i.createdAt), desc(i.id))
        .limit(200);
    },

    async findInvitationByHash(tokenHash: string, tx: Db = db): Promise<CustomerInvitationRow | null> {
      const [row] = await tx.select().from(i).where(eq(i.tokenHash, tokenHash));
      return row ?? null;
    },

    async findInvitationOfCustomer(id: string, customerId: string, tx: Db = db): Promise<CustomerInvitationRow | null> {
      const [row] = await tx.select().from(i).where(and(eq(i.id, id), eq(i.customerId, customerId)));
      return row ?? null;
    },

    /** Revokes a pending invitation; null when it was not pending (accepted, revoked or expired). */
    async revokeInvitation(id: string, customerId: string, at: Date, tx: Db = db): Promise<CustomerInvitationRow | null> {
      const [row] = await tx
        .update(i)
        .set({ revokedAt: at })
        .where(and(eq(i.id, id), eq(i.customerId, customerId), pendingAt(at)))
        .returning();
      return row ?? null;
    },

    /**
     * Marks the invitation used, in one conditional statement: of two acceptances at once, one
     * gets the row and the other null. Null too when it is revoked or expired.
     */
    async consumeInvitation(tokenHash: string, at: Date, tx: Db = db): Promise<CustomerInvitationRow | null> {
      const [row] = await tx
        .update(i)
        .set({ usedAt: at })
        .where(and(eq(i.tokenHash, tokenHash), pendingAt(at)))
        .returning();
      return row ?? null;
    },

    async linkInvitation(id: string, memberId: string, tx: Db = db): Promise<void> {
      await tx.update(i).set({ memberId }).where(eq(i.id, id));
    },
  };
}
