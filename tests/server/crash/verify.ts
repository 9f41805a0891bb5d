// What the database must hold after the crashes, read straight from its tables: every
// acknowledged write exactly as answered, every unanswered one whole or absent, and nothing
// half-applied (a customer without its audit row or setup link, a terminal whose owner disagrees
// with its audit trail, an assignment answered for N terminals but written for another number).
import { inArray } from 'drizzle-orm';
import type { Database } from '../../../server/db/client';
import { auditLog, customers, emailOutbox, passwordSetupTokens, terminals } from '../../../server/db/schema';
import { applied, type AssignOp, type CreateOp, type Op, type UnassignOp } from './writer';

export interface Verification {
  violations: string[];
  customers: number;
  acknowledgedCreates: number;
  /** Creates that had no answer: how many the database holds, and how many it does not. */
  unknownCreates: { present: number; absent: number };
  /** Present after an unanswered create, yet without the setup email it is sent after the commit. */
  lineOps: { acknowledged: number; unknownApplied: number; unknownAbsent: number };
  terminalAuditRows: number;
  assignedTerminals: number;
}

type Event = { action: 'assigned' | 'unassigned'; customerId: string; requestId: string | null };

const show = (event: Event) => `${event.action}:${event.customerId}`;

export async function verifyDatabase(database: Database, ops: readonly Op[], lineTerminals: ReadonlyMap<string, readonly string[]>): Promise<Verification> {
  const { db } = database;
  const violations: string[] = [];
  const fail = (message: string) => violations.push(message);

  const customerRows = await db.select({ id: customers.id, email: customers.email, name: customers.name, company: customers.company, deletedAt: customers.deletedAt }).from(customers);
  const audits = await db
    .select({ id: auditLog.id, action: auditLog.action, targetId: auditLog.targetId, before: auditLog.before, after: auditLog.after, requestId: auditLog.requestId })
    .from(auditLog)
    .where(inArray(auditLog.action, ['customer.created', 'terminal.assigned', 'terminal.unassigned']));
  const tokens = await db.select({ customerId: passwordSetupTokens.customerId }).from(passwordSetupTokens);
  const outbox = await db.select({ recipient: emailOutbox.recipient }).from(emailOutbox);
  const terminalRows = await db
    .select({ id: terminals.userTerminalId, line: terminals.serviceLineNumber, assignedCustomerId: terminals.assignedCustomerId, assignedAt: terminals.assignedAt, removedAt: terminals.removedAt })
    .from(terminals);

  // --- customers ---------------------------------------------------------------------------------
  const byId = new Map(customerRows.map((row) => [row.id, row]));
  const byEmail = new Map<string, typeof customerRows>();
  for (const row of customerRows) byEmail.set(row.email.toLowerCase(), [...(byEmail.get(row.email.toLowerCase()) ?? []), row]);
  for (const [email, rows] of byEmail) if (rows.length > 1) fail(`${rows.length} customers share the email ${email}`);

  const created = audits.filter((row) => row.action === 'customer.created');
  const createdAudit = new Map<string, typeof created>();
  for (const row of created) createdAudit.set(row.targetId ?? '', [...(createdAudit.get(row.targetId ?? '') ?? []), row]);
  const tokenCount = new Map<string, number>();
  for (const row of tokens) if (row.customerId) tokenCount.set(row.customerId, (tokenCount.get(row.customerId) ?? 0) + 1);
  const emailed = new Set(outbox.map((row) => row.recipient.toLowerCase()));

  // A customer and its audit row and setup link are one transaction: all three, or none.
  for (const row of customerRows) {
    if ((createdAudit.get(row.id)?.length ?? 0) !== 1) fail(`customer ${row.email} has ${createdAudit.get(row.id)?.length ?? 0} customer.created audit rows`);
    if ((tokenCount.get(row.id) ?? 0) !== 1) fail(`customer ${row.email} has ${tokenCount.get(row.id) ?? 0} password-setup links`);
    if (row.deletedAt) fail(`customer ${row.email} is deleted, yet nothing deletes customers here`);
  }
  for (const [id] of createdAudit) if (!byId.has(id)) fail(`a customer.created audit row names ${id}, which is not in customers`);

  const creates = ops.filter((op): op is CreateOp => op.kind === 'create');
  const known = new Set(creates.map((op) => op.email));
  for (const row of customerRows) if (!known.has(row.email)) fail(`customer ${row.email} was never requested`);
  const unknownCreates = { present: 0, absent: 0 };
  for (const op of creates) {
    const rows = byEmail.get(op.email) ?? [];
    if (op.outcome === 'acked') {
      const row = rows[0];
      if (!row) {
        fail(`acknowledged create #${op.seq} (${op.email}, round ${op.round}) is missing`);
        continue;
      }
      if (row.id !== op.customerId || row.name !== op.name || row.company !== op.company) fail(`acknowledged create #${op.seq} (${op.email}) holds other values than answered`);
      const audit = createdAudit.get(row.id)?.[0];
      if (audit && audit.requestId !== op.requestId) fail(`customer ${op.email}'s audit row carries request ${audit.requestId}, the answer was ${op.requestId}`);
      // Answered only after the outbox row was written.
      if (!emailed.has(op.email)) fail(`acknowledged create #${op.seq} (${op.email}) has no setup email in the outbox`);
    } else if (op.outcome === 'unknown') {
      if (rows.length > 0) {
        unknownCreates.present++;
        // The outbox row is written in the customer's own transaction: a customer never exists without it.
        if (!emailed.has(op.email)) fail(`unanswered create #${op.seq} (${op.email}) is present without its setup email`);
      } else unknownCreates.absent++;
    } else if (rows.length > 0) fail(`refused create #${op.seq} (${op.email}) is present`);
  }

  // --- terminals ---------------------------------------------------------------------------------
  const terminalById = new Map(terminalRows.map((row) => [row.id, row]));
  for (const row of terminalRows) {
    if (row.assignedCustomerId && !byId.has(row.assignedCustomerId)) fail(`terminal ${row.id} is assigned to ${row.assignedCustomerId}, which is not a customer`);
    if (Boolean(row.assignedCustomerId) !== Boolean(row.assignedAt)) fail(`terminal ${row.id} has assigned_customer_id ${row.assignedCustomerId} but assigned_at ${String(row.assignedAt)}`);
  }

  const terminalAudits = audits.filter((row) => row.action !== 'customer.created');
  const chains = new Map<string, Event[]>();
  for (const row of [...terminalAudits].sort((a, b) => a.id - b.id)) {
    const assigned = row.action === 'terminal.assigned';
    const side = (assigned ? row.after : row.before) as { assignedTo?: string } | null;
    const event: Event = { action: assigned ? 'assigned' : 'unassigned', customerId: side?.assignedTo ?? '?', requestId: row.requestId };
    chains.set(row.targetId ?? '', [...(chains.get(row.targetId ?? '') ?? []), event]);
  }

  // What each line's terminals went through, from the answers and (for unanswered ones) the restart.
  const lineOps = ops.filter((op): op is AssignOp | UnassignOp => op.kind !== 'create');
  const expected = new Map<string, Event[]>();
  const lineCount = { acknowledged: 0, unknownApplied: 0, unknownAbsent: 0 };
  const ackedRequestIds = new Set(ops.filter((op) => op.outcome === 'acked').map((op) => op.requestId));
  for (const op of lineOps) {
    if (op.outcome === 'acked') lineCount.acknowledged++;
    else if (op.outcome === 'unknown') {
      if (op.resolution === null) fail(`${op.kind} #${op.seq} had no answer and was never resolved`);
      else if (op.resolution === 'applied') lineCount.unknownApplied++;
      else lineCount.unknownAbsent++;
    }
    if (!applied(op)) continue;
    const lines = op.kind === 'assign' ? (op.outcome === 'acked' ? op.assigned : op.lines) : [op.line];
    for (const line of lines) {
      const event: Event = { action: op.kind === 'assign' ? 'assigned' : 'unassigned', customerId: op.customerId, requestId: op.requestId };
      expected.set(line, [...(expected.get(line) ?? []), event]);
    }
    // The answer's count is the rows written: one audit row per terminal, under the request's id.
    const rows = op.outcome === 'acked' ? terminalAudits.filter((row) => row.requestId === op.requestId) : [];
    if (op.outcome === 'acked') {
      const answered = op.kind === 'assign' ? op.assigned.flatMap((line) => lineTerminals.get(line) ?? []) : op.unassigned;
      const written = rows.map((row) => row.targetId ?? '');
      if ([...written].sort().join() !== [...answered].sort().join()) {
        fail(`acknowledged ${op.kind} #${op.seq} answered terminals [${[...answered].sort().join(', ')}], the audit log has [${written.sort().join(', ')}]`);
      }
    } else {
      // An unanswered request that took effect did so whole: every terminal on every line, one request id.
      const touched = op.kind === 'assign' ? op.lines.flatMap((line) => lineTerminals.get(line) ?? []) : (lineTerminals.get(op.line) ?? []);
      const action = op.kind === 'assign' ? 'assigned' : 'unassigned';
      const requestIds = new Set(
        touched.map((id) => [...(chains.get(id) ?? [])].reverse().find((event) => event.action === action && event.customerId === op.customerId && !ackedRequestIds.has(event.requestId))?.requestId ?? 'missing'),
      );
      if (requestIds.size !== 1 || requestIds.has('missing')) fail(`unanswered ${op.kind} #${op.seq} shows as applied but not whole: requests ${[...requestIds].join(', ')}`);
    }
  }

  for (const [line, ids] of lineTerminals) {
    const want = (expected.get(line) ?? []).map(show);
    for (const id of ids) {
      const got = (chains.get(id) ?? []).map(show);
      if (got.join(' ') !== want.join(' ')) fail(`terminal ${id} on ${line}: audit trail [${got.join(' ')}], expected [${want.join(' ')}]`);
      const last = expected.get(line)?.at(-1);
      const owner = last?.action === 'assigned' ? last.customerId : null;
      const row = terminalById.get(id);
      if (!row) fail(`terminal ${id} on ${line} is gone`);
      else if (row.assignedCustomerId !== owner) fail(`terminal ${id} on ${line} is assigned to ${row.assignedCustomerId}, its history ends with ${owner}`);
    }
  }
  for (const id of chains.keys()) if (![...lineTerminals.values()].some((ids) => ids.includes(id))) fail(`terminal ${id} outside the writers' lines has an assignment audit trail`);

  return {
    violations,
    customers: customerRows.length,
    acknowledgedCreates: creates.filter((op) => op.outcome === 'acked').length,
    unknownCreates,
    lineOps: lineCount,
    terminalAuditRows: terminalAudits.length,
    assignedTerminals: terminalRows.filter((row) => row.assignedCustomerId).length,
  };
}
