// Request and response schemas of the audit log routes, the answers checked against
// src/domain/audit.ts. `action` is one action or several, as `action=a&action=b` or `action=a,b`,
// each one of AUDIT_ACTIONS; days are UTC `YYYY-MM-DD` with from ≤ to.
import { z } from 'zod';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KINDS,
  AUDIT_ACTOR_MAX_LENGTH,
  AUDIT_MAX_ACTIONS,
  AUDIT_MAX_PAGE_SIZE,
  AUDIT_MESSAGES as M,
  AUDIT_PAGE_SIZE,
  AUDIT_TARGET_ID_MAX_LENGTH,
  AUDIT_TARGET_TYPE_MAX_LENGTH,
  isAuditAction,
  isAuditDay,
  type AuditAction,
  type AuditEntryWire,
  type AuditListWire,
} from '../../src/domain/audit';
import { MAX_PAGE, QUERY_MESSAGES, wholeNumber } from './customers-schemas';
import { paginationSchema, exact, type Exact } from './schemas';

/** The longest action name, for the bound on each one a query carries. */
const ACTION_MAX_LENGTH = Math.max(...AUDIT_ACTIONS.map((a) => a.length));

const text = (max: number, message: string) => z.string({ error: message }).trim().max(max, { error: message }).optional();
const day = (field: string) => z.string({ error: M.day(field) }).max(10, { error: M.day(field) }).refine(isAuditDay, { error: M.day(field) }).optional();

const actions = z
  .union([z.string({ error: M.tooManyActions }).max((ACTION_MAX_LENGTH + 1) * AUDIT_MAX_ACTIONS, { error: M.tooManyActions }), z.array(z.string().max(2000)).max(AUDIT_MAX_ACTIONS, { error: M.tooManyActions })], {
    error: M.tooManyActions,
  })
  .transform((value, ctx): AuditAction[] => {
    const names = [...new Set((Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean))];
    if (names.length > AUDIT_MAX_ACTIONS) ctx.addIssue({ code: 'custom', message: M.tooManyActions });
    for (const name of names) if (!isAuditAction(name)) ctx.addIssue({ code: 'custom', message: M.action(name) });
    return names.filter(isAuditAction);
  })
  .optional();

const filterShape = {
  actor: text(AUDIT_ACTOR_MAX_LENGTH, M.actor),
  actorKind: z.enum(AUDIT_ACTOR_KINDS, { error: M.actorKind }).optional(),
  action: actions,
  targetType: text(AUDIT_TARGET_TYPE_MAX_LENGTH, M.targetType),
  targetId: text(AUDIT_TARGET_ID_MAX_LENGTH, M.targetId),
  from: day('from'),
  to: day('to'),
};

const checkDays = (q: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx) => {
  if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: 'custom', path: ['from'], message: M.range });
};

const filterOf = ({ action, ...q }: z.output<z.ZodObject<typeof filterShape>>) => ({ ...q, actions: action });

export const auditListQuerySchema = z
  .object({
    ...filterShape,
    page: wholeNumber(1, MAX_PAGE, QUERY_MESSAGES.page).default(1),
    limit: wholeNumber(1, AUDIT_MAX_PAGE_SIZE, M.limit).default(AUDIT_PAGE_SIZE),
  })
  .superRefine(checkDays)
  .transform(({ page, limit, ...q }) => ({ ...filterOf(q), page, limit }));

export const auditExportQuerySchema = z.object(filterShape).superRefine(checkDays).transform(filterOf);

export const auditEntrySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  action: z.string(),
  actor: z.object({ kind: z.enum(AUDIT_ACTOR_KINDS), id: z.string().nullable(), name: z.string().nullable(), email: z.string().nullable() }),
  target: z.object({ type: z.string().nullable(), id: z.string().nullable() }),
  before: z.unknown(),
  after: z.unknown(),
  ip: z.string().nullable(),
  requestId: z.string().nullable(),
});

export const auditListSchema = z.object({ entries: z.array(auditEntrySchema), pagination: paginationSchema });

exact<Exact<z.output<typeof auditEntrySchema>, AuditEntryWire>>();
exact<Exact<z.output<typeof auditListSchema>, AuditListWire>>();
