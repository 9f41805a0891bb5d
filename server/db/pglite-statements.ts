// Prepared statements for the embedded database.
//
// PGlite runs each parameterised query as six protocol round trips into the engine (Parse,
// Describe, Bind, Describe, Execute, Sync), and PostgreSQL parses and analyses the text again
// every time: about 270 µs for a primary-key lookup on the demo data, most of a small page's
// database time, and every request pays it at least once for its session check. As node-postgres
// does with named statements, each distinct SQL text is prepared once (Parse + Describe) and then
// runs as one message of Bind + Execute + Sync: about 120 µs for the same lookup.
//
// Plans: PostgreSQL's default for prepared statements (plan_cache_mode = auto) plans the first
// five executions for their values and then keeps a generic plan when its estimated cost is no
// worse. For a lookup by key that is right, and planning a small query (with a file-size lookup
// per relation through the emulated file system) costs as much as running it: /auth/me 0.70 ->
// 0.48 ms of CPU. Where the value decides the plan it is wrong: at 10,000 terminals a two-letter
// search went from 13 to 78 ms and a common fragment from 6 to 11 with generic plans
// (bench:terminals-search), which do not know the pattern. So a text that matches a pattern
// (LIKE, ILIKE, SIMILAR TO, a regular expression) or pages with OFFSET is planned for its values
// at every execution, as PGlite's unnamed statements were: the same message sets plan_cache_mode
// to force_custom_plan before its Bind (where PostgreSQL chooses the plan) and back after it. SET
// is transactional, so a statement that fails takes the first SET back with it.
//
// What stays as it was:
// - Values: parameters are serialised by the types PostgreSQL inferred for them, with PGlite's
//   own serialisers, and rows parsed with the instance's parsers (PGlite's #runQuery does both
//   the same way); errors carry the query, parameters and options as PGlite's do.
// - Locking: a query outside a transaction holds PGlite's transaction and query locks, one inside
//   a transaction its query lock, as PGlite's own query and transaction objects do; a query
//   outside a transaction is synced to the file system after it, as PGlite's are.
// Anything this does not handle (blobs, notices, explicit parameter types, custom parsers the
// instance lacks) goes to PGlite's own query.
import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { readAnswer, type AnswerField } from './pglite-answer';

/** Distinct SQL texts kept prepared; the least recently used one is closed beyond this. */
export const STATEMENT_CACHE_SIZE = 256;

type Message = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];
type DatabaseError = Error & { code?: string; query?: string; params?: unknown[]; queryOptions?: QueryOptions };

interface Prepared {
  name: string;
  /** Planned for its values at every execution (VALUE_SENSITIVE). */
  perExecution: boolean;
  /** The types PostgreSQL inferred for $1…$n. */
  paramTypes: number[];
  /** The statement's row description, given to the parser as Describe (Portal) would give it. */
  rowDescription: Message | null;
  /** Its columns, as the answer's rows are read with them. */
  fields: AnswerField[];
}

export interface PgliteStatements {
  /** A query outside any transaction (what PGlite's `query` is). */
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  /** A query inside the transaction `tx` (what `tx.query` is). */
  queryIn<T>(tx: Transaction, text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  /** How many texts are prepared now (for tests). */
  readonly size: number;
}

const { serialize } = protocol;

/** A parameterless statement as an unnamed Parse + Bind + Execute, to go in the same message as others. */
const utility = (text: string) => [serialize.parse({ text }).slice(), serialize.bind({}).slice(), serialize.execute({}).slice()];
const PLAN_FOR_VALUES = utility('SET plan_cache_mode = force_custom_plan');
const SYNC = serialize.sync().slice();

/** The statement no longer exists, or its result columns changed under it (DDL): prepare it again. */
function isStale(error: unknown): boolean {
  const code = (error as DatabaseError | null)?.code;
  return code === '26000' || (code === '0A000' && /cached plan must not change result type/.test((error as Error).message));
}

/** Texts whose best plan depends on the values: planned at every execution. */
const VALUE_SENSITIVE = /\b(?:I?LIKE|SIMILAR\s+TO|OFFSET)\b|~/i;

/** Options this path can honour; others go to PGlite's own query. */
function handled(options: QueryOptions | undefined): boolean {
  return !options || (options.blob === undefined && options.onNotice === undefined && options.paramTypes === undefined && options.parsers === undefined);
}

export type PlanCacheMode = 'auto' | 'force_custom_plan' | 'force_generic_plan';

export async function createPgliteStatements(client: PGlite, options: { size?: number; planCacheMode?: PlanCacheMode } = {}): Promise<PgliteStatements> {
  const size = options.size ?? STATEMENT_CACHE_SIZE;
  const planCacheMode = options.planCacheMode ?? 'auto';
  if (planCacheMode !== 'auto') await client.exec(`SET plan_cache_mode = ${planCacheMode}`);
  const planAsBefore = utility(`SET plan_cache_mode = ${planCacheMode}`);
  const prepared = new Map<string, Prepared>();
  /** Evicted statements, closed at the start of the next preparation. */
  const closing: string[] = [];
  let counter = 0;

  async function prepare(text: string): Promise<Prepared> {
    const name = `portal_s${++counter}`;
    const parts = closing.splice(0).map((old) => serialize.close({ type: 'S', name: old }).slice());
    parts.push(serialize.parse({ name, text }).slice(), serialize.describe({ type: 'S', name }).slice(), serialize.sync().slice());
    const messages = await client.execProtocolStream(Buffer.concat(parts), { syncToFs: false });
    const description = messages.find((m) => m.name === 'parameterDescription') as (Message & { dataTypeIDs: number[] }) | undefined;
    const rowDescription = (messages.find((m) => m.name === 'rowDescription') as (Message & { fields: AnswerField[] }) | undefined) ?? null;
    const entry: Prepared = {
      name,
      perExecution: VALUE_SENSITIVE.test(text),
      paramTypes: description?.dataTypeIDs ?? [],
      rowDescription,
      fields: rowDescription?.fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID })) ?? [],
    };
    prepared.set(text, entry);
    if (prepared.size > size) {
      const [oldest] = prepared;
      if (oldest) {
        prepared.delete(oldest[0]);
        closing.push(oldest[1].name);
      }
    }
    return entry;
  }

  function bindValues(entry: Prepared, params: unknown[], queryOptions: QueryOptions | undefined): (string | null)[] {
    return params.map((param, i) => {
      if (param === null || param === undefined) return null;
      const oid = entry.paramTypes[i] ?? 0;
      const serializer = queryOptions?.serializers?.[oid] ?? client.serializers[oid];
      return serializer ? (serializer(param) as string) : String(param);
    });
  }

  /**
   * The engine's answer as bytes. execProtocolRaw would read every message with PGlite's parser on
   * the way (to catch errors and notifications) and throw that work away: the raw stream does not.
   */
  async function execute(message: Uint8Array): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    // A chunk is a view of the engine's memory, reused after the callback: copy it.
    await client.execProtocolRawStream(message, { syncToFs: false, onRawData: (chunk) => chunks.push(chunk.slice()) });
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  }

  /** Runs `text` once, preparing it first when it is new. The caller holds PGlite's locks. */
  async function run<T>(text: string, params: unknown[], queryOptions: QueryOptions | undefined): Promise<Results<T>> {
    let entry = prepared.get(text);
    if (entry) {
      // Most recently used last: Map keeps insertion order, so the first entry is the one to evict.
      prepared.delete(text);
      prepared.set(text, entry);
    } else {
      entry = await prepare(text);
    }
    const execution = [
      serialize.bind({ statement: entry.name, values: bindValues(entry, params, queryOptions) }).slice(),
      serialize.execute({}).slice(),
    ];
    const message = Buffer.concat(entry.perExecution ? [...PLAN_FOR_VALUES, ...execution, ...planAsBefore, SYNC] : [...execution, SYNC]);
    const answer = await execute(message);
    // Around a statement planned for its values, the first SET answers a command of its own.
    const read = readAnswer<T>(answer, entry.perExecution ? 1 : 0, entry.fields, client.parsers, queryOptions?.rowMode);
    return read ?? readWithPglite<T>(entry, answer, queryOptions);
  }

  /** An answer readAnswer leaves (an error, a notice…), read as PGlite's execProtocolStream and parseResults read it. */
  function readWithPglite<T>(entry: Prepared, answer: Uint8Array, queryOptions: QueryOptions | undefined): Results<T> {
    let messages: Message[] = [];
    new protocol.Parser().parse(answer, (m) => messages.push(m));
    const error = messages.find((m) => m instanceof protocol.messages.DatabaseError);
    if (error) throw error;
    // Around a statement planned for its values, the two SETs answer a command each: keep its own.
    if (entry.perExecution) {
      const done = messages.flatMap((m, i) => (m.name === 'commandComplete' ? [i] : []));
      messages = messages.slice((done[0] ?? -1) + 1, (done[1] ?? messages.length - 1) + 1);
    }
    const described = entry.rowDescription ? [entry.rowDescription, ...messages] : messages;
    return parse.parseResults(described, client.parsers, queryOptions)[0] as Results<T>;
  }

  /** `run`, with PGlite's error shape; a stale statement is forgotten, and prepared again when `retry` allows. */
  async function attempt<T>(text: string, params: unknown[], queryOptions: QueryOptions | undefined, retry: boolean): Promise<Results<T>> {
    try {
      return await run<T>(text, params, queryOptions);
    } catch (error) {
      if (isStale(error)) {
        const entry = prepared.get(text);
        if (entry) {
          prepared.delete(text);
          closing.push(entry.name);
        }
        // Outside a transaction nothing was aborted: prepare it again once.
        if (retry) return attempt<T>(text, params, queryOptions, false);
      }
      if (error instanceof Error && 'code' in error) Object.assign(error as DatabaseError, { query: text, params, queryOptions });
      throw error;
    }
  }

  return {
    get size() {
      return prepared.size;
    },
    async query<T>(text: string, params: unknown[] = [], queryOptions?: QueryOptions) {
      if (!handled(queryOptions)) return client.query<T>(text, params, queryOptions);
      await client._checkReady();
      return client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(async () => {
          try {
            return await attempt<T>(text, params, queryOptions, true);
          } finally {
            await client.syncToFs();
          }
        }),
      );
    },
    async queryIn<T>(tx: Transaction, text: string, params: unknown[] = [], queryOptions?: QueryOptions) {
      if (!handled(queryOptions)) return tx.query<T>(text, params, queryOptions);
      if (tx.closed) throw new Error('Transaction is closed');
      return client._runExclusiveQuery(() => attempt<T>(text, params, queryOptions, false));
    },
  };
}
