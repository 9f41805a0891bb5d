// The embedded database's prepared statements (server/db/pglite-statements.ts): the same answers,
// errors and locking as PGlite's own query, each text parsed once, a bounded number kept, and a
// statement whose table changed under it prepared again.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pgliteStartParams } from '../../server/db/client';
import { createPgliteStatements, type PgliteStatements } from '../../server/db/pglite-statements';
import { databaseImage, TEST_PGLITE_SETTINGS } from './helpers';

let client: PGlite;
let statements: PgliteStatements;

beforeEach(async () => {
  // A new cluster per test, from the empty cluster's image (initdb done once per run).
  client = new PGlite({ loadDataDir: await databaseImage('empty'), ...pgliteStartParams(TEST_PGLITE_SETTINGS) });
  await client.waitReady;
  await client.exec(`
    CREATE TABLE things (
      id int PRIMARY KEY, name text NOT NULL, ok boolean, at timestamptz, day date, amount numeric,
      data jsonb, tags text[], ids int[], ref uuid
    );
    CREATE UNIQUE INDEX things_name_uq ON things (name);
  `);
  statements = await createPgliteStatements(client, { size: 4 });
});
afterEach(async () => {
  await client.close();
});

const preparedCount = async () => (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_prepared_statements')).rows[0]!.n;

const insert = 'INSERT INTO things (id, name, ok, at, day, amount, data, tags, ids, ref) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING *';

describe('prepared statements on PGlite', () => {
  it('answers as PGlite’s own query does, for every kind of value, in both row modes', async () => {
    const row = fc.record({
      // Any Unicode: the answer's fields are decoded as UTF-8 from the engine's bytes.
      name: fc.string({ maxLength: 20, unit: 'grapheme' }).filter((s) => !s.includes('\u0000')),
      ok: fc.option(fc.boolean()),
      at: fc.option(fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })),
      day: fc.option(fc.constantFrom('2024-02-29', '2026-12-31', '1999-01-01')),
      amount: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })),
      data: fc.option(fc.jsonValue({ maxDepth: 2 })),
      tags: fc.option(fc.array(fc.string({ maxLength: 5 }).filter((s) => !s.includes('\u0000')), { maxLength: 3 })),
      ids: fc.option(fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 3 })),
      ref: fc.option(fc.uuid()),
    });
    let id = 0;
    await fc.assert(
      fc.asyncProperty(row, fc.constantFrom('object' as const, 'array' as const), async (r, rowMode) => {
        id += 1;
        const params = [id, `${r.name}#${id}`, r.ok, r.at, r.day, r.amount, r.data === null ? null : JSON.stringify(r.data), r.tags, r.ids, r.ref];
        const mine = await statements.query(insert, params, { rowMode });
        const select = 'SELECT * FROM things WHERE id = $1';
        const theirs = await client.query(select, [id], { rowMode });
        const again = await statements.query(select, [id], { rowMode });
        expect(again.rows).toEqual(theirs.rows);
        // The same through an unnamed statement (a pattern is planned for its value every time).
        const byPattern = 'SELECT * FROM things WHERE name LIKE $1 AND id = $2';
        expect((await statements.query(byPattern, ['%', id], { rowMode })).rows).toEqual(theirs.rows);
        expect(mine.rows).toEqual(theirs.rows);
        // The whole result: rows, fields, command, affectedRows and rowCount.
        expect(again).toEqual(theirs);
        expect(mine.affectedRows).toBe(1);
        const touch = 'UPDATE things SET ok = ok WHERE id = $1 RETURNING id, name';
        expect(await statements.query(touch, [id], { rowMode })).toEqual(await client.query(touch, [id], { rowMode }));
        const none = 'DELETE FROM things WHERE id = $1';
        expect(await statements.query(none, [-id], { rowMode })).toEqual(await client.query(none, [-id], { rowMode }));
      }),
      { numRuns: 60 },
    );
  });

  it('parses a text once, however often it runs, and keeps a bounded number prepared', async () => {
    for (let i = 0; i < 5; i++) await statements.query('SELECT $1::int + 1 AS n', [i]);
    expect(await preparedCount()).toBe(1);
    expect((await statements.query<{ n: number }>('SELECT $1::int + 1 AS n', [41])).rows).toEqual([{ n: 42 }]);

    // Beyond the size (4 here) the least recently used one is closed at the next preparation.
    for (let i = 0; i < 6; i++) await statements.query(`SELECT ${i} AS k`);
    expect(statements.size).toBe(4);
    expect(await preparedCount()).toBeLessThanOrEqual(5);
    // The last used ones are kept, the first ones are gone.
    const kept = (await client.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((r) => r.statement);
    expect(kept).toContain('SELECT 5 AS k');
    expect(kept).not.toContain('SELECT 0 AS k');
  });

  it('answers a statement that also raises a notice, read with PGlite’s parser, as PGlite does', async () => {
    await client.exec(`CREATE FUNCTION noisy(n int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'n is %', n; RETURN n * 2; END $$`);
    const text = 'SELECT noisy($1) AS doubled, $2::text AS label';
    for (const rowMode of ['object', 'array'] as const) {
      const mine = await statements.query(text, [21, 'é'], { rowMode });
      expect(mine).toEqual(await client.query(text, [21, 'é'], { rowMode }));
    }
    expect((await statements.query<{ doubled: number }>(text, [4, 'x'])).rows).toEqual([{ doubled: 8, label: 'x' }]);
    // Planned for its values (a pattern): the SETs around it answer too, and are left out.
    const pattern = "SELECT noisy($1) AS doubled WHERE 'abc' LIKE $2";
    expect((await statements.query(pattern, [5, 'a%'])).rows).toEqual([{ doubled: 10 }]);
  });

  it('gives PGlite’s errors, with the query and parameters, and stays usable after them', async () => {
    await statements.query(insert, [1, 'one', null, null, null, null, null, null, null, null]);
    const duplicate = await statements.query(insert, [2, 'one', null, null, null, null, null, null, null, null]).catch((e: unknown) => e);
    expect(duplicate).toMatchObject({ code: '23505', query: insert, params: [2, 'one', null, null, null, null, null, null, null, null] });
    const syntax = await statements.query('SELEC 1').catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: '42601', query: 'SELEC 1' });
    const badValue = await statements.query('SELECT * FROM things WHERE ref = $1', ['not-a-uuid']).catch((e: unknown) => e);
    expect(badValue).toMatchObject({ code: '22P02' });
    // Nothing was left prepared by the failed parse, and the same texts still run.
    expect((await statements.query('SELECT count(*)::int AS n FROM things')).rows).toEqual([{ n: 1 }]);
    expect((await statements.query('SELECT * FROM things WHERE ref = $1', ['00000000-0000-0000-0000-000000000000'])).rows).toEqual([]);
  });

  it('rolls a transaction back on an error inside it, as PGlite does', async () => {
    const failed = await client
      .transaction(async (tx) => {
        await statements.queryIn(tx, insert, [1, 'one', null, null, null, null, null, null, null, null]);
        await statements.queryIn(tx, insert, [2, 'one', null, null, null, null, null, null, null, null]);
      })
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: '23505' });
    expect((await statements.query('SELECT count(*)::int AS n FROM things')).rows).toEqual([{ n: 0 }]);
    await expect(statements.queryIn({ closed: true } as Transaction, 'SELECT 1')).rejects.toThrow('Transaction is closed');
  });

  it('never runs a query inside another caller’s open transaction', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const opened = new Promise<void>((resolve) => (inside = resolve));
    const transaction = client
      .transaction(async (tx) => {
        await statements.queryIn(tx, insert, [1, 'uncommitted', null, null, null, null, null, null, null, null]);
        inside();
        await gate;
        await tx.rollback();
      })
      .catch(() => undefined);
    await opened;
    // Issued while the transaction is open: it must wait, and then not see the rolled-back row.
    const count = statements.query<{ n: number }>('SELECT count(*)::int AS n FROM things');
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await transaction;
    expect((await count).rows).toEqual([{ n: 0 }]);
  });

  it('prepares a statement again when its table changed under it', async () => {
    await statements.query(insert, [1, 'one', true, null, null, null, null, null, null, null]);
    const select = 'SELECT * FROM things WHERE id = $1';
    expect((await statements.query<{ ok: boolean }>(select, [1])).rows[0]?.ok).toBe(true);
    await client.exec('ALTER TABLE things ALTER COLUMN ok TYPE text');
    expect((await statements.query<{ ok: string }>(select, [1])).rows[0]?.ok).toBe('true');
    await client.exec('DEALLOCATE ALL');
    expect((await statements.query<{ ok: string }>(select, [1])).rows[0]?.ok).toBe('true');
  });

  it('keeps a generic plan for a lookup after five runs, and plans a pattern or a page offset for its values every time', async () => {
    const planOf = async (text: string) =>
      (await client.query<{ generic_plans: number; custom_plans: number }>('SELECT generic_plans::int, custom_plans::int FROM pg_prepared_statements WHERE statement = $1', [text])).rows;
    for (let i = 0; i < 8; i++) await statements.query('SELECT * FROM things WHERE id = $1', [i]);
    expect(await planOf('SELECT * FROM things WHERE id = $1')).toEqual([{ custom_plans: 5, generic_plans: 3 }]);

    // Planned for their values every time, parsed once, in one round trip; the session's mode is left as it was.
    await statements.query(insert, [1, 'alpha', null, null, null, null, null, null, null, null]);
    for (const [text, params] of [
      ['SELECT name FROM things WHERE name LIKE $1', ['al%']],
      ['SELECT name FROM things WHERE name ILIKE $1', ['AL%']],
      ['SELECT name FROM things WHERE name ~ $1', ['^al']],
      ['SELECT name FROM things ORDER BY id LIMIT $1 OFFSET $2', [1, 0]],
    ] as const) {
      for (let i = 0; i < 7; i++) expect((await statements.query(text, [...params])).rows, text).toEqual([{ name: 'alpha' }]);
      expect(await planOf(text), text).toEqual([{ custom_plans: 7, generic_plans: 0 }]);
    }
    const mode = async () => (await client.query<{ plan_cache_mode: string }>('SHOW plan_cache_mode')).rows[0]?.plan_cache_mode;
    expect(await mode()).toBe('auto');
    // A failing one leaves it as it was too, outside and inside a transaction.
    await expect(statements.query('SELECT name FROM things WHERE ref::text LIKE $1 AND id = $2', ['%', 'x'])).rejects.toMatchObject({ code: '22P02' });
    expect(await mode()).toBe('auto');
    await client
      .transaction(async (tx) => {
        await statements.queryIn(tx, 'SELECT name FROM things WHERE name LIKE $1 AND id = $2', ['%', 'x']);
      })
      .catch(() => undefined);
    expect(await mode()).toBe('auto');

    await client.exec('DEALLOCATE ALL');
    const custom = await createPgliteStatements(client, { planCacheMode: 'force_custom_plan' });
    for (let i = 0; i < 8; i++) await custom.query('SELECT * FROM things WHERE id = $1', [i]);
    expect(await planOf('SELECT * FROM things WHERE id = $1')).toEqual([{ custom_plans: 8, generic_plans: 0 }]);
  });
});
