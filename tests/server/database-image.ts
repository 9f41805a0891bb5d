// The server tier's starting points, made once per run (Vitest's global set-up of the server
// project) instead of once per database: a new embedded cluster costs initdb, and the migrations
// on top of it (about 3 s in all on two busy cores); loading an image of one costs about a quarter
// of that. Two images: the migrated database most tests start from, and the empty cluster (initdb
// only) for the tests of the migrations and of the embedded client themselves. On PostgreSQL the
// migrated start is a template database that each test database is copied from
// (CREATE DATABASE … TEMPLATE).
import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../server/db/client';
import { migrate, readMigrationFiles } from '../../server/db/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite image's file (embedded runs). */
    pgliteImage: string | null;
    /** The empty PGlite cluster's image file (embedded runs). */
    pgliteEmptyImage: string | null;
    /** The migrated template database's name (runs on TEST_DATABASE_URL). */
    postgresTemplate: string | null;
  }
}

/** Where the test images are kept between runs (the browser tier's data directory too). */
export const IMAGE_DIR = path.resolve('.tmp/test-images');

/**
 * An image, read once, that hands PGlite its bytes without Node's Blob reading them again in
 * chunks at every load (a sixth of a test database's start-up on a 43 MB image).
 */
class ImageBytes extends Blob {
  constructor(private readonly tarball: ArrayBuffer) {
    super([], { type: 'application/x-tar' });
  }
  override get size(): number {
    return this.tarball.byteLength;
  }
  // A copy: the loader owns what it is given.
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.tarball.slice(0));
  }
}

/** An image file as PGlite's `loadDataDir` takes it. */
export async function readImage(file: string): Promise<Blob> {
  const bytes = await readFile(file);
  return new ImageBytes(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

/** How the images are made: bumped when that changes, so no image of the old kind is reused. */
const IMAGE_RECIPE = 2;

/** Changes with any migration file, with PGlite's version (an image is its data directory) and with the recipe. */
export async function imageKey(): Promise<string> {
  const files = await readMigrationFiles();
  const pglite = JSON.parse(await readFile(path.resolve('node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
  return createHash('sha256')
    .update(`${IMAGE_RECIPE}\n${pglite.version}\n${files.map((file) => `${file.version}:${file.checksum}`).join('\n')}`)
    .digest('hex')
    .slice(0, 16);
}

export type ImageKind = 'migrated' | 'empty';

/** The embedded image's file, made if this set of migrations (and PGlite) has none yet. */
export async function pgliteImageFile(kind: ImageKind): Promise<string> {
  const file = path.join(IMAGE_DIR, `${kind}-${await imageKey()}.tar`);
  if (await stat(file).then(() => true, () => false)) return file;
  let image: Blob;
  if (kind === 'empty') {
    const client = new PGlite();
    try {
      // dumpDataDir does not wait for the start-up itself: the process would end waiting.
      await client.waitReady;
      image = await client.dumpDataDir('none');
    } finally {
      await client.close();
    }
  } else {
    // On top of the empty cluster: loading its image is a tenth of a second initdb.
    const database = await openDatabase({ dataDir: 'memory://', image: await readImage(await pgliteImageFile('empty')) });
    try {
      await migrate(database);
      if (database.kind !== 'pglite') throw new Error('unreachable: memory:// is embedded');
      // The portal works in the `postgres` database alone and never creates another, so the
      // template databases initdb made are dead weight in every copy: without them an image is
      // 28 MB instead of 43 and a test database starts with a third less work (600 fewer files
      // unpacked). The migrations' own tests start from the empty cluster, templates and all.
      await database.client.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
      await database.client.exec('DROP DATABASE template0');
      await database.client.exec('DROP DATABASE template1');
      await database.client.exec('CHECKPOINT');
      image = await database.client.dumpDataDir('none');
    } finally {
      await database.close();
    }
  }
  await mkdir(IMAGE_DIR, { recursive: true });
  // Written aside and renamed: a run started beside this one never reads half an image.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await image.arrayBuffer()));
  await rename(partial, file);
  return file;
}

/** `fn` with a client on the PostgreSQL server of `url` (for CREATE and DROP DATABASE). */
export async function withAdminClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A migrated template database on the server of `url`, and how to drop it. */
async function migratedPostgresTemplate(url: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `portal_template_${randomBytes(6).toString('hex')}`;
  await withAdminClient(url, (client) => client.query(`CREATE DATABASE ${name}`));
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ url: target.toString() });
  try {
    await migrate(database);
  } finally {
    // A template must have no sessions open while databases are copied from it.
    await database.close();
  }
  return { name, drop: () => withAdminClient(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined) };
}

/** Vitest global set-up of the server project: makes the starting point and hands its name to the workers. */
/** The migrated data directory for this set of migrations (and PGlite), made if there is none yet. */
export async function migratedDataDir(): Promise<string> {
  const directory = path.join(IMAGE_DIR, `portal-pglite-${await imageKey()}`);
  if (await stat(directory).then(() => true, () => false)) return directory;
  // Made aside and renamed: a run started beside this one never copies half a database.
  const partial = `${directory}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  // The server tier's migrated image (made by npm test's set-up in the same checkout, or here)
  // written out as a data directory: no initdb and no migration run again.
  const database = await openDatabase({ dataDir: path.join(partial, 'pglite'), image: await readImage(await pgliteImageFile('migrated')) });
  await database.close();
  await rename(path.join(partial, 'pglite'), `${partial}.done`);
  await rm(partial, { recursive: true, force: true });
  await rename(`${partial}.done`, directory).catch(async (error: NodeJS.ErrnoException) => {
    // Another run made it meanwhile: theirs is as good.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    await rm(`${partial}.done`, { recursive: true, force: true });
  });
  return directory;
}

/** Copies the migrated database into a portal's (empty) data directory. */
export async function seedDataDir(image: string, dataDir: string): Promise<void> {
  await cp(image, path.join(dataDir, 'pglite'), { recursive: true });
}

export default async function setup({ provide }: { provide: (key: 'pgliteImage' | 'pgliteEmptyImage' | 'postgresTemplate', value: string | null) => void }) {
  // Embedded databases are opened on PostgreSQL runs too (the client's own tests, the migrations').
  provide('pgliteEmptyImage', await pgliteImageFile('empty'));
  provide('pgliteImage', await pgliteImageFile('migrated'));
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    provide('postgresTemplate', null);
    return undefined;
  }
  const template = await migratedPostgresTemplate(url);
  provide('postgresTemplate', template.name);
  return () => template.drop();
}
