// The command palette's search: customers, service lines, kit and dish serials and portal users,
// each kind only for who may read it, ranked as one list. Ranking: how the best field holds the
// term (whole, start, start of a word, anywhere: src/domain/search.ts matchRank), then trigram
// similarity, then kind and label, so equal matches always come in the same order.
import { allows, type Permission } from '../../src/domain/permissions';
import type { Principal } from '../auth/principal';
import { searchTerm } from '../db/repositories/customers';
import type { SearchRepository } from '../db/repositories/search';
import {
  bestMatchRank,
  SEARCH_KIND_MAX,
  SEARCH_KINDS,
  SEARCH_RESULTS_MAX,
  type MatchRank,
  type SearchAnswerWire,
  type SearchResultWire,
} from '../../src/domain/search';

interface Ranked {
  result: SearchResultWire;
  rank: MatchRank;
  similarity: number;
}

const UNASSIGNED = 'Unassigned';
const joined = (...parts: (string | null | undefined)[]) => parts.filter((part) => part).join(' · ');

function byRank(a: Ranked, b: Ranked): number {
  return (
    a.rank - b.rank ||
    b.similarity - a.similarity ||
    SEARCH_KINDS.indexOf(a.result.kind) - SEARCH_KINDS.indexOf(b.result.kind) ||
    a.result.label.localeCompare(b.result.label) ||
    a.result.id.localeCompare(b.result.id)
  );
}

/** One result when the field holds the term. */
function ranked(result: SearchResultWire, field: string | null, term: string, similarity: number): Ranked[] {
  const rank = bestMatchRank([field], term);
  return rank === null ? [] : [{ result, rank, similarity }];
}

export type SearchService = ReturnType<typeof createSearchService>;

export function createSearchService(deps: { search: SearchRepository }) {
  const repo = deps.search;
  return {
    async search(text: string, principal: Principal): Promise<SearchAnswerWire> {
      const query = searchTerm(text);
      if (!query) return { results: [] };
      // Each kind of result only for who may open it: the palette lists nothing the user cannot read.
      const may = (permission: Permission) => principal.type === 'admin' && allows(principal.permissions, permission);
      const [customers, terminals, users] = await Promise.all([
        may('customers:read') ? repo.customers(query) : Promise.resolve([]),
        may('terminals:read') ? repo.terminals(query) : Promise.resolve([]),
        may('users:read') ? repo.users(query) : Promise.resolve([]),
      ]);
      const found: Ranked[] = [];
      for (const c of customers) {
        const rank = bestMatchRank([c.name, c.email, c.company], query);
        if (rank !== null) found.push({ result: { kind: 'customer', id: c.id, label: c.name, detail: joined(c.company, c.email) }, rank, similarity: c.similarity });
      }
      for (const t of terminals) {
        const owner = t.customerName ?? UNASSIGNED;
        const id = t.userTerminalId;
        found.push(
          ...ranked({ kind: 'kit', id, label: t.kitSerialNumber, detail: joined(`Terminal ${id}`, t.serviceLineNumber, owner) }, t.kitSerialNumber, query, t.kitSimilarity),
          ...ranked({ kind: 'dish', id, label: t.dishSerialNumber ?? '', detail: joined(`Kit ${t.kitSerialNumber}`, t.serviceLineNumber, owner) }, t.dishSerialNumber, query, t.dishSimilarity),
          ...ranked({ kind: 'serviceLine', id, label: t.serviceLineNumber ?? '', detail: joined(`Kit ${t.kitSerialNumber}`, owner) }, t.serviceLineNumber, query, t.lineSimilarity),
        );
      }
      for (const u of users) {
        const rank = bestMatchRank([u.name, u.email], query);
        if (rank !== null) found.push({ result: { kind: 'user', id: u.email, label: u.name, detail: joined(u.email, u.role === 'admin' ? 'Owner' : 'User') }, rank, similarity: u.similarity });
      }
      found.sort(byRank);
      const perKind = new Map<string, number>();
      const results: SearchResultWire[] = [];
      // A line with several terminals answers once, through its best-ranked terminal.
      const lines = new Set<string>();
      for (const { result } of found) {
        if (result.kind === 'serviceLine') {
          if (lines.has(result.label)) continue;
          lines.add(result.label);
        }
        const count = perKind.get(result.kind) ?? 0;
        if (count >= SEARCH_KIND_MAX) continue;
        perKind.set(result.kind, count + 1);
        results.push(result);
        if (results.length >= SEARCH_RESULTS_MAX) break;
      }
      return { results };
    },
  };
}
