// The command palette: what GET /api/v1/search answers, where the portal opens
// each answer, how a text matches a term (shared by the server's ranking and the page matching),
// and the portal's own pages, matched here from the sidebar menu without asking the server.
import { SIDEBAR_MENU, type MenuItem } from './navigation';
import { allows, type Permission } from './permissions';

export const SEARCH_KINDS = ['customer', 'serviceLine', 'kit', 'dish', 'user'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_QUERY_MAX_LENGTH = 100;
/** The most answers the server gives, all kinds together. */
export const SEARCH_RESULTS_MAX = 20;
/** The most answers of one kind, so that one kind cannot crowd the others out. */
export const SEARCH_KIND_MAX = 8;

export const SEARCH_MESSAGES = {
  found: 'Search results retrieved successfully',
  query: `q must be 1 to ${SEARCH_QUERY_MAX_LENGTH} characters`,
} as const;

/**
 * One answer. `id` is what the portal opens it by: a customer's uuid; for a kit serial, a dish
 * serial or a service line, the user terminal id of the terminal that carries it; a portal
 * user's email (the users page finds a user by it).
 */
export interface SearchResultWire {
  kind: SearchKind;
  id: string;
  label: string;
  /** The secondary line under the label. */
  detail: string;
}

export interface SearchAnswerWire {
  results: SearchResultWire[];
}

export const SEARCH_KIND_LABELS: Readonly<Record<SearchKind | 'page', string>> = {
  customer: 'Customer',
  serviceLine: 'Service line',
  kit: 'Kit serial',
  dish: 'Dish serial',
  user: 'Portal user',
  page: 'Page',
};

// ---- Matching ----

/** 0 the whole text, 1 its start, 2 the start of a word in it, 3 anywhere in it. Lower is better. */
export type MatchRank = 0 | 1 | 2 | 3;

const WORD_CHAR = /[\p{L}\p{N}]/u;

/** How `text` holds `term`, case-insensitively; null when it does not. */
export function matchRank(text: string, term: string): MatchRank | null {
  const haystack = text.toLowerCase();
  const needle = term.trim().toLowerCase();
  if (!needle) return null;
  if (haystack === needle) return 0;
  if (haystack.startsWith(needle)) return 1;
  let at = haystack.indexOf(needle, 1);
  if (at < 0) return null;
  for (; at >= 0; at = haystack.indexOf(needle, at + 1)) {
    if (!WORD_CHAR.test(haystack[at - 1] ?? '')) return 2;
  }
  return 3;
}

/** The best rank of any of the texts (null texts are skipped); null when none holds the term. */
export function bestMatchRank(texts: readonly (string | null | undefined)[], term: string): MatchRank | null {
  let best: MatchRank | null = null;
  for (const text of texts) {
    if (text === null || text === undefined) continue;
    const rank = matchRank(text, term);
    if (rank !== null && (best === null || rank < best)) best = rank;
  }
  return best;
}

// ---- Where an answer opens ----

/**
 * A search-param value as the router writes it: a string that would read back as JSON (a number,
 * `true`) is quoted, so that it reads back as the same string.
 */
function searchValue(value: string): string {
  let quoted = value;
  try {
    JSON.parse(value);
    quoted = JSON.stringify(value);
  } catch {
    // Not JSON: the router reads it back as the string it is.
  }
  return encodeURIComponent(quoted);
}

/** The portal address of an answer: the customer's page, the terminal's details, the users list found by email. */
export function searchResultUrl(result: Pick<SearchResultWire, 'kind' | 'id'>): string {
  switch (result.kind) {
    case 'customer':
      return `/customer/terminals/${encodeURIComponent(result.id)}`;
    case 'serviceLine':
    case 'kit':
    case 'dish':
      return `/terminals?terminal=${searchValue(result.id)}`;
    case 'user':
      return `/users?search=${searchValue(result.id)}`;
  }
}

/** What the page an answer opens needs: a portal user sees only the answers they may open. */
export const SEARCH_KIND_PERMISSIONS: Readonly<Record<SearchKind, Permission>> = {
  customer: 'customers:read',
  serviceLine: 'terminals:read',
  kit: 'terminals:read',
  dish: 'terminals:read',
  user: 'users:read',
};

/** The kinds of answer the permissions let a user open. */
export const searchKindsFor = (permissions: readonly Permission[]): SearchKind[] =>
  SEARCH_KINDS.filter((kind) => allows(permissions, SEARCH_KIND_PERMISSIONS[kind]));

/** The answers the user may open; the server leaves the others out too, this holds to it. */
export const openableResults = (results: readonly SearchResultWire[], permissions: readonly Permission[]): SearchResultWire[] =>
  results.filter((result) => allows(permissions, SEARCH_KIND_PERMISSIONS[result.kind]));

// ---- Pages ----

export interface PalettePage {
  title: string;
  url: string;
  /** The menu group it sits in, when it does. */
  section: string | null;
}

/** The pages of the sidebar: the items without children and the children of the groups, each address once. */
export function menuPages(menu: readonly MenuItem[] = SIDEBAR_MENU): PalettePage[] {
  const pages: PalettePage[] = [];
  const seen = new Set<string>();
  for (const item of menu) {
    const entries = item.items?.length ? item.items.map((child) => ({ title: child.title, url: child.url, section: item.title })) : [{ title: item.title, url: item.url, section: null }];
    for (const entry of entries) {
      if (seen.has(entry.url)) continue;
      seen.add(entry.url);
      pages.push(entry);
    }
  }
  return pages;
}

export const PALETTE_PAGES: readonly PalettePage[] = menuPages();
/** The most pages listed beside the server's answers. */
export const PAGE_MATCHES_MAX = 5;

/**
 * The pages whose title (or group) holds the term, best first (menu order breaks ties); every
 * page, in menu order, for an empty term.
 */
export function matchPages(term: string, pages: readonly PalettePage[] = PALETTE_PAGES): PalettePage[] {
  if (!term.trim()) return [...pages];
  return pages
    .map((page, order) => ({ page, order, rank: bestMatchRank([page.title, page.section], term) }))
    .filter((m): m is { page: PalettePage; order: number; rank: MatchRank } => m.rank !== null)
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, PAGE_MATCHES_MAX)
    .map((m) => m.page);
}

// ---- The palette's list ----

export type PaletteOption = { type: 'page'; page: PalettePage } | { type: 'result'; result: SearchResultWire };

/** What the palette lists for what is typed: the matching pages, then the server's answers. */
export function paletteOptions(input: string, results: readonly SearchResultWire[], pages: readonly PalettePage[] = PALETTE_PAGES): PaletteOption[] {
  return [...matchPages(input, pages).map((page) => ({ type: 'page' as const, page })), ...results.map((result) => ({ type: 'result' as const, result }))];
}

export function optionUrl(option: PaletteOption): string {
  return option.type === 'page' ? option.page.url : searchResultUrl(option.result);
}

/** A key unique within one list (a terminal can answer as its kit, its dish and its line). */
export function optionKey(option: PaletteOption): string {
  return option.type === 'page' ? `page:${option.page.url}` : `${option.result.kind}:${option.result.id}`;
}

/** The palette's text query as the server takes it: trimmed, and null when there is nothing to ask. */
export function searchQuery(input: string): string | null {
  const query = input.trim().slice(0, SEARCH_QUERY_MAX_LENGTH);
  return query ? query : null;
}
