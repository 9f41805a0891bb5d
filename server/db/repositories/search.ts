// The command palette's search: the candidates of each kind for a term, each
// query bounded, with the trigram similarity of the fields that matched. The service ranks them
// (src/domain/search.ts matchRank) and keeps the best.
//
// Each kind reads two bounded sets: rows where a field or a word of it starts with the term, and
// rows that hold it anywhere. At fleet scale a common term can match tens of thousands of rows;
// the first set keeps the exact and prefix matches among the candidates however many rows merely
// contain the term. Customers and terminals are read through the trigram indexes on
// their search_text (0002, 0003), which serve both the LIKE and the regular expression; portal
// users are a short table and are scanned.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../client';
import { escapeLike, searchTerm } from './customers';

/** Rows read per set: two sets per kind, so at most twice this many candidates of a kind. */
export const SEARCH_CANDIDATES = 50;

export interface CustomerCandidate {
  id: string;
  name: string;
  email: string;
  company: string;
  similarity: number;
}

export interface TerminalCandidate {
  userTerminalId: string;
  kitSerialNumber: string;
  dishSerialNumber: string | null;
  serviceLineNumber: string | null;
  customerName: string | null;
  kitSimilarity: number;
  dishSimilarity: number;
  lineSimilarity: number;
}

export interface UserCandidate {
  email: string;
  name: string;
  role: string;
  similarity: number;
}

/** The term as the three patterns: substring (LIKE), start of a field or a word (regex), and the bare term. */
interface Patterns {
  term: string;
  contains: string;
  wordStart: string;
}

/** Escapes what a POSIX regular expression would read as an operator. */
const escapeRegex = (term: string) => term.replace(/[\\.^$*+?()[\]{}|]/g, (c) => `\\${c}`);

function patternsOf(search: string): Patterns | null {
  const term = searchTerm(search);
  if (!term) return null;
  // Not a letter or digit before it: the start of a field (search_text's U+001F is not one) or of a word.
  return { term, contains: `%${escapeLike(term)}%`, wordStart: `(^|[^[:alnum:]])${escapeRegex(term)}` };
}

type Rows<T> = { rows: T[] };

/** A trigram index serves terms of at least this many characters. */
const TRIGRAM = 3;

/**
 * The two bounded sets, without repeats. A shorter term is matched without the regular
 * expression: no index serves it, and a regular expression over every row of 100,000 terminals
 * was measured at 300 ms where the LIKE takes 50 ms (a common short term stops at the LIMIT).
 */
function twoSets(p: Patterns, select: (where: SQL) => SQL, matchesWordStart: SQL, contains: SQL): SQL {
  const substring = sql`(${select(contains)} LIMIT ${SEARCH_CANDIDATES})`;
  if (p.term.length < TRIGRAM) return substring;
  return sql`(${select(matchesWordStart)} LIMIT ${SEARCH_CANDIDATES}) UNION ${substring}`;
}

export type SearchRepository = ReturnType<typeof createSearchRepository>;

export function createSearchRepository(db: Db) {
  return {
    async customers(search: string, tx: Db = db): Promise<CustomerCandidate[]> {
      const p = patternsOf(search);
      if (!p) return [];
      const select = (where: SQL) => sql`SELECT c.id FROM customers AS c WHERE c.deleted_at IS NULL AND ${where}`;
      const ids = twoSets(p, select, sql`c.search_text ~ lower(${p.wordStart})`, sql`c.search_text LIKE lower(${p.contains})`);
      const result = (await tx.execute(sql`
        SELECT c.id, c.name, c.email, c.company,
               greatest(similarity(lower(c.name), lower(${p.term})), similarity(lower(c.email), lower(${p.term})), similarity(lower(c.company), lower(${p.term})))::float8 AS similarity
        FROM customers AS c WHERE c.id IN (${ids})`)) as unknown as Rows<CustomerCandidate>;
      return result.rows;
    },

    /** Live terminals whose kit serial, dish serial or service line (or terminal id, or owner's id) holds the term. */
    async terminals(search: string, tx: Db = db): Promise<TerminalCandidate[]> {
      const p = patternsOf(search);
      if (!p) return [];
      const select = (where: SQL) => sql`SELECT t.user_terminal_id FROM terminals AS t WHERE t.removed_at IS NULL AND ${where}`;
      const ids = twoSets(p, select, sql`t.search_text ~ lower(${p.wordStart})`, sql`t.search_text LIKE lower(${p.contains})`);
      const result = (await tx.execute(sql`
        SELECT t.user_terminal_id AS "userTerminalId", t.kit_serial_number AS "kitSerialNumber",
               t.dish_serial_number AS "dishSerialNumber", t.service_line_number AS "serviceLineNumber",
               owner.name AS "customerName",
               similarity(lower(t.kit_serial_number), lower(${p.term}))::float8 AS "kitSimilarity",
               similarity(lower(coalesce(t.dish_serial_number, '')), lower(${p.term}))::float8 AS "dishSimilarity",
               similarity(lower(coalesce(t.service_line_number, '')), lower(${p.term}))::float8 AS "lineSimilarity"
        FROM terminals AS t
        LEFT JOIN customers AS owner ON owner.id = t.assigned_customer_id
        WHERE t.user_terminal_id IN (${ids})`)) as unknown as Rows<TerminalCandidate>;
      return result.rows;
    },

    /** Live portal users whose name or email holds the term. */
    async users(search: string, tx: Db = db): Promise<UserCandidate[]> {
      const p = patternsOf(search);
      if (!p) return [];
      const select = (where: SQL) => sql`SELECT u.id FROM users AS u WHERE u.deleted_at IS NULL AND ${where}`;
      const ids = twoSets(
        p,
        select,
        sql`(lower(u.name) ~ lower(${p.wordStart}) OR lower(u.email) ~ lower(${p.wordStart}))`,
        sql`(lower(u.name) LIKE lower(${p.contains}) OR lower(u.email) LIKE lower(${p.contains}))`,
      );
      const result = (await tx.execute(sql`
        SELECT u.email, u.name, u.role,
               greatest(similarity(lower(u.name), lower(${p.term})), similarity(lower(u.email), lower(${p.term})))::float8 AS similarity
        FROM users AS u WHERE u.id IN (${ids})`)) as unknown as Rows<UserCandidate>;
      return result.rows;
    },
  };
}
