// What /audit carries in its URL: `/audit?actor=ana&kind=user&action=customer.updated,customer.blocked
// &targetType=customer&targetId=5d53&from=2026-03-01&to=2026-03-31&page=2&entry=812` (defaults left
// out; `entry` is the row whose before/after is open). Pure, like src/routes/search-params.ts, so the
// route tree can validate a URL without loading the page.
import {
  AUDIT_ACTOR_KINDS,
  AUDIT_ACTOR_MAX_LENGTH,
  AUDIT_MAX_ACTIONS,
  AUDIT_TARGET_ID_MAX_LENGTH,
  AUDIT_TARGET_TYPE_MAX_LENGTH,
  isAuditAction,
  isAuditDay,
  type AuditAction,
  type AuditActorKind,
  type AuditFilter,
} from '../../domain/audit';

export interface AuditSearch {
  page?: number;
  /** Part of the actor's email, name or id (the search box). */
  actor?: string;
  kind?: AuditActorKind;
  /** Comma-separated actions, each one of AUDIT_ACTIONS. */
  action?: string;
  targetType?: string;
  targetId?: string;
  from?: string;
  to?: string;
  /** The entry whose before/after is open (a number: the router writes a numeric string quoted). */
  entry?: number;
}

export type AuditKindFilter = AuditActorKind | 'all';

const MAX_PAGE = 1_000_000;

const textOf = (value: unknown, max: number): string | undefined => {
  const raw = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  const text = raw.trim().slice(0, max);
  return text ? text : undefined;
};

/** The actions of a URL's `action`, known ones only, each once, at most AUDIT_MAX_ACTIONS. */
export function actionsOf(value: string | undefined): AuditAction[] {
  const names = (value ?? '').split(',').map((name) => name.trim()).filter(isAuditAction);
  return [...new Set(names)].slice(0, AUDIT_MAX_ACTIONS);
}

/** Every key, undefined for a default: the router lays this over the raw search of the parents. */
export function validateAuditSearch(search: Record<string, unknown>): AuditSearch {
  const page = typeof search.page === 'number' ? search.page : typeof search.page === 'string' ? Number(search.page) : NaN;
  const kind = typeof search.kind === 'string' && (AUDIT_ACTOR_KINDS as readonly string[]).includes(search.kind) ? (search.kind as AuditActorKind) : undefined;
  const actions = actionsOf(typeof search.action === 'string' ? search.action : undefined);
  let from = typeof search.from === 'string' && isAuditDay(search.from) ? search.from : undefined;
  let to = typeof search.to === 'string' && isAuditDay(search.to) ? search.to : undefined;
  // A range written backwards reads as meant.
  if (from && to && from > to) [from, to] = [to, from];
  const rawEntry = typeof search.entry === 'number' ? search.entry : typeof search.entry === 'string' && /^\d{1,16}$/.test(search.entry) ? Number(search.entry) : NaN;
  const entry = Number.isSafeInteger(rawEntry) && rawEntry > 0 ? rawEntry : undefined;
  return {
    page: Number.isInteger(page) && page > 1 && page <= MAX_PAGE ? page : undefined,
    actor: textOf(search.actor, AUDIT_ACTOR_MAX_LENGTH),
    kind,
    action: actions.length > 0 ? actions.join(',') : undefined,
    targetType: textOf(search.targetType, AUDIT_TARGET_TYPE_MAX_LENGTH),
    targetId: textOf(search.targetId, AUDIT_TARGET_ID_MAX_LENGTH),
    from,
    to,
    entry,
  };
}

/** The server's filter of what the URL shows (the page and the open entry are not filters). */
export function auditFilterOf(search: AuditSearch): AuditFilter {
  const actions = actionsOf(search.action);
  return {
    ...(search.actor ? { actor: search.actor } : {}),
    ...(search.kind ? { actorKind: search.kind } : {}),
    ...(actions.length > 0 ? { actions } : {}),
    ...(search.targetType ? { targetType: search.targetType } : {}),
    ...(search.targetId ? { targetId: search.targetId } : {}),
    ...(search.from ? { from: search.from } : {}),
    ...(search.to ? { to: search.to } : {}),
  };
}
