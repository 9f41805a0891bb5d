// `npm run db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded database in DATA_DIR.
import { ConfigError, embeddedDataDir, parseEnv } from '../config';
import { openDatabase } from './client';
import { migrate, MigrationError } from './migrate';

try {
  const config = parseEnv(process.env);
  const database = config.databaseUrl
    ? await openDatabase({ url: config.databaseUrl })
    : await openDatabase({ dataDir: embeddedDataDir(config) });
  try {
    const result = await migrate(database, { log: (m) => console.log(m) });
    console.log(
      result.applied.length > 0
        ? `Applied ${result.applied.length} migration(s); schema is at version ${result.version}.`
        : `Nothing to apply; schema is at version ${result.version}.`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError || error instanceof MigrationError ? error.message : error);
  process.exit(1);
}
