// The browser tier's starting database, made once per run (Vitest's global set-up): a portal's
// first start on an empty data directory spends about 12 of its 17 s on initdb and the migrations,
// and every journey file starts its own portal. Each portal's data directory begins as a copy of
// one migrated embedded database instead; the server then finds its schema current, and its first
// start seeds the administrator and the demo data as on any fresh install. The path from an empty
// directory (initdb and every migration) keeps its checks: the session journeys start that way, as
// do CI's `npm start` in a fresh clone and the server tier's bootstrap tests.
import { cp, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { openDatabase } from '../../server/db/client';
import { IMAGE_DIR, imageKey, pgliteImageFile, readImage } from '../server/database-image';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database's data directory, copied into each portal's DATA_DIR. */
    portalDatabaseImage: string;
  }
}

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

export default async function setup({ provide }: { provide: (key: 'portalDatabaseImage', value: string) => void }) {
  provide('portalDatabaseImage', await migratedDataDir());
}
