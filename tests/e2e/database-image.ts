// The browser tier's starting database, made once per run (Vitest's global set-up): a portal's
// first start on an empty data directory spends about 12 of its 17 s on initdb and the migrations,
// and every journey file starts its own portal. Each portal's data directory begins as a copy of
// one migrated embedded database instead; the server then finds its schema current, and its first
// start seeds the administrator and the demo data as on any fresh install. The path from an empty
// directory (initdb and every migration) keeps its checks: the session journeys start that way, as
// do CI's `npm start` in a fresh clone and the server tier's bootstrap tests.
import { migratedDataDir } from '../server/database-image';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated embedded database's data directory, copied into each portal's DATA_DIR (seedDataDir). */
    portalDatabaseImage: string;
  }
}

export default async function setup({ provide }: { provide: (key: 'portalDatabaseImage', value: string) => void }) {
  provide('portalDatabaseImage', await migratedDataDir());
}
